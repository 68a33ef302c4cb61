// Asks the CUDA runtime how many blocks of each fixture kernel fit on one SM,
// for every block size from 32 to 1024 and several dynamic shared-memory
// sizes, and prints one CSV row per configuration with the figures the
// runtime itself reports for the kernel (registers, static shared memory).
// regscope's model, fed the same figures, must agree on every row
// (tests/cuda_runtime_test.cpp reads the recorded CSV).
//
// Build and run on an NVIDIA GPU:
//   nvcc -O2 -arch=sm_90 tests/cuda/occupancy_check.cu -o occupancy_check && ./occupancy_check
#include <cstdio>

#include "../../fixtures/src/cuda_probe.cu"

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

struct Kernel {
  const char *name;
  const void *function;
};

int main() {
  const Kernel kernels[] = {
      {"max_baseline", (const void *)max_baseline},
      {"max_wide_small", (const void *)max_wide_small},
      {"max_wide_both", (const void *)max_wide_both},
      {"max_baseline_lb", (const void *)max_baseline_lb},
      {"max_wide_small_lb", (const void *)max_wide_small_lb},
      {"max_wide_both_lb", (const void *)max_wide_both_lb},
      {"max_baseline_512x2", (const void *)max_baseline_512x2},
      {"smem_heavy", (const void *)smem_heavy},
      {"spill_capped", (const void *)spill_capped},
      {"recursive", (const void *)recursive},
      {"use_const", (const void *)use_const},
      {"smem_dynamic", (const void *)smem_dynamic},
  };
  const int dynamic_sizes[] = {0, 1024, 4096, 12000, 20000, 49152, 65536, 100000, 150000, 200000};

  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# %s, CC %d.%d, %d SMs, %d threads/SM, %d blocks/SM, %d regs/SM, smem/SM %zu, "
              "smem/block %zu, opt-in %zu, reserved %zu\n",
              prop.name, prop.major, prop.minor, prop.multiProcessorCount, prop.maxThreadsPerMultiProcessor,
              prop.maxBlocksPerMultiProcessor, prop.regsPerMultiprocessor, prop.sharedMemPerMultiprocessor,
              prop.sharedMemPerBlock, prop.sharedMemPerBlockOptin, prop.reservedSharedMemPerBlock);
  std::printf("arch,kernel,registers,static_shared,max_threads,block_size,dynamic_shared,blocks_per_sm\n");
  for (const Kernel &k : kernels) {
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, k.function));
    // Opt in to the largest dynamic shared memory this kernel can have.
    const int max_dynamic = static_cast<int>(prop.sharedMemPerBlockOptin) - static_cast<int>(attr.sharedSizeBytes);
    CHECK(cudaFuncSetAttribute(k.function, cudaFuncAttributeMaxDynamicSharedMemorySize, max_dynamic));
    for (int block = 32; block <= 1024; block += 32) {
      for (int dynamic : dynamic_sizes) {
        int blocks = -1;  // -1: the runtime refused the configuration
        if (block <= attr.maxThreadsPerBlock && dynamic <= max_dynamic) {
          if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k.function, block, dynamic) != cudaSuccess) {
            blocks = -1;
            cudaGetLastError();
          }
        }
        std::printf("sm_%d%d,%s,%d,%zu,%d,%d,%d,%d\n", prop.major, prop.minor, k.name, attr.numRegs,
                    attr.sharedSizeBytes, attr.maxThreadsPerBlock, block, dynamic, blocks);
      }
    }
  }
  return 0;
}
