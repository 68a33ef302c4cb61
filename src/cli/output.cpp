// Where reports go: stdout or a file written atomically (a crash or Ctrl-C
// never leaves a half-written report where the old one was).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "commands.h"
#include "regscope/error.h"

namespace regscope {
namespace {

bool useColor(const std::string &mode, bool to_terminal) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  if (const char *no = std::getenv("NO_COLOR"); no && *no) return false;
  const char *term = std::getenv("TERM");
  return to_terminal && !(term && std::string(term) == "dumb");
}

}  // namespace

void addOutputOptions(CLI::App &app, OutputOptions &options, bool ci_formats) {
  std::vector<std::string> formats = {"text", "json"};
  if (ci_formats) formats.insert(formats.end(), {"sarif", "markdown", "github", "junit"});
  app.add_option("--format", options.format, "Output format")->check(CLI::IsMember(formats))->capture_default_str();
  app.add_option("-o,--output", options.path, "Write the report to FILE instead of stdout");
  app.add_option("--color", options.color, "Colour the terminal table: auto (off under NO_COLOR), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
}

void emit(const OutputOptions &options, const std::function<void(std::ostream &, bool)> &text,
          const std::function<nlohmann::json()> &json, const FindingsView *view) {
  static const std::map<std::string, CiFormat> kCiFormats = {
      {"sarif", CiFormat::Sarif}, {"markdown", CiFormat::Markdown}, {"github", CiFormat::Github}, {"junit", CiFormat::Junit}};
  std::ostringstream out;
  if (options.format == "json") out << json().dump(2) << '\n';
  else if (auto ci = kCiFormats.find(options.format); ci != kCiFormats.end() && view)
    printFindings(ci->second, *view->report, view->findings, view->title, out);
  else text(out, useColor(options.color, options.path.empty() && isatty(STDOUT_FILENO)));
  if (options.path.empty()) std::cout << out.str() << std::flush;
  else writeFileAtomically(options.path, out.str());
}

}  // namespace regscope
