// The AMD backend's collect step over one hipcc/clang run.
#include "regscope/backends/amd/collect.h"

namespace regscope {
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

}  // namespace regscope
