// The reduction of analyze and gate results to findings.
#include "regscope/gate/findings.h"

namespace regscope {

Verdict verdictFor(const KernelReport &k, Rule rule, std::string message) {
  return {k.display_file, k.record.line,      k.record.demangled,  k.record.arch,
          rule,           std::move(message), ruleInfo(rule).level};
}

std::vector<Verdict> analysisFindings(const Report &report) {
  std::vector<Verdict> findings;
  for (const KernelReport &k : report.kernels) {
    if (k.unresolved()) {
      findings.push_back(verdictFor(k, Rule::Unresolved, "figures unresolved until link"));
      continue;
    }
    const OccupancySummary &s = k.summary;
    std::string message = std::to_string(s.level) + "/" + std::to_string(s.max_level) + " " + occupancyUnit(s.vendor) +
                          ", limited by " + limiterName(s.limiter) + " (" + std::to_string(s.registers) + " registers)";
    if (const AmdKernelModel *amd = k.amd(); amd && amd->occupancy.next && amd->occupancy.next->vgprs_to_free)
      message += "; free " + std::to_string(amd->occupancy.next->vgprs_to_free) + " VGPRs for " +
                 std::to_string(amd->occupancy.next->waves_per_simd) + " waves/SIMD";
    if (const CudaKernelModel *cuda = k.cuda(); cuda && cuda->occupancy.next && cuda->occupancy.next->registers_to_free)
      message += "; free " + std::to_string(cuda->occupancy.next->registers_to_free) + " registers for " +
                 std::to_string(cuda->occupancy.next->blocks_per_sm) + " blocks/SM";
    findings.push_back(verdictFor(k, Rule::Occupancy, message));
    if (s.spills > 0)
      findings.push_back(
          verdictFor(k, Rule::Spills, std::to_string(s.spills) + " " + spillsUnit(s.vendor) + " to scratch memory"));
    if (const AmdKernelModel *amd = k.amd(); amd && amd->hidden_agpr_spills)
      findings.push_back(verdictFor(
          k, Rule::Spills,
          std::to_string(k.record.value(Field::Agprs)) + " VGPRs parked in AGPRs without MFMA (" +
              std::to_string(k.record.value(Field::AgprCopies)) + " copies); the compiler reports 0 spills"));
    else if (s.scratch_bytes > 0)
      findings.push_back(verdictFor(k, Rule::Scratch, std::to_string(s.scratch_bytes) + " bytes of scratch per lane"));
  }
  return findings;
}

std::vector<Verdict> gateFindings(const GateResult &result) {
  std::vector<Verdict> findings = result.failures;
  for (const auto *list : {&result.improvements, &result.added, &result.removed, &result.unchecked})
    findings.insert(findings.end(), list->begin(), list->end());
  return findings;
}

}  // namespace regscope
