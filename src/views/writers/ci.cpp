// The CI formats over findings: SARIF 2.1.0 (GitHub code scanning), GitHub
// workflow annotations, and JUnit XML.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "regscope/support/escape.h"
#include "regscope/support/version.h"
#include "writers.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

std::string location(const Verdict &v) { return v.file + (v.line > 0 ? ":" + std::to_string(v.line) : ""); }

// Element text that keeps its own line breaks (a compiler's message): each line escaped.
std::string xmlLines(const std::string &text) {
  std::string out;
  for (std::size_t begin = 0; begin <= text.size();) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    out += escape::xml(text.substr(begin, end - begin));
    if (end < text.size()) out += '\n';
    begin = end + 1;
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
  ordered_json invocation = {{"executionSuccessful", ci.errors.empty()}, {"toolExecutionNotifications", notifications}};
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
    out << "::" << command << " file=" << escape::githubProperty(v.file);
    if (v.line > 0) out << ",line=" << v.line;
    out << ",title=" << escape::githubProperty(std::string("regscope ") + ruleName(v.rule))
        << "::" << escape::githubData(v.kernel + " [" + v.arch + "]: " + v.message) << '\n';
  }
  for (const CiError &e : ci.errors)
    out << "::error file=" << escape::githubProperty(e.file)
        << ",title=" << escape::githubProperty("regscope: not analysed") << "::" << escape::githubData(errorText(e))
        << '\n';
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
      << "<testsuites name=\"" << escape::xml(ci.title) << "\" tests=\"" << tests << "\" failures=\"" << failing_cases
      << "\" errors=\"" << ci.errors.size() << "\">\n"
      << "  <testsuite name=\"" << escape::xml(ci.title) << "\" tests=\"" << tests << "\" failures=\"" << failing_cases
      << "\" errors=\"" << ci.errors.size() << "\" skipped=\"0\">\n";
  // An input that could not be analysed is an errored case: the suite could not run it.
  for (const CiError &e : ci.errors)
    out << "    <testcase classname=\"" << escape::xml(e.file) << "\" name=\""
        << escape::xml(e.file + (e.arch.empty() ? "" : " [" + e.arch + "]")) << "\" file=\"" << escape::xml(e.file)
        << "\">\n"
        << "      <error type=\"not-analysed\" message=\"" << escape::xml(errorText(e)) << "\">"
        << xmlLines(errorText(e)) << "</error>\n    </testcase>\n";
  for (const CiCase &c : ci.cases) {
    out << "    <testcase classname=\"" << escape::xml(c.file) << "\" name=\""
        << escape::xml(c.kernel + " [" + c.arch + "]") << "\" file=\"" << escape::xml(c.file) << "\" line=\"" << c.line
        << "\">\n";
    std::string detail;
    for (const Verdict &v : ci.findings) {
      if (!about(v, c)) continue;
      const std::string rule = ruleName(v.rule);
      if (v.level == Level::Error)
        out << "      <failure type=\"" << escape::xml(rule) << "\" message=\"" << escape::xml(v.message) << "\">"
            << escape::xml(location(v) + ": " + rule + ": " + v.message) << "</failure>\n";
      else
        detail += escape::xml(rule + ": " + v.message) + "\n";
    }
    if (!detail.empty()) out << "      <system-out>" << detail << "</system-out>\n";
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace regscope
