// The collect stage over one hipcc/clang run.
#include <filesystem>
#include <map>

#include "regscope/collect/collect.h"
#include "regscope/support/symbols.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// Remark paths are as the compiler's debug info spelled them: absolute, or
// relative to a directory we cannot see (the compile ran elsewhere). Resolve
// a relative one against the source's directory and its parents.
std::string resolveSourcePath(const std::string &path, const std::string &compiled_source,
                              std::map<std::string, std::optional<std::string>> &texts, const SourceReader &read) {
  if (path.empty() || fs::path(path).is_absolute()) return path;
  for (fs::path dir = fs::path(compiled_source).parent_path(); !dir.empty(); dir = dir.parent_path()) {
    const std::string candidate = (dir / path).lexically_normal().string();
    auto [it, inserted] = texts.try_emplace(candidate);
    if (inserted) it->second = read(candidate);
    if (it->second) return candidate;
    if (dir == dir.root_path()) break;
  }
  return path;
}

}  // namespace

CollectedRun collectAmdRun(const CompileOutput &output, const std::string &compiled_source, const SourceReader &read) {
  CollectedRun run;
  std::vector<FactSet> sets;
  std::vector<FactSet> remarks;
  for (const ArchOutput &arch : output.archs) {
    AsmFile assembly = parseAsm(arch.assembly);
    if (run.producer.empty()) run.producer = assembly.producer;
    const std::string name = assembly.arch.empty() ? arch.arch : assembly.arch;
    for (KernelFacts &facts : assembly.facts.kernels) facts.arch = name;
    sets.push_back(std::move(assembly.facts));
    if (!arch.remarks_yaml.empty()) remarks.push_back(parseRemarkYaml(arch.remarks_yaml, name));
  }
  // Text remarks do not say which arch they are for: use them only when the
  // optimisation records are missing and a single arch was compiled.
  if (remarks.empty() && output.archs.size() == 1)
    remarks.push_back(parseRemarkText(output.diagnostics, sets.front().kernels.empty()
                                                              ? output.archs.front().arch
                                                              : sets.front().kernels.front().arch));
  for (FactSet &set : remarks) sets.push_back(std::move(set));

  run.records = mergeFacts(sets);
  resolveDeclarations(run.records, compiled_source, read);
  return run;
}

void resolveDeclarations(std::vector<KernelRecord> &records, const std::string &compiled_source,
                         const SourceReader &read) {
  std::map<std::string, std::optional<std::string>> texts;  // path -> text, read once
  for (KernelRecord &record : records) {
    record.file = resolveSourcePath(record.file, compiled_source, texts, read);
    if (record.file.empty() || record.line <= 0) continue;
    auto [it, inserted] = texts.try_emplace(record.file);
    if (inserted) it->second = read(record.file);
    record.line = findDeclarationLine(it->second.value_or(""), record.line, functionBaseName(record.demangled));
  }
}

}  // namespace regscope
