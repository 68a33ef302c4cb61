// The plain data that flows from the collectors to the model: per-kernel
// resource figures, first as each source reported them (KernelFacts), then
// merged into one record per (kernel, arch) (KernelRecord).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "regscope/collect/triton_info.h"
#include "regscope/support/source_place.h"
#include "regscope/support/vendor.h"

namespace regscope {

// Every per-kernel figure a compiler reports (fields.def). Collectors fill
// the ones their source carries; the merge step checks that sources agree.
enum class Field {
#define REGSCOPE_FIELD(name, key, vendor, description) name,
#include "regscope/collect/fields.def"
#undef REGSCOPE_FIELD
};

inline constexpr std::size_t kFieldCount = 0
#define REGSCOPE_FIELD(name, key, vendor, description) +1
#include "regscope/collect/fields.def"
#undef REGSCOPE_FIELD
    ;

struct FieldInfo {
  Field field;
  const char *key;  // in JSON, warnings and the cache
  Vendor vendor;
  const char *description;
};
const std::array<FieldInfo, kFieldCount> &fieldTable();

// Name of a field in JSON, the cache and warnings.
const char *fieldKey(Field f);
std::optional<Field> fieldByKey(std::string_view key);

using FieldValues = std::array<std::optional<std::int64_t>, kFieldCount>;

// Who a kernel is and where: shared by what a source reported and the record.
struct KernelIdentity {
  std::string name;  // mangled symbol
  std::string arch;  // "gfx90a", "sm_90"; empty when the source does not say
  Vendor vendor = defaultVendor();
  std::string file;  // facts: as the compiler printed it; record: resolved
  int line = 0;      // facts: where the compiler points (the body's brace); record: the declaration
};

// One kernel's figures as one source (remarks, .s, ...) reported them.
struct KernelFacts : KernelIdentity {
  bool is_kernel = true;  // false for LLVM 15's Occupancy-0 device-function blocks
  FieldValues values;
  std::vector<Field> unresolved;      // LLVM 20+ expressions naming symbols defined elsewhere
  std::vector<std::string> notes;     // why an unresolved figure has no value, when not "until link"
  std::vector<std::string> warnings;  // two readings of one figure in this source that disagree
  std::vector<Field> missing;         // figures this source always carries that its text lacked (a damaged file)
  // With LoopSpills above 0: the line of the first spill in the deepest loop
  // (explain's ranking), where a gate's loop-spill verdict points.
  SourcePlace loop_spill_site;

  std::optional<std::int64_t> get(Field f) const { return values[static_cast<std::size_t>(f)]; }
  void set(Field f, std::int64_t v) { values[static_cast<std::size_t>(f)] = v; }
};

// The facts one source produced, with the source's name for warnings.
struct FactSet {
  std::string source;  // "remarks", ".s", ...
  std::vector<KernelFacts> kernels;
  std::vector<std::string> warnings;  // what the source said that belongs to no kernel
};

// One kernel on one arch after merging every source.
struct KernelRecord : KernelIdentity {
  std::string demangled;
  FieldValues values;
  std::vector<std::string> sources;   // which sources contributed
  std::vector<std::string> warnings;  // disagreements between sources, and the like
  std::vector<Field> unresolved;      // figures no source could resolve (until link)
  std::vector<std::string> notes;     // why an unresolved figure has no value (the sources' notes)
  // Figures a source always carries that it lacked and no other source gave:
  // unknown (ModelledKernel::unknown), never a default. Not kept by the cache.
  std::vector<Field> missing;
  // Set for a kernel read from a Triton cache entry: its metadata (the launch
  // Triton makes, the options it compiled with). Not kept by the cache.
  std::shared_ptr<const TritonInfo> triton;
  SourcePlace loop_spill_site;  // KernelFacts::loop_spill_site, from the source LoopSpills came from

  bool has(Field f) const { return values[static_cast<std::size_t>(f)].has_value(); }
  std::int64_t value(Field f) const { return values[static_cast<std::size_t>(f)].value_or(0); }
  bool isUnresolved(Field f) const;
};

}  // namespace regscope
