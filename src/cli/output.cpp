// Where reports go: stdout or a file written atomically (a crash or Ctrl-C
// never leaves a half-written report where the old one was).
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "commands.h"
#include "regscope/support/error.h"
#include "regscope/support/escape.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"

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
  std::vector<std::string> formats;
  for (Format f : {Format::Text, Format::Json, Format::Csv, Format::Markdown, Format::Html, Format::Sarif,
                   Format::Github, Format::Junit})
    if (ci_formats || !isCiFormat(f)) formats.push_back(formatName(f));
  app.add_option("--format", options.format, "Output format")->check(CLI::IsMember(formats))->capture_default_str();
  app.add_option("-o,--output", options.path, "Write the report to FILE instead of stdout");
  app.add_option("--name-width", options.name_width,
                 "Kernel names in the terminal table: at most N characters (0: in full; default: fit the terminal)")
      ->check(wholeNumber(0, 100000));
  app.add_option("--color", options.color, "Colour the terminal table: auto (off under NO_COLOR), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
}

void emit(const OutputOptions &options, const View &view) {
  const std::optional<Format> format = formatByName(options.format);
  if (!format) throw Error("unknown format '" + options.format + "'");
  RenderOptions render_options;
  const bool to_terminal = options.path.empty() && isatty(STDOUT_FILENO);
  // A page of HTML is no use on a terminal; say so before any work is wasted on rendering.
  if (*format == Format::Html && to_terminal)
    throw Error("--format html writes a file: give -o FILE, or redirect stdout (regscope ... > report.html)");
  render_options.color = useColor(options.color, to_terminal);
  render_options.name_width = options.name_width;
  struct winsize size {};
  if (to_terminal && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0) render_options.terminal_width = size.ws_col;
  std::error_code ec;
  render_options.working_directory = std::filesystem::current_path(ec).string();
  render_options.source_root =
      repositoryRoot(render_options.working_directory).value_or(render_options.working_directory);
  const std::string text = render(view, *format, render_options);
  throwIfInterrupted();  // a signal before the output is written ends the run
  if (options.path.empty()) std::cout << text << std::flush;
  else writeFileAtomically(options.path, text);
}

void printWarning(const std::string &text) { std::cerr << "regscope: warning: " << escape::terminal(text) << '\n'; }

void printError(const std::string &text) { std::cerr << "regscope: error: " << escape::terminalLines(text) << '\n'; }

}  // namespace regscope
