// One file per subcommand; each registers its options on the root app and
// returns the function that runs it.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "regscope/gate/findings.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/pipeline/explain.h"
#include "regscope/pipeline/parse_tree.h"
#include "regscope/pipeline/sources.h"
#include "regscope/report/said_once.h"
#include "regscope/report/select.h"
#include "regscope/support/messages.h"
#include "regscope/support/progress.h"
#include "regscope/views/output.h"
#include "regscope/views/view.h"

namespace regscope {

struct Command {
  CLI::App *app;
  std::function<int()> run;
};

// `compiler_flags`: what followed `--` on the command line (main splits it
// off, since CLI11 would read it as more positionals).
Command addAnalyzeCommand(CLI::App &root, const std::vector<std::string> &compiler_flags);
Command addGateCommand(CLI::App &root, const std::vector<std::string> &compiler_flags);
Command addBaselineCommand(CLI::App &root, const std::vector<std::string> &compiler_flags);
Command addOccupancyCommand(CLI::App &root);
Command addTableCommand(CLI::App &root);
Command addKernelsCommand(CLI::App &root);
Command addParseCommand(CLI::App &root);
Command addAdviseCommand(CLI::App &root, const std::vector<std::string> &compiler_flags);
Command addExplainCommand(CLI::App &root, const std::vector<std::string> &compiler_flags);
// `command`: the compile after `--`. main runs wrap before it catches signals,
// so that the compiler's signals stay the build's.
Command addWrapCommand(CLI::App &root, const std::vector<std::string> &command);
Command addCollectCommand(CLI::App &root);
Command addMergeCommand(CLI::App &root);
Command addMcpCommand(CLI::App &root);

// FILE... --offload-arch --compiler --config, shared by analyze, gate and
// baseline: the library's request (pipeline/sources.h), and the option that
// says whether --offload-arch was given.
struct SourceOptions : SourceRequest {
  CLI::Option *archs_option = nullptr;
};
// Diagnostics on stderr: "regscope: warning: TEXT" and "regscope: error: TEXT",
// the names and paths they quote from the input made visible
// (support/escape.h); an error keeps its own line breaks (a compiler's
// message), a warning is one line.
void printWarning(const std::string &text);
void printError(const std::string &text);
// The library's messages, printed as above (support/messages.h).
const Messages &stderrMessages();
// The working directory the run's relative paths mean (throws when it is gone).
std::string workingDirectory();

void addSourceOptions(CLI::App &app, SourceOptions &options, const std::vector<std::string> &compiler_flags);
// --cuda-arch (NVIDIA targets) into `options`; each command adds how it splits the values.
CLI::Option *addCudaArchOption(CLI::App &app, AnalyzeOptions &options, const std::string &help);

// A validator for a whole number of at least `low`, with a plain message.
inline constexpr int kNoUpperBound = 1 << 30;
CLI::Validator wholeNumber(int low, int high = kNoUpperBound);

// prepareSources (pipeline/sources.h) with --offload-arch's presence, here.
Config prepareSources(SourceOptions &options);

// collect's options (--config, --block-size, --dynamic-lds), for a command
// that reads sidecars and compiles nothing.
void addCollectOptions(CLI::App &app, SourceOptions &options);
// gate's and baseline's --collect BUILD_DIR (instead of FILE... or -p).
void addCollectFlag(CLI::App &app, SourceOptions &options);

// --shard K/N|auto (shard_options.cpp), on analyze, parse, gate, baseline, collect;
// what it selects is the library's (pipeline/sources.h selectShard).
void addShardOption(CLI::App &app, std::string &shard);
// gate's and baseline's --report FILE...: judge shard reports (or a merged one), compiling nothing.
void addReportFlag(CLI::App &app, SourceOptions &options);
// The view, with the "shard" object in its JSON under --shard.
std::unique_ptr<View> shardedView(std::unique_ptr<View> view, const SourceRequest &request);

// Prints the report's per-file errors; kExitError if there were any.
int reportErrors(const Report &report);

// `ci_formats`: also offer sarif, github and junit (views with findings).
void addOutputOptions(CLI::App &app, OutputOptions &options, bool ci_formats = false);
// --kernel REGEX, --exclude REGEX, --top N: which kernels the report shows (report/select.h).
void addSelectionOptions(CLI::App &app, KernelSelection &selection);
// selectKernels, and its "showing N of M kernels" note also on stderr for the
// formats that print no report notes (csv, markdown, sarif, github, junit).
void selectAndSay(Report &report, const KernelSelection &selection, const OutputOptions &output);

}  // namespace regscope
