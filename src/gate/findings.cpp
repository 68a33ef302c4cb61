// The reduction of analyze and gate results to findings.
#include "regscope/gate/findings.h"

namespace regscope {

Verdict verdictFor(const KernelReport &k, Rule rule, std::string message) {
  return {k.display_file, k.record.line,      k.record.demangled,  k.record.arch,
          rule,           std::move(message), ruleInfo(rule).level};
}

namespace {

// Registers within this many of the next step down are a cliff worth a note
// (its words are the backend's: Backend::registerCliff).
constexpr int kCliffRegisters = 4;

}  // namespace

// analyze's findings are what needs attention: spills, scratch, a cliff. A
// healthy kernel gets none (its figures are in the table).
std::vector<Verdict> analysisFindings(const Report &report) {
  std::vector<Verdict> findings;
  for (const KernelReport &k : report.kernels) {
    if (k.unresolved()) {
      findings.push_back(verdictFor(k, Rule::Unresolved, "figures unresolved until link"));
      continue;
    }
    if (!k.impossible.empty() || k.summary.limiter == Limiter::Unknown) {
      std::string fields;
      for (Field f : k.unknown) fields += (fields.empty() ? "" : ", ") + std::string(fieldKey(f));
      findings.push_back(verdictFor(k, Rule::CannotJudge,
                                    k.impossible.empty() ? fields + " unknown" : "cannot launch: " + k.impossible));
      continue;
    }
    const OccupancySummary &s = k.summary;
    if (s.spills > 0)
      findings.push_back(
          verdictFor(k, Rule::Spills, std::to_string(s.spills) + " " + spillsUnit(s.vendor) + " to scratch memory"));
    if (std::optional<std::string> hidden = hiddenSpills(k))
      findings.push_back(verdictFor(k, Rule::Spills, *hidden));
    else if (s.scratch_bytes > 0)
      findings.push_back(verdictFor(k, Rule::Scratch, std::to_string(s.scratch_bytes) + " bytes of scratch per lane"));
    if (std::optional<std::string> why = registerCliff(k, kCliffRegisters))
      findings.push_back(verdictFor(k, Rule::Cliff, *why));
  }
  return findings;
}

std::vector<Verdict> gateFindings(const GateResult &result) {
  std::vector<Verdict> findings = result.failures;
  for (const auto *list :
       {&result.unjudged, &result.improvements, &result.added, &result.removed, &result.unchecked, &result.ignored})
    findings.insert(findings.end(), list->begin(), list->end());
  return findings;
}

}  // namespace regscope
