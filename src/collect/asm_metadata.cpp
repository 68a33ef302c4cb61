// Parses AMDGPU device assembly (.s from --save-temps or -S). Three places in
// the file carry figures; for each kernel they are combined in this order:
//  1. "; Kernel info:" comments: the only place with NumVGPRsForWavesPerEU
//     (what the hardware allocates) and the printed Occupancy;
//  2. the .amdgpu_metadata YAML block (the code object's note, verbatim);
//  3. the .amdhsa_kernel descriptor directives.
#include <llvm/BinaryFormat/MsgPackDocument.h>

#include <algorithm>
#include <map>
#include <regex>
#include <string>

#include "regscope/collect/collect.h"
#include "regscope/support/error.h"
#include "amdgpu_metadata.h"
#include "regscope/collect/mc_expr.h"
#include "regscope/target/amdgpu.h"
#include "remark_labels.h"

namespace regscope {
namespace {

struct KernelSections {
  FieldValues comments, metadata, directives;
  std::vector<Field> unresolved;
  bool is_kernel = false;
  std::int64_t agpr_copies = 0, mfma = 0;  // counted over the function's body
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
    {"NumVGPRsForWavesPerEU", Field::VgprsTotal},
    {"Occupancy", Field::CompilerOccupancy},
};

// .amdhsa_* directive keys (values are plain integers up to LLVM 19).
const std::map<std::string, Field, std::less<>> kDirectiveFields = {
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
  if (!doc.fromYAML(llvm::StringRef(yaml.data(), yaml.size())))
    throw Error("malformed .amdgpu_metadata block");
  Metadata metadata = readMetadata(doc);
  if (arch.empty()) arch = metadata.arch;
  for (MetadataKernel &k : metadata.kernels) {
    KernelSections &sections = kernels[k.name];
    sections.is_kernel = true;
    sections.metadata = k.values;
  }
}

}  // namespace

AsmFile parseAsm(std::string_view text) {
  AsmFile out;
  out.facts.source = ".s";
  Functions kernels;

  static const std::regex type_re(R"(^\s*\.type\s+([^,\s]+),\s*@function)");
  static const std::regex comment_re(R"(^;\s*([A-Za-z]+)\s*[:=]\s*(.+?)\s*$)");
  static const std::regex leading_number_re(R"(^(-?\d+)(?:\s.*)?$)");  // "0 bytes/workgroup (compile time only)"
  static const std::regex set_re(R"(^\s*\.set\s+([^,\s]+)\s*,\s*(.+?)\s*$)");

  // LLVM 20+: resource symbols (".set k.num_vgpr, max(42, callee.num_vgpr)").
  std::map<std::string, std::string> symbols;
  {
    std::size_t at = 0;
    while (at < text.size()) {
      std::size_t eol = text.find('\n', at);
      if (eol == std::string_view::npos) eol = text.size();
      const std::string l(text.substr(at, eol - at));
      at = eol + 1;
      std::smatch m;
      if (l.find(".set") != std::string::npos && std::regex_match(l, m, set_re)) symbols[m[1]] = m[2];
    }
  }
  // A value as a number: plain, or an expression over the file's symbols.
  auto valueOf = [&](const std::string &v) -> std::optional<std::int64_t> {
    std::smatch m;
    if (std::regex_match(v, m, leading_number_re)) return std::stoll(m[1]);
    return evaluateMcExpr(v, symbols, findAmdArch(out.arch));
  };
  std::string function;       // last function seen by .type
  std::string descriptor;     // inside .amdhsa_kernel NAME
  bool in_info = false;       // inside a "; Kernel info:" block
  bool in_metadata = false;
  bool saw_target = false;
  std::string metadata_yaml;

  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view raw = text.substr(pos, eol - pos);
    pos = eol + 1;
    std::string_view line = trim(raw);

    if (in_metadata) {
      if (line == ".end_amdgpu_metadata") in_metadata = false;
      else metadata_yaml.append(raw).push_back('\n');
      continue;
    }
    if (line == ".amdgpu_metadata") { in_metadata = true; continue; }

    if (line.rfind(".amdgcn_target", 0) == 0) {
      std::size_t q1 = line.find('"'), q2 = line.rfind('"');
      if (q1 != std::string_view::npos && q2 > q1) out.arch = archFromTarget(line.substr(q1 + 1, q2 - q1 - 1));
      saw_target = true;
      continue;
    }
    if (line.rfind(".ident", 0) == 0 && out.producer.empty()) {
      std::size_t q1 = line.find('"'), q2 = line.rfind('"');
      if (q1 != std::string_view::npos && q2 > q1) out.producer = std::string(line.substr(q1 + 1, q2 - q1 - 1));
      continue;
    }
    if (line.rfind(".amdhsa_kernel ", 0) == 0) {
      descriptor = std::string(trim(line.substr(15)));
      kernels[descriptor].is_kernel = true;
      saw_target = true;
      continue;
    }
    if (line == ".end_amdhsa_kernel") { descriptor.clear(); continue; }
    if (!descriptor.empty() && line.rfind(".amdhsa_", 0) == 0) {
      std::size_t space = line.find_first_of(" \t");
      if (space == std::string_view::npos) continue;
      auto known = kDirectiveFields.find(line.substr(0, space));
      if (known == kDirectiveFields.end()) continue;
      if (auto number = valueOf(std::string(trim(line.substr(space))))) {
        std::int64_t v = known->second == Field::WaveSize ? (*number ? 32 : 64) : *number;
        setField(kernels[descriptor].directives, known->second, v);
      } else {
        kernels[descriptor].unresolved.push_back(known->second);
      }
      continue;
    }

    // Instructions of the current function: AGPR copies and matrix-core ops.
    if (!function.empty() && (raw.empty() || raw.front() == '\t' || raw.front() == ' ')) {
      if (line.rfind("v_accvgpr_read", 0) == 0 || line.rfind("v_accvgpr_write", 0) == 0) ++kernels[function].agpr_copies;
      else if (line.rfind("v_mfma", 0) == 0) ++kernels[function].mfma;
    }

    std::string line_str(line);
    std::smatch m;
    if (std::regex_search(line_str, m, type_re)) { function = m[1]; continue; }
    if (line == "; Kernel info:") { in_info = !function.empty(); continue; }
    if (in_info) {
      if (line.empty() || line.front() != ';') { in_info = false; continue; }
      if (std::regex_search(line_str, m, comment_re)) {
        auto known = kCommentFields.find(m[1].str());
        if (known != kCommentFields.end()) {
          if (auto number = valueOf(m[2])) setField(kernels[function].comments, known->second, *number);
          else kernels[function].unresolved.push_back(known->second);
        }
      }
    }
  }
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
    for (const FieldValues *part : {&sections.comments, &sections.metadata, &sections.directives})
      for (std::size_t i = 0; i < kFieldCount; ++i)
        if (!facts.values[i] && (*part)[i]) facts.values[i] = (*part)[i];
    // LLVM floors NumVGPRsForWavesPerEU at 1 for a kernel with no VGPRs, where the
    // metadata (and so a code object) says 0: one number, whichever input is read.
    const auto total = static_cast<std::size_t>(Field::VgprsTotal);
    if (sections.comments[total] == 1 && sections.metadata[total] == 0) facts.set(Field::VgprsTotal, 0);
    for (Field f : sections.unresolved)  // unresolved everywhere in the file
      if (!facts.get(f) && std::find(facts.unresolved.begin(), facts.unresolved.end(), f) == facts.unresolved.end())
        facts.unresolved.push_back(f);
    out.facts.kernels.push_back(std::move(facts));
  }
  return out;
}

}  // namespace regscope
