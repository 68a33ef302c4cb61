// The model stage for one kernel record: which launch it assumes, the
// vendor's occupancy result, and a vendor-neutral summary. Plain facts only:
// the sentences that explain them are written by the views.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "regscope/collect/kernel_record.h"
#include "regscope/model/amdgpu_occupancy.h"
#include "regscope/model/cuda_occupancy.h"
#include "regscope/model/intel_occupancy.h"
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
};

// The compiler's own printed occupancy against regscope's models.
// The compiler knows only what it compiled: the kernel's maximum workgroup
// size and its static LDS. regscope models it with those, and its own figure
// with the launch.
struct CompilerFigure {
  int printed = 0;                                // what the compiler printed
  CompilerModel model = CompilerModel::Hardware;  // the compiler generation regscope modelled
  int expected = 0;                               // what that model gives: equal to `printed` when understood
  int waves_per_workgroup = 0;                    // at the compiler's workgroup size, for LLVM 15's LDS rule
  int compile_block_size = 0;                     // the workgroup size the compiler assumed (its maximum)
  bool launch_differs = false;                    // the launch's size or dynamic LDS is not what the compiler saw
  int hardware_at_compile = 0;                    // the hardware's figure for what the compiler saw
};

struct AmdKernelModel {
  AmdArch arch;         // the row as the kernel runs: its wave size and WGP/CU mode
  Occupancy occupancy;  // empty when unresolved
  std::optional<CompilerFigure> compiler;
  // gfx908 without MFMA: the compiler parks VGPRs in the separate AGPR file
  // and copies them back and forth; "VGPRs Spill" still says 0.
  bool hidden_agpr_spills = false;
  // A register or LDS figure is an LLVM 20+ expression over symbols defined in
  // another translation unit: no occupancy until link (record.unresolved).
  bool unresolved = false;
  KernelResources resources;  // as the model saw them: the launch applied (empty when unresolved)
};

struct CudaKernelModel {
  CudaArch arch;
  CudaResources resources;  // as the model saw them: the launch applied
  CudaOccupancy occupancy;
};

struct IntelKernelModel {
  IntelDevice device;
  IntelTarget target;        // the device as named and the GRF mode compiled for
  IntelResources resources;  // as the model saw them: the launch applied
  IntelOccupancy occupancy;
  std::int64_t spill_bytes = 0;  // per hardware thread (intelSpillBytes)
  // Intel's rule, when the kernel was compiled in both small and large GRF
  // mode (--grf both); on both records.
  std::optional<GrfRecommendation> grf_recommendation;
};

using KernelModel = std::variant<AmdKernelModel, CudaKernelModel, IntelKernelModel>;

// The vendor-neutral figures the gate, the baseline and the CI formats use:
// AMD in waves per SIMD, VGPRs and spilled registers; NVIDIA in warps per SM,
// registers and spill-store bytes; Intel in hardware threads per Xe-core (of
// the small-GRF thread slots), GRF registers and spill bytes per thread.
struct OccupancySummary {
  Vendor vendor = Vendor::Amd;
  int level = 0;  // waves/SIMD, warps/SM or threads/Xe-core
  int max_level = 0;
  int level_by_registers = 0;  // what registers alone would allow
  int registers = 0;           // VGPRs (unified total), registers per thread, or GRF per thread (the mode)
  int spills = 0;
  int scratch_bytes = 0;  // scratch per lane (Intel: per hardware thread / SIMD), or the stack frame
  Limiter limiter = Limiter::None;
};
// "waves/SIMD", "warps/SM", "threads/Xe-core"
const char *occupancyUnit(Vendor vendor);
// "spilled registers", "bytes of spill stores", "bytes of spill per thread"
const char *spillsUnit(Vendor vendor);

// The models work in int. A record's figure outside 0..kMaxModelFigure (ptxas
// once printed "4294966272 bytes smem") is impossible on every target: the
// kernel is invalid with that reason, never modelled with a clamped figure.
inline constexpr std::int64_t kMaxModelFigure = std::int64_t{1} << 28;

struct ModelledKernel {
  LaunchAssumption launch;
  KernelModel model;
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
};

// The figures a record of `vendor` must carry (on `arch` for AMD's AGPRs) that
// it lacks; unresolved (until link) figures are not missing. Exposed for the tests.
std::vector<Field> missingFigures(const KernelRecord &record);

// The AMD model of one record on `row` (the table row; the record's wave size
// and WGP/CU mode are applied). `compiler` is the generation whose printed
// figure the record's CompilerOccupancy should match.
ModelledKernel modelAmdKernel(const KernelRecord &record, const AmdArch &row, const LaunchOverrides &launch,
                              CompilerModel compiler);
ModelledKernel modelCudaKernel(const KernelRecord &record, const CudaArch &arch, const LaunchOverrides &launch);
// The Xe model of one record compiled for `target` on `device`. A required
// work-group size (reqd_work_group_size) is the only one the kernel launches
// with, so it wins over --block-size; else --block-size, else 256.
ModelledKernel modelIntelKernel(const KernelRecord &record, const IntelDevice &device, const IntelTarget &target,
                                const LaunchOverrides &launch);

}  // namespace regscope
