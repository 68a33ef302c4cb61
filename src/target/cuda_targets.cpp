// NVIDIA compute capabilities as data. Every number was cross-checked in the
// research notes between Nsight Compute's occupancy calculator (get_gpu_data),
// NVIDIA CCCL's arch_traits.h and, for 9.0, an H100's cudaDeviceProp:
//   ../shared/research/nvidia-intel.md §2.2.
#include <algorithm>
#include <cctype>
#include <string>

#include "arch_list.h"
#include "regscope/target/cuda.h"

namespace regscope {

const std::vector<CudaArch> &cudaArchs() {
  // name, products, cc, warps/SM, blocks/SM, threads/block, regs/SM, regs/block, regs/thread,
  // reg unit, sub-partitions, smem/SM, smem/block default, opt-in, granule, reserved, barrier factor,
  // carveout steps (KiB)
  static const std::vector<CudaArch> archs = {
      {"sm_75",
       {"T4", "RTX 2080"},
       7,
       5,
       32,
       16,
       1024,
       65536,
       65536,
       255,
       256,
       4,
       65536,
       49152,
       65536,
       256,
       0,
       0,
       {32, 64}},
      {"sm_80",
       {"A100", "A30"},
       8,
       0,
       64,
       32,
       1024,
       65536,
       65536,
       255,
       256,
       4,
       167936,
       49152,
       166912,
       128,
       1024,
       0,
       {0, 8, 16, 32, 64, 100, 132, 164}},
      {"sm_86",
       {"RTX 3090", "A40", "A10"},
       8,
       6,
       48,
       16,
       1024,
       65536,
       65536,
       255,
       256,
       4,
       102400,
       49152,
       101376,
       128,
       1024,
       0,
       {0, 8, 16, 32, 64, 100}},
      {"sm_89",
       {"L40S", "L4", "RTX 4090"},
       8,
       9,
       48,
       24,
       1024,
       65536,
       65536,
       255,
       256,
       4,
       102400,
       49152,
       101376,
       128,
       1024,
       0,
       {0, 8, 16, 32, 64, 100}},
      // 9.0: the runtime limits blocks by barriers (blocks x 2 / barriers).
      {"sm_90",
       {"H100", "H200", "GH200"},
       9,
       0,
       64,
       32,
       1024,
       65536,
       65536,
       255,
       256,
       4,
       233472,
       49152,
       232448,
       128,
       1024,
       2,
       {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}},
      // Blackwell [Blackwell Tuning Guide 1.4.1.1; CUDA 13.0 cuda_occupancy.h: blocks/SM 32 for 10.x
      // (24 for 12.x, where the guide says 32: the header is what cudaOccupancy* computes), barriers
      // x2 for 10.0/10.3 and x1 for 12.x, carveouts; device reports: B200 2048 threads/SM, 228 KB;
      // RTX 5090 1536 threads/SM, 102400 B/SM, 101376 B opt-in]. The header's per-kernel
      // "virtual resource" limit needs a count ptxas does not print: not modelled.
      {"sm_100",
       {"B200", "GB200"},
       10,
       0,
       64,
       32,
       1024,
       65536,
       65536,
       255,
       256,
       4,
       233472,
       49152,
       232448,
       128,
       1024,
       2,
       {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}},
      {"sm_103",
       {"B300", "GB300"},
       10,
       3,
       64,
       32,
       1024,
       65536,
       65536,
       255,
       256,
       4,
       233472,
       49152,
       232448,
       128,
       1024,
       2,
       {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}},
      {"sm_120",
       {"RTX 5090", "RTX 5080", "RTX PRO 6000"},
       12,
       0,
       48,
       24,
       1024,
       65536,
       65536,
       255,
       256,
       4,
       102400,
       49152,
       101376,
       128,
       1024,
       1,
       {0, 8, 16, 32, 64, 100}},
  };
  return archs;
}

const CudaArch *findCudaArch(std::string_view name) {
  std::string key;
  for (char c : name) key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (key.rfind("compute_", 0) == 0) key = "sm_" + key.substr(8);
  if (key.rfind("sm_", 0) != 0 && !key.empty() && std::isdigit(static_cast<unsigned char>(key[0]))) {
    key.erase(std::remove(key.begin(), key.end(), '.'), key.end());
    key = "sm_" + key;
  }
  if (!key.empty() && key.back() == 'a' && key.rfind("sm_", 0) == 0) key.pop_back();  // sm_90a: same limits
  for (const CudaArch &arch : cudaArchs()) {
    if (key == arch.name) return &arch;
    for (std::string_view product : arch.products) {
      std::string p;
      for (char c : product) p += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (key == p) return &arch;
    }
  }
  return nullptr;
}

std::string knownCudaArchList() { return formatArchList(cudaArchs()); }

}  // namespace regscope
