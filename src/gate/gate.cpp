// Rule and baseline checks over a Report.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "regscope/backend/backend.h"
#include "regscope/gate/findings.h"
#include "regscope/gate/gate.h"
#include "regscope/support/error.h"
#include "regscope/support/plural.h"
#include "regscope/support/symbols.h"
#include "regscope/target/vendor_words.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// A loop-spill verdict points at the first spill in the kernel's deepest loop
// (KernelRecord::loop_spill_site), where an annotation helps: the kernel's own
// line stays in the message. Unchanged when no spill in a loop has a line.
Verdict atLoopSpill(const KernelReport &k, Verdict v) {
  const SourcePlace &site = k.record.loop_spill_site;
  if (site.line <= 0) return v;
  v.message += "; the first in its deepest loop is here (the kernel is at " + v.file +
               (v.line > 0 ? ":" + std::to_string(v.line) : std::string()) + ")";
  v.file = site.file;
  v.line = site.line;
  return v;
}

// A baseline entry's file as the user reads it: relative to the working directory when below it.
Verdict verdictFor(const BaselineEntry &e, const std::string &root, Rule rule, std::string message) {
  std::string file = e.file;
  if (!root.empty() && !fs::path(file).is_absolute()) {
    std::error_code ec;
    const fs::path rel = (fs::path(root) / file).lexically_relative(fs::current_path(ec));
    file = !ec && !rel.empty() && *rel.begin() != ".." ? rel.string() : (fs::path(root) / file).string();
  }
  return {file, 0, e.demangled, e.arch, rule, std::move(message), ruleInfo(rule).level};
}

// Every verdict's message has one shape, its unit said once after the figures:
// "occupancy 4 waves/SIMD < 5" (a threshold), "occupancy 5 -> 4 waves/SIMD" (a change).
std::string change(const std::string &what, int before, int now, const std::string &unit) {
  return what + " " + std::to_string(before) + " -> " + std::to_string(now) + (unit.empty() ? "" : " " + unit);
}
std::string beyond(const std::string &what, int value, const std::string &unit, const char *op, int limit) {
  return what + " " + std::to_string(value) + " " + unit + " " + op + " " + std::to_string(limit);
}

// What the spill figure is called and counted in, per vendor (OccupancySummary::spills).
std::pair<std::string, std::string> spillWords(Vendor vendor) {
  return {vendorWords(vendor).spills_name, vendorWords(vendor).spills_unit};
}

// The unit a data format gives a figure in: bytes for scratch and NVIDIA/Intel spills.
std::string spillsDataUnit(Vendor vendor) { return vendorWords(vendor).spills_data_unit; }

Verdict withFigures(Verdict v, int value, std::optional<int> limit, std::optional<int> before, std::string unit) {
  v.value = value;
  v.limit = limit;
  v.before = before;
  v.unit = std::move(unit);
  return v;
}

}  // namespace

Thresholds thresholdsFor(const Config &config, const KernelRecord &record) {
  Thresholds t = config.defaults;
  const std::string base = functionBaseName(record.demangled);
  for (const KernelSettings &rule : config.kernels) {
    if (!rule.matches(record.name, record.demangled, base)) continue;
    if (rule.thresholds.min_occupancy || rule.thresholds.min_occupancy_percent) {  // either form replaces both
      t.min_occupancy = rule.thresholds.min_occupancy;
      t.min_occupancy_percent = rule.thresholds.min_occupancy_percent;
    }
    if (rule.thresholds.max_spills) t.max_spills = rule.thresholds.max_spills;
    if (rule.thresholds.max_scratch) t.max_scratch = rule.thresholds.max_scratch;
    if (rule.thresholds.max_loop_spills) t.max_loop_spills = rule.thresholds.max_loop_spills;
  }
  return t;
}

const IgnoreEntry *ignoredBy(const Config &config, const KernelRecord &record) {
  const std::string base = functionBaseName(record.demangled);
  for (const IgnoreEntry &entry : config.ignore)
    if (KernelSettings{entry.match, {}, {}, {}}.matches(record.name, record.demangled, base)) return &entry;
  return nullptr;
}

namespace {

// The fields that only a spill count is made of: a kernel lacking these alone
// (a cubin records no spill stores/loads) has every other figure read.
bool isSpillCount(Field f) {
  switch (f) {
    case Field::SpillStoreBytes:
    case Field::SpillLoadBytes:
    case Field::VgprSpills:
    case Field::SgprSpills:
    case Field::SpillGrfs:
    case Field::SpillBytes:
      return true;
    default:
      return false;
  }
}

std::string cannotJudgeAt(const KernelReport &k) {
  return "cannot judge kernel " + k.record.demangled + " [" + k.record.arch + "] in " +
         (k.display_file.empty() ? k.record.file : k.display_file) + ": ";
}

}  // namespace

bool spillsRead(const KernelReport &k) { return std::none_of(k.unknown.begin(), k.unknown.end(), isSpillCount); }

std::string spillsUnjudged(const KernelReport &k) {
  if (spillsRead(k)) return "";
  if (vendorWords(k.summary.vendor).local_memory_for_spills && k.summary.scratch_known) return "";
  return cannotJudgeAt(k) + "spill count unknown, which --max-spills reads";
}

std::string cannotJudge(const KernelReport &k) {
  if (k.unresolved()) return "";  // its own rule (RS304)
  const std::string where = cannotJudgeAt(k);
  if (!k.impossible.empty()) return where + k.impossible;
  // A launch the source passes but regscope could not evaluate: its occupancy
  // is an assumption (or unknown), never judged as if read.
  if (std::string why = launchUnknown(k.launch, "--dynamic-lds/--dynamic-smem"); !why.empty() && k.unknown.empty())
    return where + why;
  // No occupancy although no field is named (a launch not read): not a figure to judge.
  if (k.unknown.empty() && k.summary.limiter == Limiter::Unknown) return where + "occupancy unknown";
  if (k.unknown.empty()) return "";
  // Only the spill count unknown: the rules that read other figures judge; a
  // spill rule refuses on its own (spillsUnjudged) unless local memory stands for it.
  if (k.summary.limiter != Limiter::Unknown && std::all_of(k.unknown.begin(), k.unknown.end(), isSpillCount)) return "";
  std::string fields;
  for (Field f : k.unknown) fields += (fields.empty() ? "" : ", ") + std::string(fieldKey(f));
  return where + fields + " unknown";
}

// A kernel that can never be resident at its launch has no occupancy to compare or record.
bool cannotLaunch(const KernelReport &k) { return k.summary.limiter == Limiter::Invalid; }

Report judgedReport(const Report &report) {
  Report judged = report;
  judged.kernels.clear();
  for (const KernelReport &k : report.kernels)
    if (cannotJudge(k).empty() && !cannotLaunch(k)) judged.kernels.push_back(k);
  return judged;
}

GateOutcome gateOutcome(const Report &report, const GateResult &result) {
  if (!report.errors.empty()) return GateOutcome::Error;
  if (!result.run_not_judged.empty() || !result.baseline_keys_unmatched.empty() ||
      (!result.unjudged.empty() && !result.allow_unknown))
    return GateOutcome::CannotJudge;
  if (result.failures.empty()) return GateOutcome::Pass;
  // A kernel that cannot launch is not a figure a baseline can accept.
  const bool unlaunchable = std::any_of(result.failures.begin(), result.failures.end(),
                                        [](const Verdict &v) { return v.rule == Rule::CannotLaunch; });
  if (result.update_baseline && !unlaunchable) return GateOutcome::Accepted;
  return result.exit_zero ? GateOutcome::FailExempt : GateOutcome::Fail;
}

int gateExitCode(GateOutcome outcome) {
  switch (outcome) {
    case GateOutcome::Pass:
    case GateOutcome::FailExempt:
    case GateOutcome::Accepted:
      return kExitOk;
    case GateOutcome::Fail:
      return kExitFindings;
    case GateOutcome::CannotJudge:
    case GateOutcome::Error:
      return kExitError;
  }
  return kExitError;
}

std::string judgedNone(const Report &report, const GateResult &result) {
  if (result.kernels_checked > 0) return "";
  int without_table = 0;
  std::string archs;
  for (const auto &[arch, n] : report.kernels_without_table) {
    without_table += n;
    archs += (archs.empty() ? "" : ", ") + std::to_string(n) + " of " + arch;
  }
  // Ignored kernels are the config's choice; every other kernel read was the gate's to judge.
  const std::size_t held = report.kernels.size() - result.ignored.size() + static_cast<std::size_t>(without_table);
  if (held == 0) return "";
  std::string why;
  if (without_table)
    why += archs + (report.kernels_without_table.size() == 1 ? ", an arch" : ", archs") +
           " with no occupancy table (give --offload-arch for a known one)";
  if (!result.unjudged.empty())
    why += (why.empty() ? "" : "; ") + std::to_string(result.unjudged.size()) + " with a figure not read";
  if (!result.unchecked.empty())
    why += (why.empty() ? "" : "; ") + std::to_string(result.unchecked.size()) + " unresolved until link";
  return "judged none of the " + plural(held, "kernel", "kernels") + " its inputs held (" + why + ")";
}

GateResult checkThresholds(const Report &report, const Config &config) {
  GateResult result;
  for (const KernelReport &k : report.kernels) {
    if (const IgnoreEntry *entry = ignoredBy(config, k.record)) {  // listed, never silently dropped
      result.ignored.push_back(verdictFor(k, Rule::Ignored, entry->reason + " (ignore entry '" + entry->match + "')"));
      continue;
    }
    if (k.unresolved()) {  // nothing to judge until link; say so rather than guess
      result.unchecked.push_back(verdictFor(k, Rule::Unresolved, "figures unresolved until link: not checked"));
      continue;
    }
    if (std::string why = cannotJudge(k); !why.empty()) {  // never passed on a figure not read
      result.unjudged.push_back(verdictFor(k, Rule::CannotJudge, why));
      continue;
    }
    ++result.kernels_checked;
    if (cannotLaunch(k)) {  // a finding whatever the thresholds: the launch fails on the GPU
      result.failures.push_back(verdictFor(k, Rule::CannotLaunch, kernelNextStep(k)));
      continue;
    }
    const Thresholds t = thresholdsFor(config, k.record);
    const OccupancySummary &s = k.summary;
    if (t.min_occupancy && s.level < *t.min_occupancy)
      result.failures.push_back(
          withFigures(verdictFor(k, Rule::MinOccupancy,
                                 beyond("occupancy", s.level, occupancyUnit(s.vendor), "<", *t.min_occupancy) +
                                     " (limited by " + limiterName(s.limiter) + ")"),
                      s.level, t.min_occupancy, std::nullopt, occupancyUnit(s.vendor)));
    if (t.min_occupancy_percent) {
      // N% of the device's maximum (waves/SIMD, warps/SM, threads/Xe-core): one
      // threshold for every vendor. Compared exactly (level/max < N/100); the
      // percent shown is rounded down, so a failing one is never shown as N.
      if (s.max_level <= 0) {
        result.unjudged.push_back(verdictFor(k, Rule::CannotJudge,
                                             cannotJudgeAt(k) + "the maximum occupancy of " + k.record.arch +
                                                 " is unknown, which --min-occupancy " +
                                                 std::to_string(*t.min_occupancy_percent) + "% reads"));
      } else if (static_cast<long long>(s.level) * 100 <
                 static_cast<long long>(*t.min_occupancy_percent) * s.max_level) {
        const int percent = static_cast<int>(static_cast<long long>(s.level) * 100 / s.max_level);
        result.failures.push_back(withFigures(
            verdictFor(k, Rule::MinOccupancy,
                       "occupancy " + std::to_string(percent) + "% (" + std::to_string(s.level) + " of " +
                           std::to_string(s.max_level) + " " + occupancyUnit(s.vendor) + ") < " +
                           std::to_string(*t.min_occupancy_percent) + "% (limited by " + limiterName(s.limiter) + ")"),
            percent, t.min_occupancy_percent, std::nullopt, "%"));
      }
    }
    if (t.max_spills && spillsRead(k) && s.spills > *t.max_spills)
      result.failures.push_back(withFigures(
          verdictFor(k, Rule::MaxSpills,
                     beyond(spillWords(s.vendor).first, s.spills, spillWords(s.vendor).second, ">", *t.max_spills)),
          s.spills, t.max_spills, std::nullopt, spillsDataUnit(s.vendor)));
    if (t.max_spills && !spillsRead(k)) {
      // No spill count (a cubin records none): the per-thread local memory that
      // holds every spill stands for it, or the rule refuses; never 0.
      if (std::string why = spillsUnjudged(k); !why.empty())
        result.unjudged.push_back(verdictFor(k, Rule::CannotJudge, why));
      else if (s.scratch_bytes > *t.max_spills)
        result.failures.push_back(withFigures(verdictFor(k, Rule::MaxSpills,
                                                         beyond(vendorWords(s.vendor).local_memory_for_spills,
                                                                s.scratch_bytes, "bytes/thread", ">", *t.max_spills)),
                                              s.scratch_bytes, t.max_spills, std::nullopt, "bytes"));
    }
    if (t.max_scratch && s.scratch_bytes > *t.max_scratch)
      result.failures.push_back(withFigures(
          verdictFor(k, Rule::MaxScratch, beyond("scratch", s.scratch_bytes, "bytes/lane", ">", *t.max_scratch)),
          s.scratch_bytes, t.max_scratch, std::nullopt, "bytes"));
    if (t.max_loop_spills) {
      // Read from an AMD .s's spill comments, or an NVIDIA cubin's listing by
      // nvdisasm: never 0 for a kernel whose code regscope did not read (an AMD
      // code object, an arch LLVM 15 does not know, a cubin without nvdisasm).
      if (!k.record.has(Field::LoopSpills))
        result.unjudged.push_back(verdictFor(
            k, Rule::CannotJudge,
            cannotJudgeAt(k) + "spill accesses inside loops not read (they are read from an AMD .s or .amdgcn, and "
                               "from a cubin with local memory where nvdisasm is installed): --max-loop-spills "
                               "cannot judge it"));
      else if (const std::int64_t loops = k.record.value(Field::LoopSpills); loops > *t.max_loop_spills)
        result.failures.push_back(
            withFigures(atLoopSpill(k, verdictFor(k, Rule::MaxLoopSpills,
                                                  beyond("spills inside loops", static_cast<int>(loops), "accesses",
                                                         ">", *t.max_loop_spills) +
                                                      " (regscope explain lists them by line and loop depth)")),
                        static_cast<int>(loops), t.max_loop_spills, std::nullopt, "accesses"));
    }
  }
  return result;
}

namespace {

// "a [gfx942], b [sm_90], c [sm_90] and 2 more": the first few of many, said once.
std::string firstFew(const std::vector<std::string> &names) {
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < 3; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > 3) text += " and " + std::to_string(names.size() - 3) + " more";
  return text;
}

// A Triton kernel matched by no baseline key while the baseline holds its
// kernel and arch under another key that no kernel of this run matched: the
// key changed, not the kernel. Passing it as "added" would hide a regression,
// so the run is not judged, in one line that says what to do.
std::string tritonKeysUnmatched(
    const std::vector<const KernelReport *> &added,
    const std::map<std::tuple<std::string, std::string, std::string>, const BaselineEntry *> &unmatched) {
  std::vector<std::string> older, cleaned;
  for (const KernelReport *k : added) {
    bool older_key = false, key_with_ir = false;
    for (const auto &[key, e] : unmatched) {
      if (e->source.rfind("triton:", 0) != 0 || e->name != k->record.name || e->arch != k->record.arch) continue;
      older_key |= e->triton_key_before_1_4;
      key_with_ir |= e->source.rfind("triton:?:", 0) != 0;
    }
    const std::string who = k->record.name + " [" + k->record.arch + "]";
    if (older_key)
      older.push_back(who);
    else if (key_with_ir && k->record.triton->python_file.empty())
      cleaned.push_back(who);
  }
  std::string line;
  if (!older.empty())
    line = std::to_string(older.size()) + " Triton kernel" + (older.size() == 1 ? "" : "s") + " (" + firstFew(older) +
           (older.size() == 1 ? ") matches" : ") match") +
           " no key of the baseline, which a regscope before baseline format 1.4 wrote (its keys named "
           "the cache hash where entries differ only in a constexpr): record it again with `regscope baseline "
           "CACHE -o BASELINE`";
  if (!cleaned.empty())
    line += std::string(line.empty() ? "" : "; ") + std::to_string(cleaned.size()) + " Triton entr" +
            (cleaned.size() == 1 ? "y" : "ies") + " without IR (" + firstFew(cleaned) +
            "): a key without the Python file and specialisation (read from .source/.ttir) matches none the "
            "baseline recorded with them; gate the cache with its IR, or record the "
            "baseline from this cache with `regscope baseline CACHE -o BASELINE`";
  return line;
}

}  // namespace

void compareWithBaseline(const Report &report, const Baseline &baseline, const std::string &root, GateResult &result) {
  std::map<std::tuple<std::string, std::string, std::string>, const BaselineEntry *> before;
  for (const BaselineEntry &e : baseline) before[{e.source, e.name, e.arch}] = &e;
  // Only the translation units this run analysed can have lost a kernel.
  std::set<std::string> analysed;
  for (const std::string &path : report.input_paths) analysed.insert(baselineKey(path, root));

  std::vector<const KernelReport *> added_triton;         // Triton kernels no baseline key matched
  std::vector<std::string> older_rule_kernels;            // compared under a 1.4 entry's SGPR rule
  std::set<std::pair<std::string, std::string>> ignored;  // (kernel, arch) of the ignore list
  for (const Verdict &v : result.ignored) ignored.insert({v.kernel, v.arch});
  for (const KernelReport &k : report.kernels) {
    const BaselineEntry now = baselineEntry(k, root);
    analysed.insert(now.source);
    if (ignored.count({k.record.demangled, k.record.arch})) {
      before.erase({now.source, now.name, now.arch});
      continue;
    }
    if (k.unresolved() || !cannotJudge(k).empty() || cannotLaunch(k)) {  // neither a regression nor an improvement
      before.erase({now.source, now.name, now.arch});
      continue;
    }
    const OccupancySummary &s = k.summary;
    auto it = before.find({now.source, now.name, now.arch});
    if (it == before.end()) {
      if (k.record.triton) added_triton.push_back(&k);
      result.added.push_back(verdictFor(k, Rule::Added,
                                        "new kernel: " + std::to_string(now.occupancy) + " " + occupancyUnit(s.vendor) +
                                            ", " + std::to_string(now.registers) + " registers"));
      continue;
    }
    const BaselineEntry &was = *it->second;
    before.erase(it);

    auto compare = [&](Rule rule, const std::string &what, int old_value, int new_value, bool higher_is_worse,
                       const std::string &unit, const std::string &data_unit) {
      if (old_value == new_value) return;
      const bool worse = higher_is_worse ? new_value > old_value : new_value < old_value;
      (worse ? result.failures : result.improvements)
          .push_back(withFigures(verdictFor(k, worse ? rule : Rule::Improved, change(what, old_value, new_value, unit)),
                                 new_value, std::nullopt, old_value, data_unit));
    };
    const std::string unit = occupancyUnit(s.vendor);
    // An entry of an older baseline is compared under the rule it was written with.
    const bool older_rule = was.sgprs_by_table && s.level_before_baseline_1_5;
    const int occupancy = older_rule ? *s.level_before_baseline_1_5 : now.occupancy;
    if (older_rule) older_rule_kernels.push_back(k.record.demangled + " [" + k.record.arch + "]");
    compare(Rule::OccupancyRegression, "occupancy", was.occupancy, occupancy, false, unit, unit);
    // The change that cost the occupancy, beside it: "occupancy 4 -> 2 waves/SIMD (registers 104 -> 128)".
    if (occupancy < was.occupancy && now.registers != was.registers)
      result.failures.back().message +=
          " (registers " + std::to_string(was.registers) + " -> " + std::to_string(now.registers) + ")";
    if (was.occupancy == occupancy)  // a register step crossed while something else limits
      compare(Rule::VgprStepRegression, "register-limited occupancy", was.occupancy_by_registers,
              now.occupancy_by_registers, false, unit, unit);
    const auto [spills, spills_unit] = spillWords(s.vendor);
    if (was.spills_known && now.spills_known)
      compare(Rule::SpillRegression, spills, was.spills, now.spills, true, spills_unit, spillsDataUnit(s.vendor));
    else if (was.spills_known != now.spills_known)  // one count read, one not: no comparison to pass
      result.unjudged.push_back(verdictFor(
          k, Rule::CannotJudge,
          cannotJudgeAt(k) + "spill count " + (was.spills_known ? "unknown now" : "unknown in the baseline") +
              ", known " + (was.spills_known ? "in the baseline" : "now") + ": spills not compared"));
    // Both unknown (two cubins): their local memory is compared as scratch below.
    // Spills that moved into a loop fail even when the count did not grow. A
    // count read on one side only (a baseline before 1.4, a code object now) is
    // not compared: the explicit --max-loop-spills refuses an unread count.
    if (was.loop_spills && now.loop_spills) {
      compare(Rule::LoopSpillRegression, "spills inside loops", *was.loop_spills, *now.loop_spills, true, "accesses",
              "accesses");
      if (*now.loop_spills > *was.loop_spills) result.failures.back() = atLoopSpill(k, result.failures.back());
    }
    compare(Rule::ScratchRegression, "scratch", was.scratch_bytes, now.scratch_bytes, true, "bytes/lane", "bytes");
    if (now.registers < was.registers)
      result.improvements.push_back(
          withFigures(verdictFor(k, Rule::Improved, change("registers", was.registers, now.registers, "")),
                      now.registers, std::nullopt, was.registers, "registers"));
  }
  for (const auto &[key, e] : before)
    if (analysed.count(e->source))
      result.removed.push_back(verdictFor(*e, root, Rule::Removed, "kernel no longer found"));
  result.baseline_keys_unmatched = tritonKeysUnmatched(added_triton, before);
  if (!older_rule_kernels.empty())
    result.baseline_older_rule =
        plural(older_rule_kernels.size(), "kernel", "kernels") + " (" + firstFew(older_rule_kernels) +
        ") compared with a baseline entry written before 1.5, under its rule (gfx9 SGPRs by LLVM's step table; " +
        "regscope baseline records them again as the hardware allocates them)";
}

}  // namespace regscope
