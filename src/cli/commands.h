// One file per subcommand; each registers its options on the root app and
// returns the function that runs it.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "regscope/pipeline/analyze.h"
#include "regscope/pipeline/explain.h"
#include "regscope/pipeline/merge.h"
#include "regscope/pipeline/parse_tree.h"
#include "regscope/source/shard.h"
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

// FILE... --offload-arch --compiler --config, shared by analyze, gate and baseline.
struct SourceOptions {
  std::vector<std::string> files;
  std::string database;  // -p: compile_commands.json or a directory to search upwards
  std::string progress = "auto";
  bool no_cache = false;
  int block_size = 0;                           // 0: not given
  std::string config_path;                      // --config
  bool allow_config_plugins = false;            // --allow-config-plugins
  std::string config_in_force;                  // set by prepareSources: --config or the one found; empty: none
  std::vector<std::string> command_line_flags;  // after --, as typed
  std::string grf = "small";                    // Intel: small, large, both, auto
  std::string collect_dir;  // gate/baseline --collect: read regscope wrap's sidecars instead of compiling
  AnalyzeOptions analyze;
  CLI::Option *archs_option = nullptr;
  std::string shard;                      // --shard K/N or auto; empty: every input (shard_options.cpp)
  std::vector<std::string> report_files;  // gate/baseline --report: shard or merged reports instead of compiling
  ShardReport shard_report;               // under --shard: the run and, after the analysis, this shard's pieces
  std::vector<std::size_t> shard_global;  // this shard's jobs' places among every shard's
  std::vector<std::string> shard_keys;    // and their shard keys
};
// Diagnostics on stderr: "regscope: warning: TEXT" and "regscope: error: TEXT",
// the names and paths they quote from the input made visible
// (support/escape.h); an error keeps its own line breaks (a compiler's
// message), a warning is one line.
void printWarning(const std::string &text);
void printError(const std::string &text);

void addSourceOptions(CLI::App &app, SourceOptions &options, const std::vector<std::string> &compiler_flags);

// A validator for a whole number of at least `low`, with a plain message.
inline constexpr int kNoUpperBound = 1 << 30;
CLI::Validator wholeNumber(int low, int high = kNoUpperBound);

// Reads the config in force (--config, else .regscope.json here or above),
// resolves the flags after -- against the working directory, and settles the
// archs (--offload-arch, else the flags' own, else the config's, else the default).
Config prepareSources(SourceOptions &options);

// --grf's value as the GRF modes ocloc compiles for ("both": small and large).
std::vector<GrfMode> grfModesFor(const std::string &grf);

// A header by its extension: checked through the sources that include it.
bool isHeader(const std::string &file);

// The jobs the source options describe (files, or -p's database; none when
// only headers were named), with the analysis options settled (cache,
// progress, launch, GRF modes). prepareSources must have run.
std::vector<SourceJob> sourceJobs(SourceOptions &options);

// Runs the analysis the source options describe (files, or -p's database).
// prepareSources must have run.
Report analyzeSources(SourceOptions &options);

// collect's options (--config, --block-size, --dynamic-lds), for a command
// that reads sidecars and compiles nothing.
void addCollectOptions(CLI::App &app, SourceOptions &options);
// gate's and baseline's --collect BUILD_DIR (instead of FILE... or -p).
void addCollectFlag(CLI::App &app, SourceOptions &options);
// The report of a build's sidecars (regscope wrap), settled as analyzeSources
// settles its own. prepareSources must have run.
Report collectSources(const std::string &build_dir, SourceOptions &options);
// collectSources for --collect, else analyzeSources.
Report sourcesReport(SourceOptions &options);

// The jobs analyzeSources runs (settles the cache, launch and Intel options
// on the way); empty when only headers were named.
std::vector<SourceJob> sourceJobs(SourceOptions &options);

// analyzeSources with each kernel's assembly read for per-line pressure
// (explain, analyze --lines). No jobs (only headers): an empty result.
ExplainedReport explainSources(SourceOptions &options);

// --shard K/N|auto (shard_options.cpp), on analyze, parse, gate, baseline, collect.
void addShardOption(CLI::App &app, std::string &shard);
// gate's and baseline's --report FILE...: judge shard reports (or a merged one), compiling nothing.
void addReportFlag(CLI::App &app, SourceOptions &options);
// --shard's K/N: as given, or (auto) from the Slurm array's environment, said on stderr.
ShardSpec resolveShard(const std::string &text);
// The run every shard shares (ShardRun) for `command` over `items` (every
// input's key and size, in the one-process order) and the options that change a figure.
ShardRun shardRun(const std::string &command, int count, const std::vector<ShardItem> &items,
                  const nlohmann::json &options, const std::string &config_path);
// Under --shard: this shard's jobs of `jobs` (all of them), with the run and
// their places kept in `options`; `jobs` unchanged otherwise.
std::vector<SourceJob> selectShard(std::vector<SourceJob> jobs, SourceOptions &options, const std::string &command);
// Under --shard, for a command that reads files (parse): this shard's part of
// `files`, its run in `report`, the files' places and keys.
std::vector<std::string> selectShardFiles(const std::vector<std::string> &files, const std::string &shard,
                                          const std::string &command, const nlohmann::json &options,
                                          ShardReport &report, std::vector<std::size_t> &global,
                                          std::vector<std::string> &keys);
// collect under --shard: this shard's sidecars, settled as collectSources settles them.
Report collectShardSources(const std::string &build_dir, SourceOptions &options);
// The view, with the "shard" object in its JSON under --shard.
std::unique_ptr<View> shardedView(std::unique_ptr<View> view, const SourceOptions &options);

// Prints the report's per-file errors; kExitError if there were any.
int reportErrors(const Report &report);

// --progress's "auto" (a terminal, not under CI or pre-commit), "always", "never".
bool progressWanted(const std::string &setting);
// parseInputs over files and directories (artifact_inputs.cpp), then the walk's
// summary line on stderr and the known artifacts it could not read: an error
// line when `unread_is_error` (gate, baseline), else a warning.
ParsedInputs readArtifactInputs(const std::vector<std::string> &inputs, const ParseOptions &options,
                                bool unread_is_error);

// Every file a run reads: sources, --config, and the compile database -p names or finds.
std::vector<std::string> inputPaths(const SourceOptions &options);

// Refuses an -o path that is one of the inputs, a directory, or in a
// directory that does not exist (before any compile runs).
void refuseOverwritingInputs(const std::vector<std::string> &files, const std::string &output);

// --format / -o / --color, shared by every subcommand that prints a view.
struct OutputOptions {
  std::string format = "text";
  std::string path;  // -o; empty: stdout
  std::string color = "auto";
  int name_width = -1;  // --name-width; -1: fit the terminal
};
// `ci_formats`: also offer sarif, github and junit (views with findings).
void addOutputOptions(CLI::App &app, OutputOptions &options, bool ci_formats = false);

// Renders the view in the chosen format to stdout or (atomically) to the -o file.
void emit(const OutputOptions &options, const View &view);
// At start-up: a closed stdout (`regscope ... >&-`) is remembered and
// /dev/null put in its place, so no file opened during the run takes
// descriptor 1 and receives the report; emit then fails with exit 2.
void guardStdout();

}  // namespace regscope
