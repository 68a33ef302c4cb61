// --shard K/N|auto and --report FILE... (docs/sharding.md): which inputs this
// machine analyses, and the run every shard records so that merge can check
// the shards belong together.
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "commands.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/version.h"
#include "regscope/views/shard_view.h"

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
nlohmann::json figureOptions(const SourceOptions &o) {
  const AnalyzeOptions &a = o.analyze;
  std::vector<int> grf;
  for (GrfMode mode : a.intel_grf) grf.push_back(static_cast<int>(mode));
  return {{"compiler", a.compiler},
          {"archs", a.archs},
          {"archs_explicit", a.archs_explicit},
          {"cuda_archs", a.cuda_archs},
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
}

}  // namespace

void addShardOption(CLI::App &app, std::string &shard) {
  app.add_option("--shard", shard,
                 "Analyse only shard K of N (1-based, e.g. 2/4) of the inputs, split by file and size the same on "
                 "every machine; auto: K and N from a Slurm job array. Merge the shards' JSON with regscope merge")
      ->type_name("K/N|auto");
}

void addReportFlag(CLI::App &app, SourceOptions &options) {
  CLI::Option *report =
      app.add_option("--report", options.report_files,
                     "Judge these shard reports (--shard ... --format json) or a merged one (regscope merge --format "
                     "json) instead of compiling")
          ->type_name("FILE")
          ->excludes(app.get_option("files"))
          ->excludes(app.get_option("-p"));
  if (CLI::Option *collect = app.get_option_no_throw("--collect")) report->excludes(collect);
  if (CLI::Option *shard = app.get_option_no_throw("--shard")) report->excludes(shard);
}

ShardSpec resolveShard(const std::string &text) {
  if (text != "auto") return parseShardSpec(text);
  const ShardSpec spec = shardFromSlurm([](const char *name) { return std::getenv(name); });
  std::cerr << "regscope: --shard auto: shard " << spec.text()
            << " (SLURM_ARRAY_TASK_ID=" << std::getenv("SLURM_ARRAY_TASK_ID")
            << ", SLURM_ARRAY_TASK_MIN=" << std::getenv("SLURM_ARRAY_TASK_MIN")
            << ", SLURM_ARRAY_TASK_COUNT=" << std::getenv("SLURM_ARRAY_TASK_COUNT") << ")\n";
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

std::vector<SourceJob> selectShard(std::vector<SourceJob> jobs, SourceOptions &options, const std::string &command) {
  if (options.shard.empty()) return jobs;
  const ShardSpec spec = resolveShard(options.shard);
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
    std::cerr << "regscope: shard " << spec.text() << ": " << mine.size() << " of " << jobs.size() << " inputs\n";
  return mine;
}

std::vector<std::string> selectShardFiles(const std::vector<std::string> &files, const std::string &shard,
                                          const std::string &command, const nlohmann::json &options,
                                          ShardReport &report, std::vector<std::size_t> &global,
                                          std::vector<std::string> &keys) {
  const ShardSpec spec = resolveShard(shard);
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

Report collectShardSources(const std::string &build_dir, SourceOptions &options) {
  if (options.block_size) options.analyze.launch.block_size = options.block_size;
  const ShardSpec spec = resolveShard(options.shard);
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
  for (const std::string &warning : report.warnings) printWarning(warning);
  return report;
}

std::unique_ptr<View> shardedView(std::unique_ptr<View> view, const SourceOptions &options) {
  if (options.shard.empty()) return view;
  return withShardJson(std::move(view), [&options] { return shardToJson(options.shard_report); });
}

}  // namespace regscope
