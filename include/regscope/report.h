// The one report every printer reads: the merged kernel records with the
// model's verdict on each, plus what produced them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "regscope/cuda.h"
#include "regscope/kernel_record.h"
#include "regscope/occupancy.h"

namespace regscope {

inline constexpr const char *kRegscopeVersion = "0.1.0";
inline constexpr const char *kSchemaVersion = "1.0";

// The vendor-neutral figures the gate, the baseline and the CI formats use:
// AMD in waves per SIMD, VGPRs and spilled registers; NVIDIA in warps per SM,
// registers and spill-store bytes.
struct OccupancySummary {
  int level = 0;               // waves/SIMD or warps/SM
  int max_level = 0;
  std::string unit;            // "waves/SIMD" or "warps/SM"
  int level_by_registers = 0;  // what registers alone would allow
  int registers = 0;           // VGPRs (unified total) or registers per thread
  int spills = 0;
  std::string spills_unit;     // "spilled registers" or "bytes of spill stores"
  int scratch_bytes = 0;       // scratch per lane, or the stack frame
  std::string limiter;
};

struct KernelReport {
  KernelRecord record;
  std::string display_file;  // path as the user should read it
  int workgroup_size = 0;    // the workgroup (block) size the model assumed
  std::string workgroup_size_source;  // "max_flat_workgroup_size", "launch_bounds", "default" or "--block-size"
  Occupancy occupancy;                 // AMD
  std::optional<CudaOccupancy> cuda;   // NVIDIA
  int dynamic_shared = 0;              // NVIDIA: dynamic shared memory assumed per block
  std::optional<int> compiler_reported;
  std::string explanation;   // why the compiler's figure differs, if it does
  // gfx908 without MFMA: the compiler parks VGPRs in the separate AGPR file
  // and copies them back and forth; "VGPRs Spill" still says 0.
  bool hidden_agpr_spills = false;
  // A register or LDS figure is an LLVM 20+ expression over symbols defined in
  // another translation unit: no occupancy until link (record.unresolved).
  bool unresolved = false;
  OccupancySummary summary;
};

// Launch what-ifs from the command line.
struct LaunchOverrides {
  std::optional<int> block_size;
  int dynamic_shared = 0;  // NVIDIA only
  int carveout_percent = -1;  // NVIDIA only; -1: the largest
  int dynamic_lds = 0;        // AMD: extern __shared__ bytes given at launch
};

struct Report {
  std::string compiler_path;
  std::string compiler_version;
  std::vector<std::string> inputs;
  std::vector<KernelReport> kernels;
  std::vector<std::string> warnings;
  std::vector<std::string> errors;  // files that could not be analysed; exit 2
};

// The model stage: one KernelReport per record, each kernel's archs side by
// side. Records for archs regscope has no table for, and figures the sources
// disagreed on, become report warnings.
void addKernels(Report &report, const std::vector<KernelRecord> &records, const LaunchOverrides &launch = {});

}  // namespace regscope
