// Parses AMDGPU device assembly (.s from --save-temps or -S). Three places in
// the file carry figures; for each kernel they are combined in this order:
//  1. "; Kernel info:" comments: NumVGPRsForWavesPerEU (the allocation) and
//     the printed Occupancy;
//  2. the .amdgpu_metadata YAML block (the code object's note, verbatim);
//  3. the .amdhsa_kernel descriptor directives: what the hardware reads.
// A figure two of them give differently is unknown; the allocation is then
// checked against what the code uses (checkAllocation).
#include <llvm/BinaryFormat/MsgPackDocument.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "allocation.h"
#include "amdgpu_metadata.h"
#include "figure_notes.h"
#include "regscope/backends/amd/collect.h"
#include "regscope/backends/amd/isa.h"
#include "regscope/backends/amd/mc_expr.h"
#include "regscope/collect/collect.h"
#include "regscope/collect/scan.h"
#include "regscope/support/error.h"
#include "regscope/support/llvm_compat.h"
#include "regscope/target/amdgpu.h"
#include "remark_labels.h"

namespace regscope {
namespace {

using llvm::StringRef;

struct KernelSections {
  FieldValues comments, metadata, directives;
  std::vector<Field> unresolved;
  std::vector<std::string> notes;  // why a figure is unresolved, when not "until link"
  std::vector<Field> missing;      // what the metadata always says of a kernel, and did not
  bool is_kernel = false;
  bool in_metadata = false;                // the file's metadata has an entry for it
  std::int64_t agpr_copies = 0, mfma = 0;  // counted over the function's body
  // .amdhsa_next_free_sgpr excludes the VCC / flat-scratch / XNACK SGPRs; the
  // .amdhsa_reserve_* directives (absent: their defaults) say which the
  // assembler adds to it before it encodes the allocation (AMDGPUUsage).
  std::optional<std::int64_t> next_free_sgpr;
  std::optional<bool> reserve_vcc, reserve_flat_scratch, reserve_xnack_mask;
};

// The functions of a file, in the order first seen.
class Functions {
 public:
  KernelSections &operator[](const std::string &name) {
    auto [it, inserted] = sections_.try_emplace(name);
    if (inserted) order_.push_back(name);
    return it->second;
  }
  const std::vector<std::string> &order() const { return order_; }
  bool empty() const { return sections_.empty(); }

 private:
  std::map<std::string, KernelSections> sections_;
  std::vector<std::string> order_;
};

void setField(FieldValues &values, Field f, std::int64_t v) { values[static_cast<std::size_t>(f)] = v; }

// "; Kernel info:" comment keys.
const std::map<std::string, Field, std::less<>> kCommentFields = {
    {"NumSgprs", Field::Sgprs},
    {"NumVgprs", Field::Vgprs},
    {"NumAgprs", Field::Agprs},
    {"ScratchSize", Field::ScratchBytes},
    {"LDSByteSize", Field::LdsBytes},
    {"TotalNumVgprs", Field::VgprsUsed},
    {"NumVGPRsForWavesPerEU", Field::VgprsTotal},
    {"Occupancy", Field::CompilerOccupancy},
};

// .amdhsa_* directive keys (values are plain integers up to LLVM 19).
const std::map<std::string, Field, std::less<>> kDirectiveFields = {
    {".amdhsa_next_free_vgpr", Field::VgprsTotal},
    {".amdhsa_accum_offset", Field::AccumOffset},
    {".amdhsa_group_segment_fixed_size", Field::LdsBytes},
    {".amdhsa_private_segment_fixed_size", Field::ScratchBytes},
    {".amdhsa_uses_dynamic_stack", Field::DynamicStack},
    {".amdhsa_wavefront_size32", Field::WaveSize},  // 1 -> 32, 0 -> 64; fixed below
    {".amdhsa_workgroup_processor_mode", Field::WgpMode},
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

void parseMetadata(std::string_view yaml, Functions &kernels, std::string &arch) {
  llvm::msgpack::Document doc;
  metadataFromYaml(yaml, doc);
  Metadata metadata = readMetadata(doc);
  if (arch.empty()) arch = metadata.arch;
  for (MetadataKernel &k : metadata.kernels) {
    KernelSections &sections = kernels[k.name];
    sections.is_kernel = true;
    sections.in_metadata = true;
    sections.metadata = k.values;
    sections.missing = missingFromMetadata(k);
  }
}

// "\t.set NAME, EXPR" (LLVM 20+ resource symbols).
std::optional<std::pair<StringRef, StringRef>> setDirective(StringRef line) {
  StringRef s = scan::ltrim(line);
  if (!s.consume_front(".set") || !scan::consumeSpaces(s)) return std::nullopt;
  const std::size_t name_end = s.find_if([](char c) { return c == ',' || scan::isSpace(c); });
  if (name_end == 0 || name_end == StringRef::npos) return std::nullopt;
  StringRef rest = scan::ltrim(s.substr(name_end));
  if (!rest.consume_front(",")) return std::nullopt;
  StringRef value = scan::trim(rest);
  if (value.empty()) return std::nullopt;
  return std::make_pair(s.take_front(name_end), value);
}

// "\t.type NAME,@function"
std::optional<StringRef> functionType(StringRef line) {
  StringRef s = line;
  if (!s.consume_front(".type") || !scan::consumeSpaces(s)) return std::nullopt;
  const std::size_t name_end = s.find_if([](char c) { return c == ',' || scan::isSpace(c); });
  if (name_end == 0 || name_end == StringRef::npos || s[name_end] != ',') return std::nullopt;
  StringRef rest = scan::ltrim(s.substr(name_end + 1));
  if (!startsWith(rest, "@function")) return std::nullopt;
  return s.take_front(name_end);
}

// "; KEY: VALUE" or "; KEY = VALUE" inside "; Kernel info:".
std::optional<std::pair<StringRef, StringRef>> infoComment(StringRef line) {
  StringRef s = line;
  if (!s.consume_front(";")) return std::nullopt;
  s = scan::ltrim(s);
  const std::size_t key_end = s.find_if_not(scan::isLetter);
  if (key_end == 0) return std::nullopt;
  StringRef rest = scan::ltrim(s.substr(key_end == StringRef::npos ? s.size() : key_end));
  if (!rest.consume_front(":") && !rest.consume_front("=")) return std::nullopt;
  StringRef value = scan::trim(rest);
  if (value.empty()) return std::nullopt;
  return std::make_pair(s.take_front(key_end), value);
}

// A value that is a plain number, perhaps followed by words ("0 bytes/workgroup
// (compile time only)"); nullopt when it is not one (an expression, say).
std::optional<std::int64_t> leadingNumber(StringRef value, bool &overflow) {
  StringRef s = value;
  const bool negative = s.consume_front("-");
  std::optional<std::int64_t> n = scan::consumeNumber(s, overflow);
  if (!n || (!s.empty() && !scan::isSpace(s.front()))) return std::nullopt;
  if (negative && __builtin_sub_overflow(std::int64_t{0}, *n, &*n)) overflow = true;
  return n;
}

}  // namespace

AsmFile parseAsm(std::string_view text) {
  return parseAsm([text](const std::function<void(std::string_view)> &fn) {
    scan::forEachLine(text, [&](StringRef line) { fn(scan::view(line)); });
  });
}

namespace {

// Spill accesses inside loops (Field::LoopSpills). A kernel the compiler
// counted no VGPR or SGPR spill for has none (its counts include AGPR slots
// and VGPR lanes), so the MC layer reads only a text that holds a spilling
// kernel (kernelSpillTotals), and not one beyond kMaxSpillSiteText, whose
// instructions it would hold at once (parse reads large .s files in flat
// memory). Unknown when LLVM 15 cannot read it, when an instruction it cannot
// read could branch or reach private memory, and when the compiler counted
// VGPR spills but the text marks none (its comments gone).
void addLoopSpills(AsmFile &file, const LineSource &lines) {
  constexpr std::size_t kMaxSpillSiteText = 64u << 20;
  // Only a kernel whose spill counts were read is counted: LLVM 20+'s counts
  // written as expressions over other symbols leave it unknown.
  bool spilling = false;
  for (KernelFacts &k : file.facts.kernels) {
    const std::optional<std::int64_t> v = k.get(Field::VgprSpills), s = k.get(Field::SgprSpills);
    if (v && s && *v == 0 && *s == 0)
      k.set(Field::LoopSpills, 0);
    else if (v && s)
      spilling = true;
  }
  if (!spilling) return;
  std::string text;
  bool too_large = false;
  lines([&](std::string_view line) {
    if (too_large || text.size() + line.size() + 1 > kMaxSpillSiteText) {
      too_large = true;
      return;
    }
    text.append(line);
    text.push_back('\n');
  });
  if (too_large) return;
  const std::map<std::string, KernelSpills> totals = kernelSpillTotals(text, file.arch);
  for (KernelFacts &k : file.facts.kernels) {
    if (k.get(Field::LoopSpills) || !k.get(Field::VgprSpills) || !k.get(Field::SgprSpills)) continue;
    auto it = totals.find(k.name);
    if (it == totals.end()) continue;
    const std::optional<std::int64_t> counted = k.get(Field::VgprSpills);
    if (counted && *counted > 0 && it->second.totals.store_dwords == 0) continue;
    k.set(Field::LoopSpills, it->second.totals.in_loops);
    k.loop_spill_site = it->second.first_in_loop;
  }
}

}  // namespace

AsmFile parseAsm(const LineSource &lines) {
  AsmFile out;
  out.facts.source = ".s";
  Functions kernels;

  // LLVM 20+: resource symbols (".set k.num_vgpr, max(42, callee.num_vgpr)").
  std::map<std::string, std::string> symbols;
  lines([&](std::string_view line) {
    // setDirective's own first test, inline: a search of every line for ".set" was a tenth of a large .s
    if (startsWith(scan::ltrim(scan::ref(line)), ".set"))
      if (auto set = setDirective(scan::ref(line))) symbols[set->first.str()] = set->second.str();
  });
  // Each symbol is evaluated once per target (the file names it once, first).
  std::optional<McExprEvaluator> evaluator;
  // A value as a number: plain, or an expression over the file's symbols.
  // Records `field` as unresolved (with the reason) when it has none.
  auto valueOf = [&](StringRef v, Field field, KernelSections &sections) -> std::optional<std::int64_t> {
    bool overflow = false;
    if (std::optional<std::int64_t> n = leadingNumber(v, overflow); n && !overflow) return n;
    const AmdArch *target = findAmdArch(out.arch);
    if (!evaluator || evaluator->target() != target) evaluator.emplace(symbols, target);
    const McExprValue value =
        overflow ? McExprValue{std::nullopt, McExprProblem::Overflow, {}} : evaluator->evaluate(scan::view(v));
    if (value.value) return value.value;
    sections.unresolved.push_back(field);
    noteUnresolved(sections.notes, field, scan::view(v), value.problem, value.symbol);
    return std::nullopt;
  };
  std::string function;    // last function seen by .type
  std::string descriptor;  // inside .amdhsa_kernel NAME
  bool in_info = false;    // inside a "; Kernel info:" block
  bool in_metadata = false;
  bool saw_target = false;
  std::string metadata_yaml;

  lines([&](std::string_view raw) {
    std::string_view line = trim(raw);

    if (in_metadata) {
      if (line == ".end_amdgpu_metadata")
        in_metadata = false;
      else
        metadata_yaml.append(raw).push_back('\n');
      return;
    }
    if (line == ".amdgpu_metadata") {
      in_metadata = true;
      return;
    }

    if (line.rfind(".amdgcn_target", 0) == 0) {
      std::size_t q1 = line.find('"'), q2 = line.rfind('"');
      if (q1 != std::string_view::npos && q2 > q1) out.arch = archFromTarget(line.substr(q1 + 1, q2 - q1 - 1));
      saw_target = true;
      return;
    }
    if (line.rfind(".ident", 0) == 0 && out.producer.empty()) {
      std::size_t q1 = line.find('"'), q2 = line.rfind('"');
      if (q1 != std::string_view::npos && q2 > q1) out.producer = std::string(line.substr(q1 + 1, q2 - q1 - 1));
      return;
    }
    if (line.rfind(".amdhsa_kernel ", 0) == 0) {
      descriptor = std::string(trim(line.substr(15)));
      kernels[descriptor].is_kernel = true;
      saw_target = true;
      return;
    }
    if (line == ".end_amdhsa_kernel") {
      descriptor.clear();
      return;
    }
    if (!descriptor.empty() && line.rfind(".amdhsa_", 0) == 0) {
      std::size_t space = line.find_first_of(" \t");
      if (space == std::string_view::npos) return;
      const std::string_view key = line.substr(0, space);
      KernelSections &sections = kernels[descriptor];
      const StringRef value = scan::ref(trim(line.substr(space)));
      if (key == ".amdhsa_next_free_sgpr") {
        sections.next_free_sgpr = valueOf(value, Field::Sgprs, sections);
        return;
      }
      std::optional<bool> KernelSections::*reserve =
          key == ".amdhsa_reserve_vcc"            ? &KernelSections::reserve_vcc
          : key == ".amdhsa_reserve_flat_scratch" ? &KernelSections::reserve_flat_scratch
          : key == ".amdhsa_reserve_xnack_mask"   ? &KernelSections::reserve_xnack_mask
                                                  : nullptr;
      if (reserve) {
        if (auto number = valueOf(value, Field::Sgprs, sections)) sections.*reserve = *number != 0;
        return;
      }
      auto known = kDirectiveFields.find(key);
      if (known == kDirectiveFields.end()) return;
      if (auto number = valueOf(value, known->second, sections)) {
        std::int64_t v = known->second == Field::WaveSize ? (*number ? 32 : 64) : *number;
        setField(sections.directives, known->second, v);
      }
      return;
    }

    // Instructions of the current function: AGPR copies and matrix-core ops.
    if (!function.empty() && (raw.empty() || raw.front() == '\t' || raw.front() == ' ')) {
      if (line.rfind("v_accvgpr_read", 0) == 0 || line.rfind("v_accvgpr_write", 0) == 0)
        ++kernels[function].agpr_copies;
      else if (line.rfind("v_mfma", 0) == 0)
        ++kernels[function].mfma;
    }

    if (auto type = functionType(scan::ref(line))) {
      function = type->str();
      return;
    }
    if (line == "; Kernel info:") {
      in_info = !function.empty();
      return;
    }
    if (in_info) {
      if (line.empty() || line.front() != ';') {
        in_info = false;
        return;
      }
      if (auto comment = infoComment(scan::ref(line))) {
        auto known = kCommentFields.find(scan::view(comment->first));
        if (known != kCommentFields.end()) {
          KernelSections &sections = kernels[function];
          if (auto number = valueOf(comment->second, known->second, sections))
            setField(sections.comments, known->second, *number);
        }
      }
    }
  });
  // A metadata block that never ends is a cut-off file, not a shorter one.
  if (in_metadata) throw Error("malformed .amdgpu_metadata block: truncated (no .end_amdgpu_metadata)");
  if (!metadata_yaml.empty()) parseMetadata(metadata_yaml, kernels, out.arch);
  if (!saw_target && kernels.empty())
    throw Error("not AMDGPU assembly: no .amdgcn_target, kernel descriptor or metadata");

  for (const std::string &name : kernels.order()) {
    const KernelSections &sections = kernels[name];
    if (!sections.is_kernel) continue;  // a "; Kernel info" without descriptor: ignore
    KernelFacts facts;
    facts.name = name;
    facts.arch = out.arch;
    facts.set(Field::AgprCopies, sections.agpr_copies);
    facts.set(Field::MfmaInstructions, sections.mfma);
    // The comments, the metadata and the descriptor say some figures twice or
    // thrice; when they disagree, the figure is unknown and the warning names both.
    mergeReadings(facts, {{&sections.comments, "the .s comment"},
                          {&sections.metadata, "the .s metadata"},
                          {&sections.directives, "the .s descriptor"}});
    // A file with metadata has an entry for every kernel: one without lacks
    // every figure the metadata carries (a damaged block, not a smaller kernel).
    const std::vector<Field> missing =
        !metadata_yaml.empty() && !sections.in_metadata ? missingFromMetadata(MetadataKernel{}) : sections.missing;
    for (Field f : missing)  // the metadata lacked it, and nothing else in the file said it
      if (!facts.get(f)) facts.missing.push_back(f);
    for (Field f : sections.unresolved)  // unresolved everywhere in the file
      if (!facts.get(f) && std::find(facts.unresolved.begin(), facts.unresolved.end(), f) == facts.unresolved.end())
        facts.unresolved.push_back(f);
    for (const std::string &note : sections.notes)
      for (Field f : facts.unresolved)
        if (startsWith(StringRef(note), std::string(fieldKey(f)) + ":")) facts.notes.push_back(note);
    // The descriptor's SGPRs: .amdhsa_next_free_sgpr and the extras the
    // assembler adds (the .amdhsa_reserve_* directives, absent: their defaults).
    const AmdArch *arch = findAmdArch(out.arch);
    std::optional<std::int64_t> sgprs_allocated;
    if (arch && sections.next_free_sgpr)
      sgprs_allocated =
          *sections.next_free_sgpr +
          extraSgprs(*arch, sections.reserve_vcc.value_or(true), sections.reserve_flat_scratch.value_or(true),
                     sections.reserve_xnack_mask.value_or(out.arch.find("xnack-") == std::string::npos));
    checkAllocation(facts, arch, sgprs_allocated, /*sgprs_exact=*/true);
    out.facts.kernels.push_back(std::move(facts));
  }
  addLoopSpills(out, lines);
  return out;
}

}  // namespace regscope
