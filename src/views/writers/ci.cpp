// The CI formats over findings: SARIF 2.1.0 (GitHub code scanning), GitHub
// workflow annotations, and JUnit XML.
#include <cctype>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "regscope/support/version.h"
#include "writers.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
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

std::string errorText(const CiError &e) { return (e.arch.empty() ? "" : "[" + e.arch + "] ") + e.message; }

// RFC 3986 paths: unreserved characters, sub-delims, ':', '@' and '/' stay;
// every other byte (a space, '%', '#', '?', non-ASCII) is %XX.
std::string percentEncode(const std::string &path) {
  static const char *hex = "0123456789ABCDEF";
  static const std::string kept = "-._~!$&'()*+,;=:@/";
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || kept.find(static_cast<char>(c)) != std::string::npos) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// Where a file is, as SARIF and GitHub code scanning want it: relative to
// %SRCROOT% when inside the source root, else an absolute file:// URI.
class SarifLocations {
 public:
  explicit SarifLocations(const RenderOptions &options) {
    std::error_code ec;
    cwd_ = options.working_directory.empty() ? fs::current_path(ec) : fs::path(options.working_directory);
    root_ = options.source_root.empty() ? cwd_ : fs::path(options.source_root);
  }

  ordered_json artifact(const std::string &file) const {
    if (file.empty()) return {{"uri", "unknown"}};
    const fs::path absolute = (cwd_ / file).lexically_normal();
    const fs::path relative = absolute.lexically_relative(root_);
    if (!relative.empty() && *relative.begin() != "..")
      return {{"uri", percentEncode(relative.generic_string())}, {"uriBaseId", "%SRCROOT%"}};
    return {{"uri", "file://" + percentEncode(absolute.generic_string())}};
  }

  ordered_json baseIds() const {
    std::string root = root_.lexically_normal().generic_string();
    if (root.empty() || root.back() != '/') root += '/';
    return {{"%SRCROOT%", {{"uri", "file://" + percentEncode(root)}}}};
  }

 private:
  fs::path cwd_, root_;
};

}  // namespace

void writeSarif(const CiReport &ci, const RenderOptions &options, std::ostream &out) {
  const SarifLocations where(options);
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
    ordered_json physical = {{"artifactLocation", where.artifact(v.file)}};
    if (v.line > 0) physical["region"] = {{"startLine", v.line}};
    ordered_json result = {{"ruleId", rule.id},
                           {"ruleIndex", &rule - ruleCatalog().data()},
                           {"level", levelName(v.level)},
                           {"message", {{"text", v.kernel + " [" + v.arch + "]: " + v.message}}},
                           {"locations", ordered_json::array({{{"physicalLocation", physical}}})},
                           {"properties", {{"kernel", v.kernel}, {"arch", v.arch}}}};
    results.push_back(std::move(result));
  }
  ordered_json driver = {
      {"name", "regscope"}, {"version", kRegscopeVersion}, {"semanticVersion", kRegscopeVersion}, {"rules", rules}};
  // Inputs that could not be analysed: the run did not finish its work.
  ordered_json notifications = ordered_json::array();
  for (const CiError &e : ci.errors)
    notifications.push_back(
        {{"level", "error"},
         {"message", {{"text", errorText(e)}}},
         {"locations", ordered_json::array({{{"physicalLocation", {{"artifactLocation", where.artifact(e.file)}}}}})}});
  ordered_json invocation = {{"executionSuccessful", ci.errors.empty()},
                             {"toolExecutionNotifications", notifications}};
  ordered_json run = {{"tool", {{"driver", driver}}},
                      {"invocations", ordered_json::array({invocation})},
                      {"originalUriBaseIds", where.baseIds()},
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
        << "::" << escapeData(v.kernel + " [" + v.arch + "]: " + v.message) << '\n';
  }
  for (const CiError &e : ci.errors)
    out << "::error file=" << escapeProperty(e.file) << ",title=" << escapeProperty("regscope: not analysed") << "::"
        << escapeData(errorText(e)) << '\n';
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
  const std::size_t tests = ci.cases.size() + ci.errors.size();
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"" << xml(ci.title) << "\" tests=\"" << tests << "\" failures=\"" << failing_cases
      << "\" errors=\"" << ci.errors.size() << "\">\n"
      << "  <testsuite name=\"" << xml(ci.title) << "\" tests=\"" << tests << "\" failures=\"" << failing_cases
      << "\" errors=\"" << ci.errors.size() << "\" skipped=\"0\">\n";
  // An input that could not be analysed is an errored case: the suite could not run it.
  for (const CiError &e : ci.errors)
    out << "    <testcase classname=\"" << xml(e.file) << "\" name=\""
        << xml(e.file + (e.arch.empty() ? "" : " [" + e.arch + "]")) << "\" file=\"" << xml(e.file) << "\">\n"
        << "      <error type=\"not-analysed\" message=\"" << xml(errorText(e)) << "\">" << xml(errorText(e))
        << "</error>\n    </testcase>\n";
  for (const CiCase &c : ci.cases) {
    out << "    <testcase classname=\"" << xml(c.file) << "\" name=\""
        << xml(c.kernel + " [" + c.arch + "]") << "\" file=\"" << xml(c.file) << "\" line=\"" << c.line
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
