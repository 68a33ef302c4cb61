// The plain data that flows from the collectors to the model: per-kernel
// resource figures, first as each source reported them (KernelFacts), then
// merged into one record per (kernel, arch) (KernelRecord).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace regscope {

// Every per-kernel figure a compiler reports. Collectors fill the ones their
// source carries; the merge step checks that the sources agree.
enum class Field {
  Vgprs,             // architectural VGPRs (remark "VGPRs", "; NumVgprs")
  Agprs,             // accumulation VGPRs (MAI targets: gfx908, gfx90a, gfx94x)
  VgprsTotal,        // VGPRs the hardware allocates: unified v+a file, waves-per-eu padding
  Sgprs,             // includes the VCC / XNACK / flat-scratch extras
  ScratchBytes,      // private segment, bytes per lane
  VgprSpills,
  SgprSpills,
  LdsBytes,          // static LDS per workgroup
  MaxWorkgroupSize,  // max flat workgroup size the kernel was compiled for
  WaveSize,
  DynamicStack,      // 0 or 1
  CompilerOccupancy, // the compiler's own printed waves/SIMD
  // NVIDIA (ptxas -v / nvlink, and the PTX's launch bounds)
  Registers,         // per thread
  SpillStoreBytes,
  SpillLoadBytes,
  StackBytes,        // stack frame (local arrays and spills)
  SharedBytes,       // static shared memory per block
  ConstantBytes,     // cmem[0]: kernel parameters and the like
  Barriers,
  MaxThreadsPerBlock,  // __launch_bounds__ (.maxntid)
  MinBlocksPerSm,      // __launch_bounds__ second argument (.minnctapersm)
  WgpMode,             // AMD RDNA: 1 WGP mode (the default), 0 CU mode (-mcumode)
  AgprCopies,          // AMD: v_accvgpr_read/write instructions in the kernel's body
  MfmaInstructions,    // AMD: v_mfma instructions (matrix cores) in the body
};
inline constexpr std::size_t kFieldCount = 24;

// Name of a field in JSON and in warnings.
const char *fieldKey(Field f);

using FieldValues = std::array<std::optional<std::int64_t>, kFieldCount>;

// One kernel's figures as one source (remarks, .s, ...) reported them.
struct KernelFacts {
  std::string name;       // mangled symbol
  std::string arch;       // "gfx90a", "sm_90"; empty when the source does not say
  std::string vendor = "amd";  // "amd" or "nvidia"
  std::string file;       // as the compiler printed it; may be empty
  int line = 0;           // where the compiler points: the body's opening brace
  bool is_kernel = true;  // false for LLVM 15's Occupancy-0 device-function blocks
  FieldValues values;
  std::vector<Field> unresolved;  // LLVM 20+ expressions naming symbols defined elsewhere

  std::optional<std::int64_t> get(Field f) const { return values[static_cast<std::size_t>(f)]; }
  void set(Field f, std::int64_t v) { values[static_cast<std::size_t>(f)] = v; }
};

// The facts one source produced, with the source's name for warnings.
struct FactSet {
  std::string source;  // "remarks", ".s", ...
  std::vector<KernelFacts> kernels;
};

// One kernel on one arch after merging every source.
struct KernelRecord {
  std::string name;
  std::string demangled;
  std::string arch;
  std::string vendor = "amd";
  std::string file;
  int line = 0;        // the line where the kernel is declared
  FieldValues values;
  std::vector<std::string> sources;   // which sources contributed
  std::vector<std::string> warnings;  // disagreements between sources, and the like
  std::vector<Field> unresolved;      // figures no source could resolve (until link)

  bool has(Field f) const { return values[static_cast<std::size_t>(f)].has_value(); }
  std::int64_t value(Field f) const { return values[static_cast<std::size_t>(f)].value_or(0); }
};

}  // namespace regscope
