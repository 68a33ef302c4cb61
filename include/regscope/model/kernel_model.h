// The model stage's vendor-neutral part: which launch a kernel is assumed to
// run with, and the summary every vendor's model fills in (the gate, the
// baselines and the CI formats read it). Each vendor's own model lives in its
// backend (src/backends/<vendor>/); ModelledKernel, which holds any of them,
// in include/regscope/backend/modelled_kernel.h. Plain facts only: the
// sentences that explain them are written by the views.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "regscope/collect/kernel_record.h"
#include "regscope/model/limiter.h"

namespace regscope {

// Where the workgroup (block) size the model assumed came from.
enum class BlockSizeSource {
  Flag,                   // --block-size
  Config,                 // .regscope.json's kernels entry
  LaunchSite,             // a constant at the kernel's launches in the same file
  MaxFlatWorkgroupSize,   // AMD: the kernel's maximum (__launch_bounds__ or HIP's 1024)
  LaunchBounds,           // NVIDIA: __launch_bounds__
  Default,                // NVIDIA: nothing said; 256 assumed
  RequiredWorkGroupSize,  // Intel: reqd_work_group_size
  TritonMetadata,         // a Triton cache entry: num_warps x the target's warp size
};
// "--block-size", "config", "launch_site", "max_flat_workgroup_size", "launch_bounds", "default",
// "reqd_work_group_size", "triton_metadata" (JSON).
const char *blockSizeSourceName(BlockSizeSource source);

// Where the dynamic LDS (shared memory) the model counts came from.
enum class DynamicSharedSource {
  None,            // nothing given: none counted
  Flag,            // --dynamic-lds, --dynamic-smem, --dynamic-slm
  Config,          // .regscope.json's kernels entry
  LaunchSite,      // a constant at the kernel's launches in the same file (<<<g, b, SHMEM>>>, hipLaunchKernelGGL)
  FuncAttribute,   // hip/cudaFuncSetAttribute(k, ...MaxDynamicSharedMemorySize, N) in the same file
  TritonMetadata,  // a Triton cache entry's `shared`: what Triton's launcher allocates
};
// "none", "flag", "config", "launch_site", "func_attribute", "triton_metadata" (JSON).
const char *dynamicSharedSourceName(DynamicSharedSource source);

// What the launch is known to be, beyond what the compiler saw.
struct LaunchOverrides {
  std::optional<int> block_size;
  BlockSizeSource block_size_source = BlockSizeSource::Flag;
  int dynamic_shared = 0;     // NVIDIA: dynamic shared memory per block
  int carveout_percent = -1;  // NVIDIA; -1: the largest
  int dynamic_lds = 0;        // AMD: extern __shared__ bytes given at launch
  int dynamic_slm = 0;        // Intel: bytes of __local kernel arguments per work-group, given at launch
  DynamicSharedSource dynamic_source = DynamicSharedSource::Flag;  // of dynamic_shared/dynamic_lds when not 0
  // "FILE:LINE" of a launch in the source whose block size (dynamic LDS /
  // shared memory) regscope could not evaluate; empty when none. Unless the
  // flag or config gives the size, the launch is unknown (launchUnknown).
  std::string block_size_unread_at;
  std::string dynamic_unread_at;
};

struct LaunchAssumption {
  int block_size = 0;
  BlockSizeSource source = BlockSizeSource::Default;
  int dynamic_shared = 0;  // bytes per workgroup/block given at launch
  DynamicSharedSource dynamic_source = DynamicSharedSource::None;
  // The kernel was compiled for at most this many threads per block
  // (__launch_bounds__, or HIP's 1024); 0 when nothing says.
  int max_block_size = 0;
  // A block larger than the kernel's bound cannot launch at all.
  bool exceeds_bound() const { return max_block_size > 0 && block_size > max_block_size; }
  // Set when block_size is an assumption because a launch in the source
  // passes one regscope could not evaluate ("FILE:LINE"); the occupancy is
  // modelled at block_size but marked, and the gate does not judge it.
  std::string block_size_unread_at;
  // Set when a launch passes dynamic LDS/shared memory regscope could not
  // evaluate and nothing gave it: the occupancy is unknown.
  std::string dynamic_unread_at;
};

// Why the launch the model assumes is not known, naming the launch and what
// settles it (empty when it is known): the one sentence analyze, explain and
// the gate say. `dynamic_flag`: the vendor's flag (--dynamic-lds, --dynamic-smem).
std::string launchUnknown(const LaunchAssumption &launch, const char *dynamic_flag);

// The vendor-neutral figures the gate, the baseline and the CI formats use:
// AMD in waves per SIMD, VGPRs and spilled registers; NVIDIA in warps per SM,
// registers and spill-store bytes; Intel in hardware threads per Xe-core (of
// the small-GRF thread slots), GRF registers and spill bytes per thread.
struct OccupancySummary {
  Vendor vendor = defaultVendor();
  int level = 0;  // waves/SIMD, warps/SM or threads/Xe-core
  int max_level = 0;
  int level_by_registers = 0;  // what registers alone would allow
  int registers = 0;           // VGPRs (unified total), registers per thread, or GRF per thread (the mode)
  int spills = 0;
  int scratch_bytes = 0;  // scratch per lane (Intel: per hardware thread / SIMD), or the stack frame
  Limiter limiter = Limiter::None;
  // Whether each figure above was read: one that was not (no occupancy was
  // computed, or a source lacked it) is shown as unknown, never as its 0.
  bool registers_known = false, spills_known = false, scratch_known = false;
  // The level as baselines before 1.5 recorded it, where the model has changed since: AMD gfx9
  // SGPRs counted by LLVM's step table, the descriptor's allocation not counted. Unset: `level`.
  std::optional<int> level_before_baseline_1_5;
};
// The models work in int. A record's figure outside 0..kMaxModelFigure (ptxas
// once printed "4294966272 bytes smem") is impossible on every target: the
// kernel is invalid with that reason, never modelled with a clamped figure.
inline constexpr std::int64_t kMaxModelFigure = std::int64_t{1} << 28;

// What every vendor's model of a kernel says beside its own figures
// (ModelledKernel adds those: include/regscope/backend/modelled_kernel.h).
struct ModelFacts {
  LaunchAssumption launch;
  OccupancySummary summary;
  // Figures this kernel must have that no source gave (a deleted line, a
  // damaged remark): shown as unknown, never as 0. When one of them feeds the
  // occupancy, there is none: summary.limiter is Limiter::Unknown.
  std::vector<Field> unknown;
  // Why a figure cannot be on this target (more VGPRs than the file, LDS over
  // the per-workgroup maximum, a workgroup of 0): the kernel cannot launch
  // (Limiter::Invalid) and gets no occupancy. Empty otherwise.
  std::string impossible;

  bool judged() const { return summary.limiter != Limiter::Unknown && unknown.empty(); }
  // Whether `f` was read (it is not among `unknown`).
  bool knows(Field f) const { return std::find(unknown.begin(), unknown.end(), f) == unknown.end(); }
};

// The figures `record` lacks: those its source's format always carries
// (record.missing), then those of `required` (its vendor's model needs them:
// Backend::requiredFigures) that it has not and that are not unresolved until
// link. Each once, in that order.
std::vector<Field> missingFigures(const KernelRecord &record, const std::vector<Field> &required);

}  // namespace regscope
