// The output options every subcommand that prints a view takes; writing is
// the views' (views/output.h).
#include <iostream>

#include "commands.h"
#include "regscope/support/escape.h"

namespace regscope {

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
  app.add_flag("--wide", options.wide,
               "The terminal table in full: every column, whole names and paths (default: fit the terminal, "
               "$COLUMNS, or 100 columns)");
  app.add_option("--color", options.color, "Colour the terminal table: auto (off under NO_COLOR), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
}

void addSelectionOptions(CLI::App &app, KernelSelection &selection) {
  app.add_option("--kernel", selection.kernel,
                 "Show only kernels whose demangled name matches REGEX (ECMAScript, anywhere in the name)");
  app.add_option("--exclude", selection.exclude, "Hide kernels whose demangled name matches REGEX");
  app.add_option("--top", selection.top,
                 "Show the N kernels that hurt most: cannot launch, then spills/local memory, then the lowest "
                 "occupancy, then the most registers")
      ->check(wholeNumber(1));
}

void selectAndSay(Report &report, const KernelSelection &selection, const OutputOptions &output) {
  selectKernels(report, selection);
  if (selection.any() && output.format != "text" && output.format != "json" && output.format != "html")
    stderrMessages().note(report.notes.back());
}

void printWarning(const std::string &text) { std::cerr << "regscope: warning: " << escape::terminal(text) << '\n'; }

void printError(const std::string &text) { std::cerr << "regscope: error: " << escape::terminalMessage(text) << '\n'; }

}  // namespace regscope
