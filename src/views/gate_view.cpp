// The gate's verdicts: one line per failure, improvement, added, removed or
// unchecked kernel, then the pass/fail line.
#include "phrases.h"
#include "regscope/gate/findings.h"
#include "regscope/support/version.h"
#include "regscope/views/views.h"
#include "report_json.h"

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
                    {"message", v.message}});
  return list;
}

class GateView : public View {
 public:
  GateView(const Report &report, const GateResult &result) : report_(report), result_(result) {}

  Document document() const override {
    Table verdicts;
    verdicts.columns = {{"FILE", "file"}, {"LINE", "line", true}, {"KERNEL", "kernel"},  {"ARCH", "arch"},
                        {"RULE", "rule"}, {"KIND", "kind"},       {"MESSAGE", "message"}};
    // "file:line: kernel [arch]: rule: message", the compiler's shape, clickable in editors.
    verdicts.as_line = [](const std::vector<Cell> &row) {
      const std::string line = row[1].number && *row[1].number > 0 ? ":" + row[1].text : "";
      const std::string where = (row[0].text.empty() ? "?" : row[0].text) + line + ": " + shortKernelName(row[2].text) +
                                " [" + row[3].text + "]: ";
      const Style style = row[5].text == "failure"    ? Style::Bad
                          : row[5].text == "improved" ? Style::Good
                                                      : Style::Plain;
      return Line({{where}, {row[4].text, style}, {": " + row[6].text}});
    };
    auto add = [&](const std::vector<Verdict> &list, const char *kind) {
      for (const Verdict &v : list)
        verdicts.add({v.file, Cell::count(v.line), v.kernel, v.arch, ruleName(v.rule), kind, v.message});
    };
    add(result_.failures, "failure");
    add(result_.improvements, "improved");
    add(result_.added, "added");
    add(result_.removed, "removed");
    add(result_.unchecked, "unresolved");
    const std::size_t failures = result_.failures.size();
    const int checked = result_.kernels_checked;
    Document doc;
    doc.table(std::move(verdicts));
    doc.line(Line({{"regscope gate: "},
                   failures ? Span{"FAIL", Style::Bad} : Span{"pass", Style::Good},
                   {", " + std::to_string(failures) + " failure" + (failures == 1 ? "" : "s") + " in " +
                    std::to_string(checked) + " kernel" + (checked == 1 ? "" : "s")}}));
    return doc;
  }

  nlohmann::json toJson() const override {
    return {{"schema_version", kSchemaVersion},
            {"regscope_version", kRegscopeVersion},
            {"passed", result_.failures.empty()},
            {"kernels_checked", result_.kernels_checked},
            {"failures", verdictsToJson(result_.failures)},
            {"improvements", verdictsToJson(result_.improvements)},
            {"added", verdictsToJson(result_.added)},
            {"removed", verdictsToJson(result_.removed)},
            {"unchecked", verdictsToJson(result_.unchecked)}};
  }

  std::optional<CiReport> ci() const override { return ciReport(report_, "regscope gate", gateFindings(result_)); }

 private:
  const Report &report_;
  const GateResult &result_;
};

}  // namespace

std::unique_ptr<View> gateView(const Report &report, const GateResult &result) {
  return std::make_unique<GateView>(report, result);
}

}  // namespace regscope
