// Rule and baseline checks over a Report.
#include <map>
#include <tuple>

#include "regscope/findings.h"
#include "regscope/gate.h"

namespace regscope {
namespace {

// A rule's level is the rule catalogue's (findings.cpp), not decided here.
std::string levelOf(const std::string &rule) {
  const RuleInfo *info = findRule(rule);
  return info ? info->level : "error";
}

Verdict verdictFor(const KernelReport &k, std::string rule, std::string message) {
  std::string level = levelOf(rule);
  return {k.display_file, k.record.line, k.record.demangled, k.record.arch, std::move(rule), std::move(message),
          std::move(level)};
}

Verdict verdictFor(const BaselineEntry &e, std::string rule, std::string message) {
  std::string level = levelOf(rule);
  return {e.file, 0, e.demangled, e.arch, std::move(rule), std::move(message), std::move(level)};
}

std::string change(const char *what, int before, int now) {
  return std::string(what) + " " + std::to_string(before) + " -> " + std::to_string(now);
}

}  // namespace

GateResult checkThresholds(const Report &report, const GateConfig &config) {
  GateResult result;
  for (const KernelReport &k : report.kernels) {
    if (k.unresolved) {  // nothing to judge until link; say so rather than guess
      result.unchecked.push_back(verdictFor(k, "unresolved", "figures unresolved until link: not checked"));
      continue;
    }
    ++result.kernels_checked;
    const Thresholds t = thresholdsFor(config, k.record);
    const OccupancySummary &s = k.summary;
    if (t.min_occupancy && s.level < *t.min_occupancy)
      result.failures.push_back(verdictFor(k, "min-occupancy",
                                           "occupancy " + std::to_string(s.level) + " " + s.unit + " < " +
                                               std::to_string(*t.min_occupancy) + " (limited by " + s.limiter + ")"));
    if (t.max_spills && s.spills > *t.max_spills)
      result.failures.push_back(verdictFor(
          k, "max-spills", std::to_string(s.spills) + " " + s.spills_unit + " > " + std::to_string(*t.max_spills)));
    if (t.max_scratch && s.scratch_bytes > *t.max_scratch)
      result.failures.push_back(verdictFor(k, "max-scratch",
                                           "scratch " + std::to_string(s.scratch_bytes) + " bytes/lane > " +
                                               std::to_string(*t.max_scratch)));
  }
  return result;
}

void compareWithBaseline(const Report &report, const Baseline &baseline, GateResult &result) {
  std::map<std::tuple<std::string, std::string, std::string>, const BaselineEntry *> before;
  for (const BaselineEntry &e : baseline) before[{e.file, e.name, e.arch}] = &e;

  for (const KernelReport &k : report.kernels) {
    if (k.unresolved) continue;
    const BaselineEntry now = baselineEntry(k);
    const OccupancySummary &s = k.summary;
    auto it = before.find({now.file, now.name, now.arch});
    if (it == before.end()) {
      result.added.push_back(verdictFor(k, "added", "new kernel: " + std::to_string(now.occupancy) + " " + s.unit +
                                                        ", " + std::to_string(now.registers) + " registers"));
      continue;
    }
    const BaselineEntry &was = *it->second;
    before.erase(it);

    auto compare = [&](const char *rule, const std::string &what, int old_value, int new_value, bool higher_is_worse) {
      if (old_value == new_value) return;
      const bool worse = higher_is_worse ? new_value > old_value : new_value < old_value;
      (worse ? result.failures : result.improvements)
          .push_back(verdictFor(k, worse ? rule : "improved", change(what.c_str(), old_value, new_value)));
    };
    compare("occupancy-regression", "occupancy (" + s.unit + ")", was.occupancy, now.occupancy, false);
    if (was.occupancy == now.occupancy)  // a register step crossed while something else limits
      compare("vgpr-step-regression", "register-limited " + s.unit, was.occupancy_by_registers,
              now.occupancy_by_registers, false);
    compare("spill-regression", s.spills_unit, was.spills, now.spills, true);
    compare("scratch-regression", "scratch bytes/lane", was.scratch_bytes, now.scratch_bytes, true);
    if (now.registers < was.registers)
      result.improvements.push_back(verdictFor(k, "improved", change("registers", was.registers, now.registers)));
  }
  for (const auto &[key, e] : before)
    result.removed.push_back(verdictFor(*e, "removed", "kernel no longer found"));
}

}  // namespace regscope
