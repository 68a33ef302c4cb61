// The gate's views: one line per verdict, then a summary line.
#include "regscope/printers.h"

namespace regscope {
namespace {

std::string where(const Verdict &v) {
  std::string loc = v.file.empty() ? "?" : v.file;
  if (v.line > 0) loc += ":" + std::to_string(v.line);
  return loc + ": " + shortKernelName(v.kernel) + " [" + v.arch + "]";
}

nlohmann::json verdictsToJson(const std::vector<Verdict> &verdicts) {
  nlohmann::json list = nlohmann::json::array();
  for (const Verdict &v : verdicts)
    list.push_back({{"file", v.file}, {"line", v.line}, {"kernel", v.kernel}, {"arch", v.arch},
                    {"rule", v.rule}, {"message", v.message}});
  return list;
}

}  // namespace

void printGateText(const GateResult &result, std::ostream &out, const TextStyle &style) {
  const char *red = style.color ? "\033[31m" : "", *green = style.color ? "\033[32m" : "",
             *reset = style.color ? "\033[0m" : "";
  for (const Verdict &v : result.failures)
    out << where(v) << ": " << red << v.rule << reset << ": " << v.message << '\n';
  for (const Verdict &v : result.improvements) out << where(v) << ": " << green << "improved" << reset << ": " << v.message << '\n';
  for (const Verdict &v : result.added) out << where(v) << ": added: " << v.message << '\n';
  for (const Verdict &v : result.removed) out << where(v) << ": removed: " << v.message << '\n';
  for (const Verdict &v : result.unchecked) out << where(v) << ": unresolved: " << v.message << '\n';
  out << "regscope gate: " << (result.failures.empty() ? std::string(green) + "pass" : std::string(red) + "FAIL")
      << reset << ", " << result.failures.size() << " failure" << (result.failures.size() == 1 ? "" : "s") << " in "
      << result.kernels_checked << " kernel" << (result.kernels_checked == 1 ? "" : "s") << '\n';
}

nlohmann::json gateToJson(const GateResult &result) {
  return {{"schema_version", kSchemaVersion},
          {"regscope_version", kRegscopeVersion},
          {"passed", result.failures.empty()},
          {"kernels_checked", result.kernels_checked},
          {"failures", verdictsToJson(result.failures)},
          {"improvements", verdictsToJson(result.improvements)},
          {"added", verdictsToJson(result.added)},
          {"removed", verdictsToJson(result.removed)},
          {"unchecked", verdictsToJson(result.unchecked)}};
}

}  // namespace regscope
