// --shard K/N|auto and --report FILE... (docs/sharding.md): which inputs this
// machine analyses, and the run every shard records so that merge can check
// the shards belong together. The command line only passes --shard's text
// (src/cli/shard_options.cpp).
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "regscope/pipeline/sources.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/version.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

std::uint64_t sizeOf(const std::string &path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
}

// The run's id where a scheduler gives one: shards of two runs of the same
// command never merge.
std::string runId() {
  auto env = [](const char *name) -> std::string {
    const char *value = std::getenv(name);
    return value ? value : "";
  };
  if (std::string id = env("REGSCOPE_RUN_ID"); !id.empty()) return id;
  if (std::string id = env("SLURM_ARRAY_JOB_ID"); !id.empty()) return "slurm:" + id;
  if (std::string id = env("GITHUB_RUN_ID"); !id.empty()) return "github:" + id + "." + env("GITHUB_RUN_ATTEMPT");
  return "";
}

// What changes a figure, as typed (paths in flags as written: the same under any checkout directory).
nlohmann::json figureOptions(const SourceRequest &o) {
  const AnalyzeOptions &a = o.analyze;
  std::vector<int> grf;
  for (GrfMode mode : a.intel_grf) grf.push_back(static_cast<int>(mode));
  nlohmann::json options = {{"compiler", a.compiler},
                            {"flags", o.command_line_flags},
                            {"block_size", o.block_size},
                            {"dynamic_lds", a.launch.dynamic_lds},
                            {"dynamic_shared", a.launch.dynamic_shared},
                            {"dynamic_slm", a.launch.dynamic_slm},
                            {"carveout", a.launch.carveout_percent},
                            {"intel_device", a.intel_device},
                            {"grf", o.grf},
                            {"timeout", a.timeout_seconds},
                            {"database", !o.database.empty()}};
  options.update(requestedTargetsJson(requestedTargets(a)));  // the targets (a JSON object sorts its keys)
  return options;
}

std::string envText(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

ShardSpec resolveShard(const std::string &text, const Messages &say) {
  if (text != "auto") return parseShardSpec(text);
  const ShardSpec spec = shardFromSlurm([](const char *name) { return std::getenv(name); });
  say.plain("--shard auto: shard " + spec.text() + " (SLURM_ARRAY_TASK_ID=" + envText("SLURM_ARRAY_TASK_ID") +
            ", SLURM_ARRAY_TASK_MIN=" + envText("SLURM_ARRAY_TASK_MIN") +
            ", SLURM_ARRAY_TASK_COUNT=" + envText("SLURM_ARRAY_TASK_COUNT") + ")");
  return spec;
}

ShardRun shardRun(const std::string &command, int count, const std::vector<ShardItem> &items,
                  const nlohmann::json &options, const std::string &config_path) {
  ShardRun run;
  run.command = command;
  run.count = count;
  run.regscope_version = kRegscopeVersion;
  nlohmann::json inputs = nlohmann::json::array();
  for (const ShardItem &item : items) inputs.push_back({item.key, item.weight});
  run.inputs_digest = sha256Hex(inputs.dump());
  run.options_digest = sha256Hex(options.dump());
  if (!config_path.empty()) run.config_digest = sha256Hex(readFile(config_path));
  run.run_id = runId();
  run.jobs = items.size();
  return run;
}

std::vector<SourceJob> selectShard(std::vector<SourceJob> jobs, SourceRequest &options, const std::string &command,
                                   const Messages &say) {
  if (options.shard.empty()) return jobs;
  const ShardSpec spec = resolveShard(options.shard, say);
  // Keys below the git repository's top; outside one, below the compile database's directory (-p), else here.
  std::error_code ec;
  std::string base = fs::current_path(ec).string();
  if (!options.database.empty())
    base =
        fs::is_directory(options.database, ec) ? options.database : fs::path(options.database).parent_path().string();
  std::vector<ShardItem> items;
  std::set<std::string> seen;
  for (const SourceJob &job : jobs) {
    std::string key = shardKey(job.path, base, job.variant);
    // The same file named twice is two inputs (as analyze runs it): keys stay unique.
    for (int again = 2; !seen.insert(key).second; ++again)
      key = shardKey(job.path, base, job.variant) + " (again " + std::to_string(again) + ")";
    items.push_back({key, sizeOf(job.path)});
  }
  const std::vector<int> shard_of = partitionShards(items, spec.count);
  options.shard_report = {};
  options.shard_report.run = shardRun(command, spec.count, items, figureOptions(options), options.config_in_force);
  options.shard_report.shards = {spec.index};
  options.shard_report.config = options.config_in_force;
  options.shard_global.clear();
  options.shard_keys.clear();
  std::vector<SourceJob> mine;
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (shard_of[i] == spec.index - 1) {
      mine.push_back(std::move(jobs[i]));
      options.shard_global.push_back(i);
      options.shard_keys.push_back(items[i].key);
    }
  // Each job's dependencies go into the shard report: gate and baseline --report judge a header through them.
  options.analyze.dependencies = true;
  if (options.analyze.verbose)
    say.plain("shard " + spec.text() + ": " + std::to_string(mine.size()) + " of " + std::to_string(jobs.size()) +
              " inputs");
  return mine;
}

std::vector<std::string> selectShardFiles(const std::vector<std::string> &files, const std::string &shard,
                                          const std::string &command, const nlohmann::json &options,
                                          ShardReport &report, std::vector<std::size_t> &global,
                                          std::vector<std::string> &keys, const Messages &say) {
  const ShardSpec spec = resolveShard(shard, say);
  std::error_code ec;
  const std::string here = fs::current_path(ec).string();
  std::vector<ShardItem> items;
  std::set<std::string> seen;
  for (const std::string &file : files) {
    const std::string path = fs::absolute(file, ec).string();
    std::string key = shardKey(path, here);
    for (int again = 2; !seen.insert(key).second; ++again)
      key = shardKey(path, here) + " (again " + std::to_string(again) + ")";
    items.push_back({key, sizeOf(path)});
  }
  const std::vector<int> shard_of = partitionShards(items, spec.count);
  report = {};
  report.run = shardRun(command, spec.count, items, options, "");
  report.shards = {spec.index};
  global.clear();
  keys.clear();
  std::vector<std::string> mine;
  for (std::size_t i = 0; i < files.size(); ++i)
    if (shard_of[i] == spec.index - 1) {
      mine.push_back(files[i]);
      global.push_back(i);
      keys.push_back(items[i].key);
    }
  return mine;
}

Report collectShardSources(const std::string &build_dir, SourceRequest &options, const Messages &say) {
  if (options.block_size) options.analyze.launch.block_size = options.block_size;
  const ShardSpec spec = resolveShard(options.shard, say);
  std::error_code ec;
  const std::string here = fs::current_path(ec).string();
  const SelectJobs select = [&](const std::vector<SourceJob> &jobs) {
    JobSelection selection;
    std::vector<ShardItem> items;
    std::set<std::string> seen;
    for (const SourceJob &job : jobs) {
      std::string key = shardKey(job.path, here, job.variant);
      for (int again = 2; !seen.insert(key).second; ++again)
        key = shardKey(job.path, here, job.variant) + " (again " + std::to_string(again) + ")";
      items.push_back({key, sizeOf(job.path)});
    }
    const std::vector<int> shard_of = partitionShards(items, spec.count);
    for (std::size_t i = 0; i < items.size(); ++i) {
      selection.mine.push_back(shard_of[i] == spec.index - 1);
      selection.keys.push_back(items[i].key);
    }
    selection.preamble = spec.index == 1;  // the reading's warnings and errors: shard 1's
    options.shard_report.run = shardRun("collect", spec.count, items, figureOptions(options), options.config_in_force);
    options.shard_report.run.jobs = items.size() + 1;  // and the preamble
    return selection;
  };
  Report report = collectShardSidecars(build_dir, options.analyze, select, options.shard_report.pieces);
  options.shard_report.shards = {spec.index};
  options.shard_report.config = options.config_in_force;
  options.shard_report.compiler_path = report.compiler_path;
  report.config = options.config_in_force;
  for (const std::string &warning : report.warnings) say.warning(warning);
  return report;
}

}  // namespace regscope
