// The CI formats over a list of findings: SARIF 2.1.0 (GitHub code scanning),
// Markdown (PR comments, $GITHUB_STEP_SUMMARY), GitHub workflow annotations,
// and JUnit XML.
#include <nlohmann/json.hpp>

#include "regscope/findings.h"
#include "regscope/printers.h"

namespace regscope {
namespace {

using nlohmann::ordered_json;

std::string location(const Verdict &v) { return v.file + (v.line > 0 ? ":" + std::to_string(v.line) : ""); }

std::size_t countLevel(const std::vector<Verdict> &findings, const std::string &level) {
  std::size_t n = 0;
  for (const Verdict &v : findings) n += v.level == level;
  return n;
}

// ---- SARIF ----
void printSarif(const Report &report, const std::vector<Verdict> &findings, std::ostream &out) {
  ordered_json rules = ordered_json::array();
  for (const RuleInfo &r : ruleCatalog())
    rules.push_back({{"id", r.id},
                     {"name", r.name},
                     {"shortDescription", {{"text", r.summary}}},
                     {"fullDescription", {{"text", r.help}}},
                     {"help", {{"text", r.help}, {"markdown", r.help}}},
                     {"defaultConfiguration", {{"level", r.level}}}});
  ordered_json results = ordered_json::array();
  for (const Verdict &v : findings) {
    const RuleInfo *rule = findRule(v.rule);
    ordered_json physical = {{"artifactLocation", {{"uri", v.file.empty() ? "unknown" : v.file}}}};
    if (v.line > 0) physical["region"] = {{"startLine", v.line}};
    ordered_json result = {{"ruleId", rule ? rule->id : v.rule},
                           {"ruleIndex", rule ? rule - ruleCatalog().data() : 0},
                           {"level", v.level},
                           {"message", {{"text", shortKernelName(v.kernel) + " [" + v.arch + "]: " + v.message}}},
                           {"locations", ordered_json::array({{{"physicalLocation", physical}}})},
                           {"properties", {{"kernel", v.kernel}, {"arch", v.arch}}}};
    results.push_back(std::move(result));
  }
  ordered_json driver = {{"name", "regscope"},
                         {"version", kRegscopeVersion},
                         {"semanticVersion", kRegscopeVersion},
                         {"rules", rules}};
  ordered_json run = {{"tool", {{"driver", driver}}},
                      {"results", results},
                      {"properties", {{"compiler", report.compiler_version}, {"compilerPath", report.compiler_path}}}};
  ordered_json sarif = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                        {"version", "2.1.0"},
                        {"runs", ordered_json::array({run})}};
  out << sarif.dump(2) << '\n';
}

// ---- Markdown ----
std::string cell(std::string text) {
  for (std::size_t at = 0; (at = text.find('|', at)) != std::string::npos; at += 2) text.replace(at, 1, "\\|");
  return text;
}

void printMarkdown(const Report &report, const std::vector<Verdict> &findings, const std::string &title,
                   std::ostream &out) {
  const std::size_t errors = countLevel(findings, "error");
  out << "### " << title << ": " << (errors ? "❌ " + std::to_string(errors) + " failing" : std::string("✅ pass"))
      << "\n\n";
  out << "| kernel | arch | location | registers | spills | scratch | occupancy | limiter |\n"
      << "|---|---|---|---:|---:|---:|---:|---|\n";
  for (const KernelReport &k : report.kernels) {
    const KernelRecord &r = k.record;
    const OccupancySummary &s = k.summary;
    out << "| `" << cell(shortKernelName(r.demangled)) << "` | " << r.arch << " | " << cell(k.display_file) << ":"
        << r.line << " | " << s.registers << " | " << s.spills << " | " << s.scratch_bytes << " | " << s.level << "/"
        << s.max_level << " " << s.unit << " | " << s.limiter << " |\n";
  }
  std::string notes;
  for (const Verdict &v : findings)
    if (v.rule != "occupancy")
      notes += "- **" + v.rule + "** `" + cell(shortKernelName(v.kernel)) + "` [" + v.arch + "] (" + location(v) +
               "): " + v.message + "\n";
  if (!notes.empty()) out << "\n" << notes;
}

// ---- GitHub workflow commands ----
std::string escapeData(std::string s) {
  std::string out;
  for (char c : s) out += c == '%' ? "%25" : c == '\r' ? "%0D" : c == '\n' ? "%0A" : std::string(1, c);
  return out;
}
std::string escapeProperty(const std::string &s) {
  std::string out;
  for (char c : escapeData(s)) out += c == ':' ? "%3A" : c == ',' ? "%2C" : std::string(1, c);
  return out;
}

void printGithub(const std::vector<Verdict> &findings, std::ostream &out) {
  for (const Verdict &v : findings) {
    const char *command = v.level == "error" ? "error" : v.level == "warning" ? "warning" : "notice";
    out << "::" << command << " file=" << escapeProperty(v.file);
    if (v.line > 0) out << ",line=" << v.line;
    out << ",title=" << escapeProperty("regscope " + v.rule) << "::"
        << escapeData(shortKernelName(v.kernel) + " [" + v.arch + "]: " + v.message) << '\n';
  }
}

// ---- JUnit XML ----
std::string xml(const std::string &s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

void printJunit(const Report &report, const std::vector<Verdict> &findings, const std::string &title,
                std::ostream &out) {
  // One test case per (kernel, arch); error findings are its failures.
  const std::size_t failing_cases = [&] {
    std::size_t n = 0;
    for (const KernelReport &k : report.kernels)
      for (const Verdict &v : findings)
        if (v.level == "error" && v.kernel == k.record.demangled && v.arch == k.record.arch && v.file == k.display_file) {
          ++n;
          break;
        }
    return n;
  }();
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"" << xml(title) << "\" tests=\"" << report.kernels.size() << "\" failures=\""
      << failing_cases << "\">\n"
      << "  <testsuite name=\"" << xml(title) << "\" tests=\"" << report.kernels.size() << "\" failures=\""
      << failing_cases << "\" errors=\"0\" skipped=\"0\">\n";
  for (const KernelReport &k : report.kernels) {
    out << "    <testcase classname=\"" << xml(k.display_file) << "\" name=\""
        << xml(shortKernelName(k.record.demangled) + " [" + k.record.arch + "]") << "\" file=\"" << xml(k.display_file)
        << "\" line=\"" << k.record.line << "\">\n";
    std::string detail;
    for (const Verdict &v : findings) {
      if (v.kernel != k.record.demangled || v.arch != k.record.arch || v.file != k.display_file) continue;
      if (v.level == "error")
        out << "      <failure type=\"" << xml(v.rule) << "\" message=\"" << xml(v.message) << "\">"
            << xml(location(v) + ": " + v.rule + ": " + v.message) << "</failure>\n";
      else
        detail += v.rule + ": " + v.message + "\n";
    }
    if (!detail.empty()) out << "      <system-out>" << xml(detail) << "</system-out>\n";
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace

void printFindings(CiFormat format, const Report &report, const std::vector<Verdict> &findings,
                   const std::string &title, std::ostream &out) {
  switch (format) {
    case CiFormat::Sarif: printSarif(report, findings, out); break;
    case CiFormat::Markdown: printMarkdown(report, findings, title, out); break;
    case CiFormat::Github: printGithub(findings, out); break;
    case CiFormat::Junit: printJunit(report, findings, title, out); break;
  }
}

}  // namespace regscope
