// One file per subcommand; each registers its options on the root app and
// returns the function that runs it.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace regscope {

struct Command {
  CLI::App *app;
  std::function<int()> run;
};

// `compiler_flags`: what followed `--` on the command line (main splits it
// off, since CLI11 would read it as more positionals).
Command addAnalyzeCommand(CLI::App &root, const std::vector<std::string> &compiler_flags);
Command addOccupancyCommand(CLI::App &root);
Command addTableCommand(CLI::App &root);

struct AmdArch;
// The arch named by --arch, or regscope::Error listing the known ones.
const AmdArch &requireArch(const std::string &name);

// --format / -o / --color, shared by every subcommand that prints a report.
struct OutputOptions {
  std::string format = "text";
  std::string path;           // -o; empty: stdout
  std::string color = "auto";
};
void addOutputOptions(CLI::App &app, OutputOptions &options);

// Prints text or JSON to stdout or (atomically) to the -o file.
void emit(const OutputOptions &options, const std::function<void(std::ostream &, bool color)> &text,
          const std::function<nlohmann::json()> &json);

}  // namespace regscope
