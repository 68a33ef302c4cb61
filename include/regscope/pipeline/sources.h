// The request every compiling command builds from its options (analyze, gate,
// baseline, explain, advise): which files, which archs and compiler, which
// flags, and .regscope.json; and the runs it describes. The command line only
// fills a SourceRequest; everything it means is settled here.
#pragma once

#include <string>
#include <vector>

#include "regscope/pipeline/analyze.h"
#include "regscope/pipeline/explain.h"
#include "regscope/pipeline/merge.h"
#include "regscope/source/config.h"
#include "regscope/source/shard.h"
#include "regscope/support/messages.h"

namespace regscope {

struct SourceRequest {
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
  std::string collect_dir;   // gate/baseline --collect: read regscope wrap's sidecars instead of compiling
  bool archs_given = false;  // --offload-arch was on the command line
  AnalyzeOptions analyze;
  std::string shard;                      // --shard K/N or auto; empty: every input
  std::vector<std::string> report_files;  // gate/baseline --report: shard or merged reports instead of compiling
  ShardReport shard_report;               // under --shard: the run and, after the analysis, this shard's pieces
  std::vector<std::size_t> shard_global;  // this shard's jobs' places among every shard's
  std::vector<std::string> shard_keys;    // and their shard keys
};

// Reads the config in force (--config, else .regscope.json in `cwd` or above),
// resolves the flags after -- against `cwd`, and settles the archs
// (--offload-arch, else the flags' own, else the config's, else the default).
Config prepareSources(SourceRequest &request, const std::string &cwd, const Messages &say);

// --grf's value as the GRF modes ocloc compiles for ("both": small and large).
std::vector<GrfMode> grfModesFor(const std::string &grf);

// The jobs the request describes (files, or -p's database; none when only
// headers were named, each skipped with a warning), with the analysis options
// settled (cache, progress, launch, GRF modes). prepareSources must have run.
// Throws regscope::Error for no input, or a .cu that nothing says is HIP.
std::vector<SourceJob> sourceJobs(SourceRequest &request, const Messages &say);

// Runs the analysis the request describes (files, or -p's database); its
// warnings said, the config in force recorded. prepareSources must have run.
Report analyzeSources(SourceRequest &request, const Messages &say);
// The report of a build's sidecars (regscope wrap), settled as analyzeSources
// settles its own. prepareSources must have run.
Report collectSources(const std::string &build_dir, SourceRequest &request, const Messages &say);
// reportFromShardFiles for --report (nothing compiled), collectSources for
// --collect, else analyzeSources.
Report sourcesReport(SourceRequest &request, const Messages &say);
// analyzeSources with each kernel's assembly read for per-line pressure
// (explain, analyze --lines). No jobs (only headers): an empty result.
ExplainedReport explainSources(SourceRequest &request, const Messages &say);

// Every file a run reads: sources, --report's files, --config, and the compile
// database -p names or finds (searched upwards from `cwd` for the config).
std::vector<std::string> inputPaths(const SourceRequest &request, const std::string &cwd);

// The kernels --kernel names (all for an empty `wanted`), their isa
// alongside. Throws regscope::Error for a run without kernels, or no kernel
// of that name (listing those there are); a run whose compile failed is
// returned as it is (its errors say why).
ExplainedReport selectKernels(ExplainedReport explained, const std::string &wanted,
                              const std::vector<std::string> &files);

// gate --log: the build logs' resource remarks as a report, for the one arch
// --offload-arch names (remarks do not say theirs); the report's warnings
// said. Throws regscope::Error without exactly one named arch, or for a log
// without remarks.
Report logsReport(const std::vector<std::string> &logs, const SourceRequest &request, const Messages &say);

// Every input is NVIDIA device code that exists (a cubin, a fatbin, a host
// object or executable with .nv_fatbin): explain reads it from nvdisasm,
// compiling nothing.
bool explainsNvidiaArtifacts(const std::vector<std::string> &files);
// explain on such inputs (explainNvidiaArtifacts): nvdisasm found beside
// --compiler's nvcc, on PATH or in /usr/local/cuda/bin; --block-size as the launch.
ExplainedReport explainNvidiaBinaries(const SourceRequest &request);

// explain's tools beyond the compiler: nvdisasm for NVIDIA targets. Throws regscope::Error.
void requireExplainTools(const SourceRequest &request);

// The one HIP source advise works on, as a job with its flags (-p: the
// database's). Throws regscope::Error for anything but one AMD source.
SourceJob adviseJob(SourceRequest &request, const Messages &say);

// --shard (docs/sharding.md; shard_sources.cpp): K/N as given, or (auto) from
// the Slurm array's environment, said as a note.
ShardSpec resolveShard(const std::string &text, const Messages &say);
// The run every shard shares (ShardRun) for `command` over `items` (every
// input's key and size, in the one-process order) and the options that change a figure.
ShardRun shardRun(const std::string &command, int count, const std::vector<ShardItem> &items,
                  const nlohmann::json &options, const std::string &config_path);
// Under --shard: this shard's jobs of `jobs` (all of them), with the run and
// their places kept in `request`; `jobs` unchanged otherwise. sourceJobs calls it.
std::vector<SourceJob> selectShard(std::vector<SourceJob> jobs, SourceRequest &request, const std::string &command,
                                   const Messages &say);
// Under --shard, for a command that reads files (parse): this shard's part of
// `files`, its run in `report`, the files' places and keys.
std::vector<std::string> selectShardFiles(const std::vector<std::string> &files, const std::string &shard,
                                          const std::string &command, const nlohmann::json &options,
                                          ShardReport &report, std::vector<std::size_t> &global,
                                          std::vector<std::string> &keys, const Messages &say);
// collect under --shard: this shard's sidecars, settled as collectSources settles them.
Report collectShardSources(const std::string &build_dir, SourceRequest &request, const Messages &say);

}  // namespace regscope
