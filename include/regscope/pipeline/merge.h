// Shard reports and their merge (docs/sharding.md). A run with --shard K/N
// analyses its part of the inputs and writes, beside the usual report, what
// each of its jobs produced before the model (the kernel records, each
// record's launch as the job read it, the job's errors, notes and
// dependencies). `regscope merge` puts the jobs of all N shards back in the
// one-process order and builds the Report from them as analyzeJobs does, so
// the merged report is the one-process report, kernel for kernel.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "regscope/collect/kernel_record.h"
#include "regscope/model/kernel_model.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/report/report.h"

namespace regscope {

// Format 2 (issue 30): the shard carries `records_digest`, a SHA-256 over its
// fingerprint and everything it holds (shards, compiler, config, pieces), so
// a record edited or deleted by hand is refused by merge and --report.
// Format 1 shards had none: they are refused with a line to re-run the shard.
inline constexpr int kShardFormat = 3;

// One job's part of a report, as analyzeJobs adds it.
struct JobPiece {
  std::size_t index = 0;  // the job's place among every shard's jobs (the one-process order)
  std::string key;        // its shard key (shardKey)
  std::string input;      // Report::inputs entry ("a.hip", "a.hip (entry 2)")
  std::string source;     // Report::input_paths entry (absolute; "#N" for a database's Nth entry)
  std::string producer;
  std::vector<KernelRecord> records;
  std::vector<LaunchOverrides> launches;       // records[i]'s launch
  std::map<std::string, std::string> display;  // a record's file -> the path the report shows
  std::vector<InputError> errors;
  std::vector<std::string> notes;
  std::optional<Optimisation> optimisation;
  std::vector<std::string> dependencies;
  std::vector<std::string> warnings;  // the input's own, before its kernels' (parse: remarks of no kernel)
  // collect: not an input but the warnings and errors of reading the sidecars,
  // which come before every input's (held by shard 1, index 0)
  bool preamble = false;
};

// What every shard of one run shares; merge refuses shards that differ in any of it.
struct ShardRun {
  std::string command;  // "analyze", "parse", "collect"
  int count = 0;
  std::string regscope_version;
  std::string inputs_digest;   // SHA-256 of every input's key and size, in order
  std::string options_digest;  // SHA-256 of the options that change a figure
  std::string config_digest;   // SHA-256 of the config file's bytes; "" without one
  std::string run_id;          // $REGSCOPE_RUN_ID, $SLURM_ARRAY_JOB_ID or $GITHUB_RUN_ID.$GITHUB_RUN_ATTEMPT; may be ""
  std::size_t jobs = 0;        // inputs over all shards
  std::string fingerprint() const;  // SHA-256 of the above
};

// One shard's report (or a merge of some shards).
struct ShardReport {
  ShardRun run;
  std::vector<int> shards;  // 1-based shards it holds, ascending
  std::string compiler_path;
  std::string config;  // Report::config
  std::vector<JobPiece> pieces;
};

std::string sha256Hex(const std::string &data);

// analyzeJobs over one shard's jobs; `global` gives each job's index among
// all shards' jobs and `keys` its shard key. Fills `pieces`.
Report analyzeShardJobs(const std::vector<SourceJob> &jobs, const std::vector<std::size_t> &global,
                        const std::vector<std::string> &keys, const AnalyzeOptions &options,
                        std::vector<JobPiece> &pieces);

// parseArtifacts over one shard's files, as analyzeShardJobs.
Report parseShardArtifacts(const std::vector<std::string> &files, const std::vector<std::size_t> &global,
                           const std::vector<std::string> &keys, const std::string &log_arch,
                           std::vector<JobPiece> &pieces);

// collect under --shard: `select` is given every sidecar's job in the
// one-process order and says which are this shard's (and their keys), and
// whether it holds the preamble (the reading's warnings and errors, piece 0;
// job i is piece i + 1). Every sidecar is read (the order and a source's
// variants need them all: they are small); this shard's are modelled.
struct JobSelection {
  std::vector<bool> mine;
  std::vector<std::string> keys;
  bool preamble = false;
};
using SelectJobs = std::function<JobSelection(const std::vector<SourceJob> &jobs)>;
Report collectShardSidecars(const std::string &build_dir, const AnalyzeOptions &options, const SelectJobs &select,
                            std::vector<JobPiece> &pieces);

// The "shard" object of the JSON report (docs/json-schema.md).
nlohmann::json shardToJson(const ShardReport &shard);
// Throws regscope::Error naming `path` when `j` (a whole report) has no
// readable "shard" object.
ShardReport shardFromJson(const nlohmann::json &report, const std::string &path);

// The shards of one run into one: refuses (regscope::Error, naming the
// files) shards of different runs, commands, options, config or versions,
// a shard given twice or overlapping another, and a missing shard.
ShardReport mergeShardReports(const std::vector<ShardReport> &shards, const std::vector<std::string> &paths);

// The Report the pieces make, in job order, as analyzeJobs builds it.
Report reportFromPieces(const ShardReport &shard);

// The files (each a shard report, or a merge of shards) read, merged and
// built into the Report; `merged`, when given, gets the merged shards.
// Throws regscope::Error naming the file for one that is unreadable or no
// shard report, and as mergeShardReports refuses.
Report reportFromShardFiles(const std::vector<std::string> &paths, ShardReport *merged = nullptr);

}  // namespace regscope
