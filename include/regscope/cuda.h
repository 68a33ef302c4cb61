// NVIDIA: compute-capability tables as data, and the CUDA occupancy model
// (blocks per SM from warps, blocks, registers, shared memory and barriers).
// Written from the published rules (CUDA Programming Guide, Nsight Compute's
// occupancy calculator); see ../shared/research/nvidia-intel.md §2.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace regscope {

struct CudaArch {
  std::string_view name;                   // "sm_90"
  std::vector<std::string_view> products;  // "H100", ...
  int major, minor;
  int max_warps_per_sm;
  int max_blocks_per_sm;
  int max_threads_per_block;
  int registers_per_sm;
  int registers_per_block;
  int max_registers_per_thread;
  int register_alloc_unit;      // registers per warp are rounded up to this
  int sub_partitions;           // registers are allocated per quarter SM
  int shared_per_sm;            // at the largest carveout
  int shared_per_block_default; // without the opt-in attribute
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

struct CudaResources {
  int registers = 0;        // per thread
  int static_shared = 0;    // bytes per block
  int dynamic_shared = 0;   // bytes per block, given at launch
  int barriers = 1;         // the runtime assumes 1
  int block_size = 256;
  int carveout_percent = -1;  // preferred shared-memory carveout; -1: the default (the largest)
};

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
  std::string limiter;  // "registers", "shared", "warps", "blocks", "barriers", or "invalid"
  int by_warps = 0, by_blocks = 0, by_registers = 0, by_shared = 0, by_barriers = 0;
  std::optional<CudaNextStep> next;
  int largest_block_same_occupancy = 0;  // the largest block size with as many warps per SM
  std::string invalid_reason;            // why the launch cannot run, if it cannot
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
