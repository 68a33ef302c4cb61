// The options every compiling command shares (analyze, gate, baseline):
// which files, which archs and compiler, which flags, and .regscope.json.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>
#include <thread>

#include "commands.h"
#include "regscope/cache/cache.h"
#include "regscope/pipeline/sidecar.h"
#include "regscope/source/flags.h"
#include "regscope/support/error.h"
#include "regscope/support/escape.h"
#include "regscope/target/amdgpu.h"
#include "regscope/target/cuda.h"
#include "regscope/target/intel.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

}  // namespace

// Headers are analysed through the sources that include them; pre-commit
// passes them too (the hook's pattern includes .cuh), so skip, do not fail.
bool isHeader(const std::string &file) {
  static const char *const kHeaderExtensions[] = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc"};
  const std::string ext = fs::path(file).extension().string();
  return std::find(std::begin(kHeaderExtensions), std::end(kHeaderExtensions), ext) != std::end(kHeaderExtensions);
}

// A whole number in [low, high], with a message in regscope's words (CLI11's
// PositiveNumber prints its range as a 300-digit number; Range says "Value").
CLI::Validator wholeNumber(int low, int high) {
  const std::string range = high == kNoUpperBound ? "of at least " + std::to_string(low)
                                                  : "from " + std::to_string(low) + " to " + std::to_string(high);
  return CLI::Validator(
      [low, high, range](std::string &value) -> std::string {
        long long n = 0;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (ec == std::errc() && end == value.data() + value.size() && n >= low && n <= high) return "";
        return "must be a whole number " + range + ", not '" + value + "'";
      },
      high == kNoUpperBound ? ">=" + std::to_string(low) : std::to_string(low) + ".." + std::to_string(high));
}

void addSourceOptions(CLI::App &app, SourceOptions &options, const std::vector<std::string> &compiler_flags) {
  options.analyze.archs = {kDefaultAmdArch};
  options.command_line_flags = compiler_flags;
  app.add_option("files", options.files,
                 "HIP (or, with --cuda-arch, CUDA) sources; with -p: restrict the run to these");
  app.add_option("-p,--project", options.database,
                 "compile_commands.json, or a build directory searched upwards for one (as clang-tidy -p)");
  options.analyze.parallel = std::max(1u, std::thread::hardware_concurrency());
  app.add_option("-j,--jobs", options.analyze.parallel, "Compiler runs at once (default: cores)")
      ->check(wholeNumber(1));
  app.add_option("--progress", options.progress,
                 "Progress line on stderr: auto (a terminal, not under CI or pre-commit), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_flag("--no-cache", options.no_cache, "Always run the compiler; neither read nor write the result cache");
  // One value per --offload-arch (comma-separated), so a file after it stays a file.
  options.archs_option =
      app.add_option("--offload-arch", options.analyze.archs, "Target(s), comma-separated or repeated")
          ->allow_extra_args(false)
          ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
          ->delimiter(',')
          ->capture_default_str();
  app.add_option("--compiler", options.analyze.compiler,
                 "Compiler to use (default: $HIPCC, then hipcc; with --cuda-arch: nvcc on PATH, $CUDA_PATH/bin, "
                 "/usr/local/cuda/bin)");
  app.add_option("--cuda-arch", options.analyze.cuda_archs,
                 "Compile with nvcc for these NVIDIA targets (sm_75 ... sm_120) instead")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->delimiter(',');
  app.add_option("--timeout", options.analyze.timeout_seconds,
                 "End a compiler run that takes longer than this many seconds (default: no limit)")
      ->check(wholeNumber(1));
  app.add_flag("-v,--verbose", options.analyze.verbose,
               "Say which config is used, and each file's compile time or cache hit, on stderr");
  addCollectOptions(app, options);  // --config, --block-size, --dynamic-lds
  app.add_option("--dynamic-smem", options.analyze.launch.dynamic_shared,
                 "NVIDIA: dynamic shared memory per block given at launch, in bytes")
      ->check(wholeNumber(0));
  app.add_option("--carveout", options.analyze.launch.carveout_percent,
                 "NVIDIA: preferred shared-memory carveout, percent (default: the largest)")
      ->check(wholeNumber(0, 100));
  app.add_option("--intel-device", options.analyze.intel_device,
                 "Intel: the device ocloc compiles .cl and .spv files for (pvc, dg2, tgllp, an ocloc or product name)")
      ->capture_default_str();
  app.add_option("--grf", options.grf,
                 "Intel: GRF mode: small (128 per thread), large (256), both (side by side, with Intel's rule), "
                 "auto (IGC picks)")
      ->check(CLI::IsMember({"small", "large", "both", "auto"}))
      ->capture_default_str();
  app.add_option("--dynamic-slm", options.analyze.launch.dynamic_slm,
                 "Intel: bytes of __local kernel arguments per work-group, given at launch")
      ->check(wholeNumber(0));
  app.footer("Flags after -- go to the compiler, paths in them meaning what they mean here, e.g. -- -DN=64 -I include");
}

Config prepareSources(SourceOptions &options) {
  // The config in force: --config, else .regscope.json here or above (never past the repository or $HOME).
  Config config;
  if (!options.config_path.empty()) {
    config = loadConfig(options.config_path, options.allow_config_plugins);
  } else {
    ConfigSearch search = findConfig(fs::current_path().string());
    for (const std::string &w : search.warnings) printWarning(w);
    if (search.path) config = loadConfig(*search.path, options.allow_config_plugins);
  }
  if (options.analyze.verbose)
    std::cerr << "regscope: "
              << escape::terminal(config.path.empty() ? std::string("no config file") : "using config " + config.path)
              << '\n';
  // Flags after --: paths as they mean here; outputs dropped; --offload-arch among them counts as given.
  std::vector<std::string> archs_in_flags;
  std::vector<std::string> flags =
      resolvePathFlags(dropOutputFlags(options.command_line_flags, archs_in_flags), fs::current_path().string());
  const bool archs_given = options.archs_option && options.archs_option->count() > 0;
  if (!archs_in_flags.empty()) {
    if (!archs_given) options.analyze.archs.clear();
    options.analyze.archs.insert(options.analyze.archs.end(), archs_in_flags.begin(), archs_in_flags.end());
  }
  options.analyze.archs_explicit = archs_given || !archs_in_flags.empty() || options.analyze.archs_explicit;
  if (!options.analyze.archs_explicit && !config.archs.empty()) {
    options.analyze.archs = config.archs;
    options.analyze.archs_explicit = true;
  }
  options.analyze.extra_flags = config.compiler_flags;
  options.analyze.extra_flags.insert(options.analyze.extra_flags.end(), flags.begin(), flags.end());
  options.analyze.kernel_settings = config.kernels;
  options.config_in_force = config.path;
  return config;
}

std::vector<GrfMode> grfModesFor(const std::string &grf) {
  if (grf == "both") return {GrfMode::Small, GrfMode::Large};
  return {grfModeByName(grf).value_or(GrfMode::Small)};
}

// What every report of the user's sources carries: the config in force, and
// its warnings said on stderr.
static void settle(Report &report, const SourceOptions &options) {
  report.config = options.config_in_force;
  for (const std::string &warning : report.warnings) printWarning(warning);
}

Report analyzeSources(SourceOptions &options) {
  const std::vector<SourceJob> jobs = sourceJobs(options);
  if (!options.shard.empty()) {  // this shard's jobs, each job's part kept for merge
    Report report =
        analyzeShardJobs(jobs, options.shard_global, options.shard_keys, options.analyze, options.shard_report.pieces);
    options.shard_report.compiler_path = report.compiler_path;
    settle(report, options);
    return report;
  }
  if (jobs.empty()) return Report{};  // only headers: nothing to compile
  Report report = analyzeJobs(jobs, options.analyze);
  settle(report, options);
  return report;
}

void addCollectOptions(CLI::App &app, SourceOptions &options) {
  app.add_option("--config", options.config_path,
                 "Config file (default: .regscope.json here or in a parent, up to the repository's top level)");
  app.add_flag("--allow-config-plugins", options.allow_config_plugins,
               "Obey config compiler_flags that make the compiler run chosen code (-fplugin=, -Xclang -load, -B, "
               "--hip-device-lib-path= to a place not yours, ...); refused by default");
  app.add_option("--block-size", options.block_size,
                 "Assume this workgroup/block size for every kernel (default: .regscope.json, a constant at the "
                 "kernel's launches, its launch bounds; AMD 1024, NVIDIA 256)")
      ->check(wholeNumber(1, 1024));
  app.add_option("--dynamic-lds", options.analyze.launch.dynamic_lds,
                 "AMD: extern __shared__ bytes per workgroup given at launch (the compiler cannot see them)")
      ->check(wholeNumber(0));
}

void addCollectFlag(CLI::App &app, SourceOptions &options) {
  app.add_option("--collect", options.collect_dir,
                 "Read the sidecars regscope wrap wrote in this build directory instead of compiling")
      ->excludes(app.get_option("files"))
      ->excludes(app.get_option("-p"));
}

Report collectSources(const std::string &build_dir, SourceOptions &options) {
  if (options.block_size) options.analyze.launch.block_size = options.block_size;
  Report report = collectSidecars(build_dir, options.analyze);
  settle(report, options);
  return report;
}

Report sourcesReport(SourceOptions &options) {
  if (!options.report_files.empty()) {  // --report: the shards' (or a merge's) report, nothing compiled
    Report report = reportFromShardFiles(options.report_files);
    for (const std::string &warning : report.warnings) printWarning(warning);
    return report;
  }
  return options.collect_dir.empty() ? analyzeSources(options) : collectSources(options.collect_dir, options);
}

ExplainedReport explainSources(SourceOptions &options) {
  const std::vector<SourceJob> jobs = sourceJobs(options);
  if (jobs.empty()) return {};
  ExplainedReport explained = explainJobs(jobs, options.analyze);
  settle(explained.report, options);
  return explained;
}

std::vector<SourceJob> sourceJobs(SourceOptions &options) {
  if (options.files.empty() && options.database.empty()) throw Error("no input files (give FILE... or -p BUILD_DIR)");
  // A .cu is HIP when the compiler flags (the command line's, the config's) say
  // so, or regscope is asked for an AMD target (--offload-arch, the flags' own,
  // the config's archs).
  std::vector<std::string> all_flags = options.analyze.extra_flags;
  all_flags.insert(all_flags.end(), options.command_line_flags.begin(), options.command_line_flags.end());
  const bool hip_asked = options.analyze.archs_explicit || flagsSayHip(all_flags);
  std::vector<std::string> sources;
  for (const std::string &file : options.files) {
    if (isHeader(file)) {
      printWarning("skipping header " + file + " (checked through the sources that include it)");
      continue;
    }
    // hipify keeps .cu names: a .cu is HIP when the flags say so, or an AMD target is asked for.
    const std::string ext = fs::path(file).extension().string();
    if (ext == ".cu" && options.analyze.cuda_archs.empty() && !hip_asked)
      throw Error(file +
                  " is a CUDA source: analyse it with nvcc by naming its targets, e.g. --cuda-arch sm_90 "
                  "(if it is HIP, as hipify keeps .cu names, say so: --offload-arch gfx90a, or -- -x hip)");
    sources.push_back(file);
  }
  if (sources.empty() && options.database.empty()) return {};  // only headers: nothing to compile
  options.files = sources;
  options.analyze.cache_dir = options.no_cache ? "" : ResultCache::defaultDirectory();
  if (options.block_size) options.analyze.launch.block_size = options.block_size;
  requireIntelDevice(options.analyze.intel_device);
  options.analyze.intel_grf = grfModesFor(options.grf);
  const bool quiet_env = std::getenv("CI") || std::getenv("PRE_COMMIT") || std::getenv("GITHUB_ACTIONS");
  options.analyze.progress =
      options.progress == "always" || (options.progress == "auto" && isatty(STDERR_FILENO) && !quiet_env);
  std::vector<SourceJob> jobs =
      options.database.empty() ? jobsForFiles(options.files)
                               : jobsFromDatabase(options.database, options.files,
                                                  options.analyze.cuda_archs.empty() ? Vendor::Amd : Vendor::Nvidia);
  return selectShard(std::move(jobs), options, "analyze");  // --shard: this shard's part; else all
}

int reportErrors(const Report &report) {
  // The same error for many files (a device library missing for an arch, a
  // header every file includes) is said once, with the files it hit; each
  // other failing file once, with its path and the compiler's first error.
  struct Group {
    std::string arch, message, first_file;
    std::vector<std::string> files;
  };
  std::vector<Group> groups;
  // Files analysed (for some arch at least): the report's inputs, without a variant's " (entry N)".
  std::set<std::string> analysed;
  for (const std::string &input : report.inputs) analysed.insert(input.substr(0, input.find(" (entry ")));
  std::set<std::string> failed, partly, all = analysed;
  for (const InputError &error : report.errors) {
    (analysed.count(error.file) ? partly : failed).insert(error.file);
    all.insert(error.file);
    std::string key = error.message;  // the message with this file's name taken out
    if (!error.file.empty())
      for (std::size_t at = key.find(error.file); at != std::string::npos; at = key.find(error.file, at))
        key.replace(at, error.file.size(), "\x01");
    auto same = std::find_if(groups.begin(), groups.end(),
                             [&](const Group &g) { return g.arch == error.arch && g.message == key; });
    if (same == groups.end())
      groups.push_back({error.arch, key, error.message, {error.file}});
    else if (std::find(same->files.begin(), same->files.end(), error.file) == same->files.end())
      same->files.push_back(error.file);
  }
  for (const Group &g : groups) {
    const std::string arch = g.arch.empty() ? "" : "[" + g.arch + "] ";
    if (g.files.size() == 1) {
      printError(arch + g.first_file);
      continue;
    }
    std::string text = g.message;  // said once: the file's place holds "each file"
    if (text.rfind("\x01: ", 0) == 0) text = text.substr(3);
    for (std::size_t at = text.find('\x01'); at != std::string::npos; at = text.find('\x01', at))
      text.replace(at, 1, "each file");
    std::string names;
    for (std::size_t i = 0; i < g.files.size() && i < 5; ++i) names += (i ? ", " : "") + g.files[i];
    if (g.files.size() > 5) names += ", ...";
    printError(arch + text + "\n  (the same error for " + std::to_string(g.files.size()) + " files: " + names + ")");
  }
  if (!failed.empty() && all.size() > 1)
    printError(std::to_string(failed.size()) + " of " + std::to_string(all.size()) + " files failed" +
               (failed.size() < all.size() ? "; the others were analysed" : ""));
  if (!partly.empty() && all.size() > 1)
    printError(std::to_string(partly.size()) + " of " + std::to_string(all.size()) +
               " files failed for some of their archs; analysed for the others");
  return report.errors.empty() ? kExitOk : kExitError;
}

std::vector<std::string> inputPaths(const SourceOptions &options) {
  std::vector<std::string> inputs = options.files;
  inputs.insert(inputs.end(), options.report_files.begin(), options.report_files.end());
  if (!options.config_path.empty())
    inputs.push_back(options.config_path);
  else if (const ConfigSearch found = findConfig(fs::current_path().string()); found.path)
    inputs.push_back(*found.path);
  if (!options.database.empty()) {
    // -p names the database, or a directory searched upwards for one.
    std::error_code ec;
    inputs.push_back(options.database);
    for (fs::path dir = fs::absolute(options.database, ec); !dir.empty(); dir = dir.parent_path()) {
      inputs.push_back((dir / "compile_commands.json").string());
      if (dir == dir.root_path()) break;
    }
  }
  return inputs;
}

void refuseOverwritingInputs(const std::vector<std::string> &files, const std::string &output) {
  if (output.empty()) return;
  std::error_code ec;
  for (const std::string &file : files)
    if (fs::equivalent(file, output, ec)) throw Error(output + " is one of the inputs; refusing to overwrite it");
  // Before minutes of compiling, not after: an -o that can never be written.
  const fs::path dir = fs::path(output).has_parent_path() ? fs::path(output).parent_path() : fs::path(".");
  if (fs::is_directory(output, ec)) throw Error("cannot write " + output + ": is a directory");
  if (!fs::is_directory(dir, ec)) throw Error("cannot write " + output + ": no directory " + dir.string());
}

}  // namespace regscope
