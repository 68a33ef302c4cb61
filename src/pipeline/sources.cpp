// What the compiling commands' options mean: the config in force, the flags
// after --, the archs, the jobs and the run.
#include "regscope/pipeline/sources.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "regscope/backend/backend.h"
#include "regscope/backends/nvidia/driver.h"
#include "regscope/cache/cache.h"
#include "regscope/driver/driver.h"
#include "regscope/pipeline/sidecar.h"
#include "regscope/source/flags.h"
#include "regscope/source/header_files.h"
#include "regscope/support/error.h"
#include "regscope/support/progress.h"
#include "regscope/support/symbols.h"
#include "regscope/target/intel.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// What every report of the user's sources carries: the config in force, and
// its warnings said.
void settle(Report &report, const SourceRequest &request, const Messages &say) {
  report.config = request.config_in_force;
  for (const std::string &warning : report.warnings) say.warning(warning);
}

}  // namespace

Config prepareSources(SourceRequest &request, const std::string &cwd, const Messages &say) {
  // The config in force: --config, else .regscope.json here or above (never past the repository or $HOME).
  Config config;
  if (!request.config_path.empty()) {
    config = loadConfig(request.config_path, request.allow_config_plugins);
  } else {
    ConfigSearch search = findConfig(cwd);
    for (const std::string &w : search.warnings) say.warning(w);
    if (search.path) config = loadConfig(*search.path, request.allow_config_plugins);
  }
  if (request.analyze.verbose)
    say.note(config.path.empty() ? std::string("no config file") : "using config " + config.path);
  // Flags after --: paths as they mean here; outputs dropped; --offload-arch among them counts as given.
  std::vector<std::string> archs_in_flags;
  std::vector<std::string> flags = resolvePathFlags(dropOutputFlags(request.command_line_flags, archs_in_flags), cwd);
  if (!archs_in_flags.empty()) {
    if (!request.archs_given) request.analyze.archs.clear();
    request.analyze.archs.insert(request.analyze.archs.end(), archs_in_flags.begin(), archs_in_flags.end());
  }
  request.analyze.archs_explicit = request.archs_given || !archs_in_flags.empty() || request.analyze.archs_explicit;
  if (!request.analyze.archs_explicit && !config.archs.empty()) {
    request.analyze.archs = config.archs;
    request.analyze.archs_explicit = true;
  }
  request.analyze.extra_flags = config.compiler_flags;
  request.analyze.extra_flags.insert(request.analyze.extra_flags.end(), flags.begin(), flags.end());
  request.analyze.kernel_settings = config.kernels;
  request.config_in_force = config.path;
  return config;
}

std::vector<GrfMode> grfModesFor(const std::string &grf) {
  if (grf == "both") return {GrfMode::Small, GrfMode::Large};
  return {grfModeByName(grf).value_or(GrfMode::Small)};
}

std::vector<SourceJob> sourceJobs(SourceRequest &request, const Messages &say) {
  if (request.files.empty() && request.database.empty()) throw Error("no input files (give FILE... or -p BUILD_DIR)");
  // The backend of the run's targets says which named files are not its to
  // compile (AMD: a .cu that neither the compiler flags, the command line's
  // and the config's, nor an AMD target asked for says is HIP).
  const RequestedTargets requested = requestedTargets(request.analyze);
  const Backend &backend = backendForTargets(requested);
  std::vector<std::string> all_flags = request.analyze.extra_flags;
  all_flags.insert(all_flags.end(), request.command_line_flags.begin(), request.command_line_flags.end());
  std::vector<std::string> sources;
  for (const std::string &file : request.files) {
    if (isHeader(file)) {
      say.warning("skipping header " + file + " (checked through the sources that include it)");
      continue;
    }
    // With -p a named file only selects its database entry, whose own command
    // says what it is (HeCBench's hipcc entries compile main.cu as HIP).
    if (request.database.empty())
      if (const std::string refused = backend.refusedSource(file, requested, all_flags); !refused.empty())
        throw Error(refused);
    sources.push_back(file);
  }
  if (sources.empty() && request.database.empty()) return {};  // only headers: nothing to compile
  request.files = sources;
  request.analyze.cache_dir = request.no_cache ? "" : ResultCache::defaultDirectory();
  if (request.block_size) request.analyze.launch.block_size = request.block_size;
  requireIntelDevice(request.analyze.intel_device);
  request.analyze.intel_grf = grfModesFor(request.grf);
  request.analyze.progress = progressWanted(request.progress);
  std::vector<SourceJob> jobs = request.database.empty()
                                    ? jobsForFiles(request.files)
                                    : jobsFromDatabase(request.database, request.files, backend.databaseEntries());
  return selectShard(std::move(jobs), request, "analyze", say);  // --shard: this shard's part; else all
}

Report analyzeSources(SourceRequest &request, const Messages &say) {
  const std::vector<SourceJob> jobs = sourceJobs(request, say);
  if (!request.shard.empty()) {  // this shard's jobs, each job's part kept for merge
    Report report =
        analyzeShardJobs(jobs, request.shard_global, request.shard_keys, request.analyze, request.shard_report.pieces);
    request.shard_report.compiler_path = report.compiler_path;
    settle(report, request, say);
    return report;
  }
  if (jobs.empty()) return Report{};  // only headers: nothing to compile
  Report report = analyzeJobs(jobs, request.analyze);
  settle(report, request, say);
  return report;
}

Report collectSources(const std::string &build_dir, SourceRequest &request, const Messages &say) {
  if (request.block_size) request.analyze.launch.block_size = request.block_size;
  Report report = collectSidecars(build_dir, request.analyze);
  settle(report, request, say);
  return report;
}

Report sourcesReport(SourceRequest &request, const Messages &say) {
  if (!request.report_files.empty()) {  // --report: the shards' (or a merge's) report, nothing compiled
    Report report = reportFromShardFiles(request.report_files);
    for (const std::string &warning : report.warnings) say.warning(warning);
    return report;
  }
  return request.collect_dir.empty() ? analyzeSources(request, say) : collectSources(request.collect_dir, request, say);
}

ExplainedReport explainSources(SourceRequest &request, const Messages &say) {
  const std::vector<SourceJob> jobs = sourceJobs(request, say);
  if (jobs.empty()) return {};
  ExplainedReport explained = explainJobs(jobs, request.analyze);
  settle(explained.report, request, say);
  return explained;
}

std::vector<std::string> inputPaths(const SourceRequest &request, const std::string &cwd) {
  std::vector<std::string> inputs = request.files;
  inputs.insert(inputs.end(), request.report_files.begin(), request.report_files.end());
  if (!request.config_path.empty())
    inputs.push_back(request.config_path);
  else if (const ConfigSearch found = findConfig(cwd); found.path)
    inputs.push_back(*found.path);
  if (!request.database.empty()) {
    // -p names the database, or a directory searched upwards for one.
    std::error_code ec;
    inputs.push_back(request.database);
    for (fs::path dir = fs::absolute(request.database, ec); !dir.empty(); dir = dir.parent_path()) {
      inputs.push_back((dir / "compile_commands.json").string());
      if (dir == dir.root_path()) break;
    }
  }
  return inputs;
}

Report logsReport(const std::vector<std::string> &logs, const SourceRequest &request, const Messages &say) {
  const std::vector<std::string> &archs = request.analyze.archs;
  if (!request.analyze.archs_explicit || archs.size() != 1)
    throw Error("--log: name the log's arch with --offload-arch (one arch: remarks do not say theirs)");
  Report report = parseArtifacts(logs, archs.front());
  for (const std::string &w : report.warnings) say.plain("warning: " + w);
  return report;
}

void requireExplainTools(const SourceRequest &request) {
  backendForTargets(requestedTargets(request.analyze)).checkExplainTools(request.analyze.compiler);
}

bool explainsNvidiaArtifacts(const std::vector<std::string> &files) {
  if (files.empty()) return false;
  for (const std::string &file : files)
    if (!isNvidiaArtifact(file)) return false;
  return true;
}

ExplainedReport explainNvidiaBinaries(const SourceRequest &request) {
  LaunchOverrides launch;
  if (request.block_size > 0) launch.block_size = request.block_size;
  std::string nvcc;  // nvdisasm is looked for beside it too; a machine with nvdisasm alone needs none
  try {
    nvcc = findNvcc(request.analyze.compiler);
  } catch (const Error &) {
    if (!request.analyze.compiler.empty()) throw;
  }
  return explainNvidiaArtifacts(request.files, findNvdisasm(nvcc), launch, request.analyze.timeout_seconds);
}

SourceJob adviseJob(SourceRequest &request, const Messages &say) {
  if (request.files.size() != 1)
    throw Error("advise takes one source file (" + std::to_string(request.files.size()) + " given)");
  if (!backendForTargets(requestedTargets(request.analyze)).compilesEditedText())
    throw Error("advise reads and compiles HIP sources for AMD targets only: --cuda-arch is not supported");
  // Before sourceJobs, which would warn that it skips the header, then find nothing.
  if (isHeader(request.files.front()))
    throw Error(request.files.front() + " is a header: advise a source that includes it");
  std::vector<SourceJob> jobs = sourceJobs(request, say);
  if (jobs.size() > 1)
    say.warning(jobs.front().file + " has " + std::to_string(jobs.size()) +
                " entries with different flags in the compile database; advising on the first");
  return jobs.front();
}

// The kernels --kernel names (all without it); bad input is one line, exit 2.
ExplainedReport selectKernels(ExplainedReport explained, const std::string &wanted,
                              const std::vector<std::string> &files) {
  std::string inputs;
  for (const std::string &file : files) inputs += (inputs.empty() ? "" : ", ") + file;
  if (explained.report.kernels.empty()) {
    if (!explained.report.errors.empty()) return explained;  // the compile failed: reportErrors says why
    throw Error(inputs + ": no GPU kernels (no __global__ function was compiled)");
  }
  if (wanted.empty()) return explained;
  ExplainedReport picked;
  picked.report = explained.report;
  picked.report.kernels.clear();
  std::string known;
  for (std::size_t k = 0; k < explained.report.kernels.size(); ++k) {
    const KernelReport &kernel = explained.report.kernels[k];
    if (known.find(kernel.record.demangled) == std::string::npos)
      known += (known.empty() ? "" : "; ") + kernel.record.demangled;
    if (!namesKernel(wanted, kernel.record.name)) continue;
    picked.report.kernels.push_back(kernel);
    picked.kernels.push_back(explained.kernels[k]);
  }
  if (picked.report.kernels.empty())
    throw Error("no kernel '" + wanted + "' in " + inputs + " (kernels: " + known + ")");
  return picked;
}

}  // namespace regscope
