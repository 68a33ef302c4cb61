// The CUDA occupancy model: blocks per SM from warps, blocks, registers,
// shared memory and barriers, over the rows of target/cuda.h. Written from
// the published rules (CUDA Programming Guide, Nsight Compute's occupancy
// calculator); see ../shared/research/nvidia-intel.md §2.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "regscope/model/limiter.h"
#include "regscope/target/cuda.h"

namespace regscope {

struct CudaResources {
  int registers = 0;       // per thread
  int static_shared = 0;   // bytes per block
  int dynamic_shared = 0;  // bytes per block, given at launch
  int barriers = 1;        // the runtime assumes 1
  int block_size = 256;
  int carveout_percent = -1;  // preferred shared-memory carveout; -1: the default (the largest)
};

// Static plus dynamic shared memory, each up to INT_MAX (a flag, a launch):
// summed in 64 bits, never wrapped (2147483647 + 2147482625 was -1024 bytes).
inline std::int64_t cudaSharedBytes(const CudaResources &r) {
  return std::int64_t{r.static_shared} + std::int64_t{r.dynamic_shared};
}
// The same, saturated at INT_MAX where an int is wanted (anything that large fits no SM).
inline int cudaSharedBytesSaturated(const CudaResources &r) {
  return static_cast<int>(std::min<std::int64_t>(cudaSharedBytes(r), INT32_MAX));
}

struct CudaNextStep {
  int blocks_per_sm = 0;
  int registers_to_free = 0;  // 0: registers already allow it
  int shared_to_free = 0;
};

struct CudaOccupancy {
  int blocks_per_sm = 0;
  int warps_per_sm = 0;
  int max_warps_per_sm = 0;
  double fraction = 0;
  Limiter limiter = Limiter::None;  // Registers, Shared, Warps, Blocks, Barriers, None or Invalid
  int by_warps = 0, by_blocks = 0, by_registers = 0, by_shared = 0, by_barriers = 0;
  std::optional<CudaNextStep> next;
  int largest_block_same_occupancy = 0;  // the largest block size with as many warps per SM
  // Why the launch cannot run, when limiter is Invalid.
  enum class Invalid { None, BlockSize, Registers, Shared, LaunchBounds } invalid = Invalid::None;
};

CudaOccupancy computeCudaOccupancy(const CudaArch &arch, const CudaResources &r);

// Blocks per SM allowed by each resource (INT_MAX when it does not limit).
int cudaBlocksByRegisters(const CudaArch &arch, int registers, int block_size);
int cudaBlocksByShared(const CudaArch &arch, int shared_bytes, int carveout_percent = -1);

// Register count -> warps per SM at `block_size` (the `table` subcommand).
struct CudaTableRow {
  int min_registers, max_registers, blocks_per_sm, warps_per_sm;
};
std::vector<CudaTableRow> cudaRegisterTable(const CudaArch &arch, int block_size);

}  // namespace regscope
