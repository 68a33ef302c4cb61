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
#include "regscope/model/limiter.h"

namespace regscope {

// Launch what-ifs from the command line.
struct LaunchOverrides {
  std::optional<int> block_size;
  int dynamic_shared = 0;     // NVIDIA: dynamic shared memory per block
  int carveout_percent = -1;  // NVIDIA; -1: the largest
  int dynamic_lds = 0;        // AMD: extern __shared__ bytes given at launch
};

// Where the workgroup (block) size the model assumed came from.
enum class BlockSizeSource { Flag, MaxFlatWorkgroupSize, LaunchBounds, Default };
// "--block-size", "max_flat_workgroup_size", "launch_bounds", "default" (JSON).
const char *blockSizeSourceName(BlockSizeSource source);

struct LaunchAssumption {
  int block_size = 0;
  BlockSizeSource source = BlockSizeSource::Default;
  int dynamic_shared = 0;  // bytes per workgroup/block given at launch
};

// The compiler's own printed occupancy against regscope's models.
struct CompilerFigure {
  int printed = 0;                                // what the compiler printed
  CompilerModel model = CompilerModel::Hardware;  // the compiler generation regscope modelled
  int expected = 0;                               // what that model gives: equal to `printed` when understood
  int waves_per_workgroup = 0;                    // for explaining LLVM 15's LDS rule
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
};

struct CudaKernelModel {
  CudaArch arch;
  CudaResources resources;  // as the model saw them: the launch applied
  CudaOccupancy occupancy;
};

using KernelModel = std::variant<AmdKernelModel, CudaKernelModel>;

// The vendor-neutral figures the gate, the baseline and the CI formats use:
// AMD in waves per SIMD, VGPRs and spilled registers; NVIDIA in warps per SM,
// registers and spill-store bytes.
struct OccupancySummary {
  Vendor vendor = Vendor::Amd;
  int level = 0;  // waves/SIMD or warps/SM
  int max_level = 0;
  int level_by_registers = 0;  // what registers alone would allow
  int registers = 0;           // VGPRs (unified total) or registers per thread
  int spills = 0;
  int scratch_bytes = 0;  // scratch per lane, or the stack frame
  Limiter limiter = Limiter::None;
};
// "waves/SIMD", "warps/SM"
const char *occupancyUnit(Vendor vendor);
// "spilled registers", "bytes of spill stores"
const char *spillsUnit(Vendor vendor);

// The models work in int: a record's figure outside 0..kMaxModelFigure (ptxas
// once printed "4294966272 bytes smem") is taken as the nearest end of that
// range, and the field is listed in ModelledKernel::clamped.
inline constexpr std::int64_t kMaxModelFigure = std::int64_t{1} << 28;

struct ModelledKernel {
  LaunchAssumption launch;
  KernelModel model;
  OccupancySummary summary;
  std::vector<Field> clamped;  // figures the model took as 0 or kMaxModelFigure instead
};

// The AMD model of one record on `row` (the table row; the record's wave size
// and WGP/CU mode are applied). `compiler` is the generation whose printed
// figure the record's CompilerOccupancy should match.
ModelledKernel modelAmdKernel(const KernelRecord &record, const AmdArch &row, const LaunchOverrides &launch,
                              CompilerModel compiler);
ModelledKernel modelCudaKernel(const KernelRecord &record, const CudaArch &arch, const LaunchOverrides &launch);

}  // namespace regscope
