// The gate's verdicts: one line per failure, improvement, added, removed or
// unchecked kernel, then the pass/fail line.
#include "html_page.h"
#include "phrases.h"
#include "regscope/support/version.h"
#include "regscope/views/views.h"
#include "report_json.h"

#include <algorithm>
#include <set>

namespace regscope {
namespace {

using nlohmann::json;

json verdictsToJson(const std::vector<Verdict> &verdicts) {
  json list = json::array();
  for (const Verdict &v : verdicts)
    list.push_back({{"file", v.file},
                    {"line", v.line},
                    {"kernel", v.kernel},
                    {"arch", v.arch},
                    {"rule", ruleName(v.rule)},
                    {"message", v.message},
                    // The figures as numbers, in the unit named (bytes for scratch): null when the rule has none.
                    {"value", v.value ? json(*v.value) : json(nullptr)},
                    {"limit", v.limit ? json(*v.limit) : json(nullptr)},
                    {"before", v.before ? json(*v.before) : json(nullptr)},
                    {"unit", v.unit.empty() ? json(nullptr) : json(v.unit)}});
  return list;
}

// The figure a baseline rule is about, for highlighting it in the comparison.
const char *regressedFigure(Rule rule) {
  switch (rule) {
    case Rule::OccupancyRegression:
    case Rule::VgprStepRegression:
      return "occupancy";
    case Rule::SpillRegression:
      return "spills";
    case Rule::ScratchRegression:
      return "scratch";
    default:
      return "";
  }
}

json verdictRows(const GateResult &result) {
  json rows = json::array();
  auto add = [&](const std::vector<Verdict> &list, const char *kind) {
    for (const Verdict &v : list)
      rows.push_back({{"kind", kind},
                      {"bad", std::string(kind) == "failure"},
                      {"good", std::string(kind) == "improved"},
                      {"kernel", v.kernel},
                      {"arch", v.arch},
                      {"where", locationText(v.file, v.line)},
                      {"rule", ruleName(v.rule)},
                      {"message", v.message}});
  };
  add(result.failures, "failure");  // failures first
  add(result.unjudged, "cannot-judge");
  add(result.improvements, "improved");
  add(result.added, "added");
  add(result.removed, "removed");
  add(result.unchecked, "unresolved");
  add(result.ignored, "ignored");
  return rows;
}

// Each kernel's baseline entry beside its figures now; the gate's verdicts
// say which regressed (the view compares nothing itself).
json comparisonRows(const Report &report, const GateResult &result, const Baseline &baseline, const std::string &root) {
  json rows = json::array();
  for (const KernelReport &k : report.kernels) {
    const BaselineEntry now = baselineEntry(k, root);
    auto before = std::find_if(baseline.begin(), baseline.end(), [&](const BaselineEntry &e) {
      return e.source == now.source && e.name == now.name && e.arch == now.arch;
    });
    std::set<std::string> worse;
    bool improved = false;
    for (const Verdict &v : result.failures)
      if (v.kernel == k.record.demangled && v.arch == k.record.arch) worse.insert(regressedFigure(v.rule));
    for (const Verdict &v : result.improvements) improved |= v.kernel == k.record.demangled && v.arch == k.record.arch;
    const bool found = before != baseline.end();
    auto figure = [&](const char *name, int after, int was) {
      return json{{"name", name},
                  {"before", found ? std::to_string(was) : "-"},
                  {"after", std::to_string(after)},
                  {"worse", worse.count(name) > 0}};
    };
    const BaselineEntry old = found ? *before : BaselineEntry{};
    const bool regressed = !worse.empty();
    rows.push_back({{"kernel", k.record.demangled},
                    {"arch", k.record.arch},
                    {"status", !found      ? "added"
                               : regressed ? "regressed"
                               : improved  ? "improved"
                                           : "unchanged"},
                    {"regressed", regressed},
                    {"improved", improved && !regressed},
                    {"figures", json::array({figure("occupancy", now.occupancy, old.occupancy),
                                             figure("registers", now.registers, old.registers),
                                             figure("spills", now.spills, old.spills),
                                             figure("scratch", now.scratch_bytes, old.scratch_bytes)})}});
  }
  // Regressions first, as the verdicts are.
  std::stable_sort(rows.begin(), rows.end(), [](const json &a, const json &b) {
    return a["regressed"].get<bool>() > b["regressed"].get<bool>();
  });
  return rows;
}

// Whether the gate passes: its outcome exits 0 with no failure to accept
// (gateOutcome: the exit code is read from the same outcome, gate_command.cpp).
bool passed(const Report &report, const GateResult &result) { return gateOutcome(report, result) == GateOutcome::Pass; }

// The pass/fail line, worded from the outcome the exit code is read from:
// ERROR and CANNOT JUDGE exit 2, FAIL 1, pass and ACCEPTED 0 (FAIL under
// --exit-zero says "exit 0"); every failing kernel named.
std::pair<std::string, std::string> summary(const Report &report, const GateResult &result) {
  const std::size_t failures = result.failures.size();
  const int checked = result.kernels_checked;
  auto count = [](std::size_t n, const char *one, const char *many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  const GateOutcome outcome = gateOutcome(report, result);
  std::string rest;
  if (outcome == GateOutcome::Error) {
    std::set<std::string> files;
    for (const InputError &e : report.errors) files.insert(e.file);
    rest = ": " + count(files.size(), "file", "files") + " could not be analysed, so the run is not judged (" +
           count(failures, "failure", "failures") + " in the " + count(checked, "kernel", "kernels") + " judged)";
    return {"ERROR", rest};
  }
  std::vector<std::string> failing;
  for (const Verdict &v : result.failures) {
    const std::string who = shortKernelName(v.kernel) + " [" + v.arch + "]";
    if (std::find(failing.begin(), failing.end(), who) == failing.end()) failing.push_back(who);
  }
  if (!result.run_not_judged.empty()) rest = ": " + result.run_not_judged + ";";
  if (!result.baseline_keys_unmatched.empty())
    rest += (rest.empty() ? ": " : " ") + result.baseline_keys_unmatched + ";";
  if (!result.baseline_older_rule.empty()) rest += (rest.empty() ? ": " : " ") + result.baseline_older_rule + ";";
  rest += (rest.empty() ? ", " : " ") + count(failures, "failure", "failures") + " in " +
          count(checked, "kernel", "kernels") + " judged";
  if (!result.unjudged.empty()) rest += ", " + std::to_string(result.unjudged.size()) + " not judged";
  if (!failing.empty()) {
    rest += " (" + std::to_string(failing.size()) + " failing: ";
    for (std::size_t i = 0; i < failing.size(); ++i) rest += (i ? ", " : "") + failing[i];
    rest += ")";
  }
  if (!result.unchecked.empty())
    rest += "; " + count(result.unchecked.size(), "kernel", "kernels") + " not checked (unresolved until link)";
  if (!result.ignored.empty())
    rest += "; " + count(result.ignored.size(), "kernel", "kernels") + " ignored by the config (listed above)";
  switch (outcome) {
    case GateOutcome::CannotJudge:
      return {"CANNOT JUDGE", rest + "; exit 2"};
    case GateOutcome::FailExempt:
      return {"FAIL", rest + "; exit 0 (--exit-zero)"};
    case GateOutcome::Accepted:
      return {"ACCEPTED", rest + "; taken into the baseline (--update-baseline), exit 0"};
    case GateOutcome::Fail:
      return {"FAIL", rest};
    default:
      return {"pass", rest};
  }
}

class GateView : public View {
 public:
  GateView(const Report &report, const GateResult &result, std::vector<Verdict> findings, const Baseline *baseline,
           std::string root)
      : report_(report), result_(result), findings_(std::move(findings)), baseline_(baseline), root_(std::move(root)) {}

  nlohmann::json page() const override {
    json page = reportSections(report_);
    page.update(documentPage(document(), "regscope gate"));
    const auto [word, rest] = summary(report_, result_);
    page["verdict"] = {{"passed", passed(report_, result_)}, {"text", word + rest}};
    page["verdicts"] = verdictRows(result_);
    if (baseline_) {
      page["comparison"] = comparisonRows(report_, result_, *baseline_, root_);
      page["comparison_columns"] = {"occupancy", "registers", "spills", "scratch"};
    }
    return page;
  }

  Document document() const override {
    Table verdicts;
    verdicts.columns = {{"FILE", "file"},
                        {"LINE", "line", true},
                        {"KERNEL", "kernel"},
                        {"ARCH", "arch"},
                        {"RULE", "rule"},
                        {"KIND", "kind"},
                        {"MESSAGE", "message"},
                        // CSV's numbers: the message's figures, the unit once (bytes for scratch).
                        {"", "value", true, Show::Data},
                        {"", "limit", true, Show::Data},
                        {"", "before", true, Show::Data},
                        {"", "unit", false, Show::Data}};
    // "file:line: kernel [arch]: rule: message", the compiler's shape, clickable in editors.
    verdicts.as_line = [](const std::vector<Cell> &row) {
      const std::string line = row[1].number && *row[1].number > 0 ? ":" + row[1].text : "";
      const std::string where = (row[0].text.empty() ? "?" : row[0].text) + line + ": " + shortKernelName(row[2].text) +
                                " [" + row[3].text + "]: ";
      const Style style = row[5].text == "failure" || row[5].text == "cannot-judge" ? Style::Bad
                          : row[5].text == "improved"                               ? Style::Good
                                                                                    : Style::Plain;
      return Line({{where}, {row[4].text, style}, {": " + row[6].text}});
    };
    auto add = [&](const std::vector<Verdict> &list, const char *kind) {
      auto figure = [](const std::optional<int> &n) { return n ? Cell::count(*n) : Cell(""); };
      for (const Verdict &v : list)
        verdicts.add({v.file, Cell::count(v.line), v.kernel, v.arch, ruleName(v.rule), kind, v.message, figure(v.value),
                      figure(v.limit), figure(v.before), v.unit});
    };
    add(result_.failures, "failure");
    add(result_.unjudged, "cannot-judge");
    add(result_.improvements, "improved");
    add(result_.added, "added");
    add(result_.removed, "removed");
    add(result_.unchecked, "unresolved");
    add(result_.ignored, "ignored");
    Document doc;
    doc.table(std::move(verdicts));
    const auto [word, rest] = summary(report_, result_);
    doc.line(Line({{"regscope gate: "}, {word, word == "pass" ? Style::Good : Style::Bad}, {rest}}));
    // A change against the baseline: how to take it when it is wanted.
    const bool against_baseline = std::any_of(result_.failures.begin(), result_.failures.end(),
                                              [](const Verdict &v) { return v.before.has_value(); });
    if (gateOutcome(report_, result_) == GateOutcome::Fail && against_baseline)
      doc.line(Line("to accept the new figures as the baseline: the same command with --update-baseline"));
    return doc;
  }

  nlohmann::json toJson() const override {
    return {{"schema_version", kSchemaVersion},
            {"regscope_version", kRegscopeVersion},
            {"config", report_.config.empty() ? nlohmann::json(nullptr) : nlohmann::json(report_.config)},
            {"passed", passed(report_, result_)},
            {"summary", summary(report_, result_).first + summary(report_, result_).second},
            {"kernels_judged", result_.kernels_checked},
            {"kernels_checked", result_.kernels_checked},
            {"failures", verdictsToJson(result_.failures)},
            {"improvements", verdictsToJson(result_.improvements)},
            {"added", verdictsToJson(result_.added)},
            {"removed", verdictsToJson(result_.removed)},
            {"unchecked", verdictsToJson(result_.unchecked)},
            {"ignored", verdictsToJson(result_.ignored)},
            {"not_judged", verdictsToJson(result_.unjudged)}};
  }

  std::optional<CiReport> ci() const override { return ciReport(report_, "regscope gate", findings_); }

 private:
  const Report &report_;
  const GateResult &result_;
  std::vector<Verdict> findings_;
  const Baseline *baseline_;
  std::string root_;
};

}  // namespace

std::unique_ptr<View> gateView(const Report &report, const GateResult &result, std::vector<Verdict> findings,
                               const Baseline *baseline, std::string baseline_root) {
  return std::make_unique<GateView>(report, result, std::move(findings), baseline, std::move(baseline_root));
}

}  // namespace regscope
