// Rule and baseline checks over a Report.
#include <map>
#include <tuple>

#include "regscope/gate/findings.h"
#include "regscope/gate/gate.h"

namespace regscope {
namespace {

Verdict verdictFor(const BaselineEntry &e, Rule rule, std::string message) {
  return {e.file, 0, e.demangled, e.arch, rule, std::move(message), ruleInfo(rule).level};
}

std::string change(const char *what, int before, int now) {
  return std::string(what) + " " + std::to_string(before) + " -> " + std::to_string(now);
}

}  // namespace

GateResult checkThresholds(const Report &report, const GateConfig &config) {
  GateResult result;
  for (const KernelReport &k : report.kernels) {
    if (k.unresolved()) {  // nothing to judge until link; say so rather than guess
      result.unchecked.push_back(verdictFor(k, Rule::Unresolved, "figures unresolved until link: not checked"));
      continue;
    }
    ++result.kernels_checked;
    const Thresholds t = thresholdsFor(config, k.record);
    const OccupancySummary &s = k.summary;
    if (t.min_occupancy && s.level < *t.min_occupancy)
      result.failures.push_back(verdictFor(k, Rule::MinOccupancy,
                                           "occupancy " + std::to_string(s.level) + " " + occupancyUnit(s.vendor) +
                                               " < " + std::to_string(*t.min_occupancy) + " (limited by " +
                                               limiterName(s.limiter) + ")"));
    if (t.max_spills && s.spills > *t.max_spills)
      result.failures.push_back(verdictFor(k, Rule::MaxSpills,
                                           std::to_string(s.spills) + " " + spillsUnit(s.vendor) + " > " +
                                               std::to_string(*t.max_spills)));
    if (t.max_scratch && s.scratch_bytes > *t.max_scratch)
      result.failures.push_back(verdictFor(k, Rule::MaxScratch,
                                           "scratch " + std::to_string(s.scratch_bytes) + " bytes/lane > " +
                                               std::to_string(*t.max_scratch)));
  }
  return result;
}

void compareWithBaseline(const Report &report, const Baseline &baseline, GateResult &result) {
  std::map<std::tuple<std::string, std::string, std::string>, const BaselineEntry *> before;
  for (const BaselineEntry &e : baseline) before[{e.file, e.name, e.arch}] = &e;

  for (const KernelReport &k : report.kernels) {
    if (k.unresolved()) continue;
    const BaselineEntry now = baselineEntry(k);
    const OccupancySummary &s = k.summary;
    auto it = before.find({now.file, now.name, now.arch});
    if (it == before.end()) {
      result.added.push_back(verdictFor(k, Rule::Added, "new kernel: " + std::to_string(now.occupancy) + " " +
                                                            occupancyUnit(s.vendor) + ", " +
                                                            std::to_string(now.registers) + " registers"));
      continue;
    }
    const BaselineEntry &was = *it->second;
    before.erase(it);

    auto compare = [&](Rule rule, const std::string &what, int old_value, int new_value, bool higher_is_worse) {
      if (old_value == new_value) return;
      const bool worse = higher_is_worse ? new_value > old_value : new_value < old_value;
      (worse ? result.failures : result.improvements)
          .push_back(verdictFor(k, worse ? rule : Rule::Improved, change(what.c_str(), old_value, new_value)));
    };
    const std::string unit = occupancyUnit(s.vendor);
    compare(Rule::OccupancyRegression, "occupancy (" + unit + ")", was.occupancy, now.occupancy, false);
    if (was.occupancy == now.occupancy)  // a register step crossed while something else limits
      compare(Rule::VgprStepRegression, "register-limited " + unit, was.occupancy_by_registers,
              now.occupancy_by_registers, false);
    compare(Rule::SpillRegression, spillsUnit(s.vendor), was.spills, now.spills, true);
    compare(Rule::ScratchRegression, "scratch bytes/lane", was.scratch_bytes, now.scratch_bytes, true);
    if (now.registers < was.registers)
      result.improvements.push_back(verdictFor(k, Rule::Improved, change("registers", was.registers, now.registers)));
  }
  for (const auto &[key, e] : before)
    result.removed.push_back(verdictFor(*e, Rule::Removed, "kernel no longer found"));
}

}  // namespace regscope
