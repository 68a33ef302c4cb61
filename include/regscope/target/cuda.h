// NVIDIA compute capabilities as data: one row per target, the source of each
// number in cuda_targets.cpp (the research notes cross-check Nsight Compute's
// occupancy calculator, CCCL's arch_traits.h and an H100's cudaDeviceProp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "regscope/support/vendor.h"

namespace regscope {

struct CudaArch {
  static constexpr Vendor vendor = Vendor::Nvidia;  // every row's
  std::string_view name;                            // "sm_90"
  std::vector<std::string_view> products;           // "H100", ...
  int major, minor;
  int max_warps_per_sm;
  int max_blocks_per_sm;
  int max_threads_per_block;
  int registers_per_sm;
  int registers_per_block;
  int max_registers_per_thread;
  int register_alloc_unit;       // registers per warp are rounded up to this
  int sub_partitions;            // registers are allocated per quarter SM
  int shared_per_sm;             // at the largest carveout
  int shared_per_block_default;  // without the opt-in attribute
  int shared_per_block_optin;
  int shared_granule;
  int shared_reserved_per_block;  // the driver's per-block reservation
  int barrier_blocks_factor;      // barrier limit: blocks x this / barriers; 0: no limit
  std::vector<int> carveout_kib;  // the shared-memory sizes an SM can be configured to
};

const std::vector<CudaArch> &cudaArchs();
// "sm_90", "sm_90a", "90", "9.0" or a product ("H100").
const CudaArch *findCudaArch(std::string_view name);
std::string knownCudaArchList();
inline bool looksLikeCudaArch(std::string_view name) {
  return name.rfind("sm_", 0) == 0 || name.rfind("compute_", 0) == 0;
}

}  // namespace regscope
