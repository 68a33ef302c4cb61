// The CI formats over findings: SARIF 2.1.0 (GitHub code scanning), GitHub
// workflow annotations, and JUnit XML.
#include <nlohmann/json.hpp>

#include "../phrases.h"
#include "regscope/support/version.h"
#include "writers.h"

namespace regscope {
namespace {

using nlohmann::ordered_json;

std::string location(const Verdict &v) { return v.file + (v.line > 0 ? ":" + std::to_string(v.line) : ""); }

std::string escapeData(const std::string &s) {
  std::string out;
  for (char c : s) out += c == '%' ? "%25" : c == '\r' ? "%0D" : c == '\n' ? "%0A" : std::string(1, c);
  return out;
}

std::string escapeProperty(const std::string &s) {
  std::string out;
  for (char c : escapeData(s)) out += c == ':' ? "%3A" : c == ',' ? "%2C" : std::string(1, c);
  return out;
}

std::string xml(const std::string &s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

bool about(const Verdict &v, const CiCase &c) { return v.kernel == c.kernel && v.arch == c.arch && v.file == c.file; }

}  // namespace

void writeSarif(const CiReport &ci, std::ostream &out) {
  ordered_json rules = ordered_json::array();
  for (const RuleInfo &r : ruleCatalog())
    rules.push_back({{"id", r.id},
                     {"name", r.name},
                     {"shortDescription", {{"text", r.summary}}},
                     {"fullDescription", {{"text", r.help}}},
                     {"help", {{"text", r.help}, {"markdown", r.help}}},
                     {"defaultConfiguration", {{"level", levelName(r.level)}}}});
  ordered_json results = ordered_json::array();
  for (const Verdict &v : ci.findings) {
    const RuleInfo &rule = ruleInfo(v.rule);
    ordered_json physical = {{"artifactLocation", {{"uri", v.file.empty() ? "unknown" : v.file}}}};
    if (v.line > 0) physical["region"] = {{"startLine", v.line}};
    ordered_json result = {{"ruleId", rule.id},
                           {"ruleIndex", &rule - ruleCatalog().data()},
                           {"level", levelName(v.level)},
                           {"message", {{"text", shortKernelName(v.kernel) + " [" + v.arch + "]: " + v.message}}},
                           {"locations", ordered_json::array({{{"physicalLocation", physical}}})},
                           {"properties", {{"kernel", v.kernel}, {"arch", v.arch}}}};
    results.push_back(std::move(result));
  }
  ordered_json driver = {
      {"name", "regscope"}, {"version", kRegscopeVersion}, {"semanticVersion", kRegscopeVersion}, {"rules", rules}};
  ordered_json run = {{"tool", {{"driver", driver}}},
                      {"results", results},
                      {"properties", {{"compiler", ci.compiler_version}, {"compilerPath", ci.compiler_path}}}};
  ordered_json sarif = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                        {"version", "2.1.0"},
                        {"runs", ordered_json::array({run})}};
  out << sarif.dump(2, ' ', false, ordered_json::error_handler_t::replace) << '\n';  // names are bytes: no throw
}

void writeGithub(const CiReport &ci, std::ostream &out) {
  for (const Verdict &v : ci.findings) {
    const char *command = v.level == Level::Error ? "error" : v.level == Level::Warning ? "warning" : "notice";
    out << "::" << command << " file=" << escapeProperty(v.file);
    if (v.line > 0) out << ",line=" << v.line;
    out << ",title=" << escapeProperty(std::string("regscope ") + ruleName(v.rule))
        << "::" << escapeData(shortKernelName(v.kernel) + " [" + v.arch + "]: " + v.message) << '\n';
  }
}

void writeJunit(const CiReport &ci, std::ostream &out) {
  // One test case per (kernel, arch); error findings are its failures.
  std::size_t failing_cases = 0;
  for (const CiCase &c : ci.cases)
    for (const Verdict &v : ci.findings)
      if (v.level == Level::Error && about(v, c)) {
        ++failing_cases;
        break;
      }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"" << xml(ci.title) << "\" tests=\"" << ci.cases.size() << "\" failures=\"" << failing_cases
      << "\">\n"
      << "  <testsuite name=\"" << xml(ci.title) << "\" tests=\"" << ci.cases.size() << "\" failures=\""
      << failing_cases << "\" errors=\"0\" skipped=\"0\">\n";
  for (const CiCase &c : ci.cases) {
    out << "    <testcase classname=\"" << xml(c.file) << "\" name=\""
        << xml(shortKernelName(c.kernel) + " [" + c.arch + "]") << "\" file=\"" << xml(c.file) << "\" line=\"" << c.line
        << "\">\n";
    std::string detail;
    for (const Verdict &v : ci.findings) {
      if (!about(v, c)) continue;
      const std::string rule = ruleName(v.rule);
      if (v.level == Level::Error)
        out << "      <failure type=\"" << xml(rule) << "\" message=\"" << xml(v.message) << "\">"
            << xml(location(v) + ": " + rule + ": " + v.message) << "</failure>\n";
      else
        detail += rule + ": " + v.message + "\n";
    }
    if (!detail.empty()) out << "      <system-out>" << xml(detail) << "</system-out>\n";
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace regscope
