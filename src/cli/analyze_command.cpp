// regscope analyze FILE... [--offload-arch A[,B]] [-- compiler flags]
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <iostream>

#include "commands.h"
#include "regscope/cache/cache.h"
#include "regscope/support/error.h"
#include "regscope/target/amdgpu.h"
#include "regscope/target/intel.h"
#include "regscope/views/views.h"

namespace regscope {

void addSourceOptions(CLI::App &app, SourceOptions &options, const std::vector<std::string> &compiler_flags) {
  options.analyze.archs = {kDefaultAmdArch};
  options.analyze.extra_flags = compiler_flags;
  app.add_option("files", options.files,
                 "HIP or CUDA sources, OpenCL C (.cl) or SPIR-V (.spv) for Intel (with -p: restrict the run to these)");
  app.add_option("-p,--project", options.database,
                 "compile_commands.json, or a build directory searched upwards for one (as clang-tidy -p)");
  options.analyze.parallel = std::max(1u, std::thread::hardware_concurrency());
  app.add_option("-j,--jobs", options.analyze.parallel, "Compiler runs at once (default: cores)")
      ->check(CLI::PositiveNumber);
  app.add_option("--progress", options.progress,
                 "Progress line on stderr: auto (a terminal, not under CI or pre-commit), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_flag("--no-cache", options.no_cache, "Always run the compiler; neither read nor write the result cache");
  options.archs_option = app.add_option("--offload-arch", options.analyze.archs,
                                        "Target(s), comma-separated or repeated")
                             ->delimiter(',')
                             ->capture_default_str();
  app.add_option("--compiler", options.analyze.compiler,
                 "Compiler to use (default: $HIPCC, then hipcc; with --cuda-arch: nvcc on PATH, $CUDA_PATH/bin, /usr/local/cuda/bin)");
  app.add_option("--cuda-arch", options.analyze.cuda_archs,
                 "Compile with nvcc for these NVIDIA targets (sm_75, sm_80, sm_86, sm_89, sm_90) instead")
      ->delimiter(',');
  app.add_option("--block-size", options.block_size,
                 "Assume this workgroup/block size (default: the kernel's launch bounds; AMD 1024, NVIDIA 256)")
      ->check(CLI::Range(1, 1024));
  app.add_option("--dynamic-smem", options.analyze.launch.dynamic_shared,
                 "NVIDIA: dynamic shared memory per block given at launch, in bytes")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--dynamic-lds", options.analyze.launch.dynamic_lds,
                 "AMD: extern __shared__ bytes per workgroup given at launch (the compiler cannot see them)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--carveout", options.analyze.launch.carveout_percent,
                 "NVIDIA: preferred shared-memory carveout, percent (default: the largest)")
      ->check(CLI::Range(0, 100));
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
      ->check(CLI::NonNegativeNumber);
  app.footer("Flags after -- go to the compiler unchanged, e.g. -- -DN=64 -I include");
}

// Headers are analysed through the sources that include them; pre-commit
// passes them too (the hook's pattern includes .cuh), so skip, do not fail.
bool isHeader(const std::string &file) {
  static const char *const kHeaderExtensions[] = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl"};
  const std::string ext = std::filesystem::path(file).extension().string();
  for (const char *header : kHeaderExtensions)
    if (ext == header) return true;
  return false;
}

std::vector<GrfMode> grfModesFor(const std::string &grf) {
  if (grf == "both") return {GrfMode::Small, GrfMode::Large};
  return {grfModeByName(grf).value_or(GrfMode::Small)};
}

Report analyzeSources(SourceOptions &options) {
  if (options.files.empty() && options.database.empty()) throw Error("no input files (give FILE... or -p BUILD_DIR)");
  std::vector<std::string> sources;
  for (const std::string &file : options.files) {
    if (isHeader(file)) std::cerr << "regscope: warning: skipping header " << file << " (checked through the sources that include it)\n";
    else sources.push_back(file);
  }
  if (sources.empty() && options.database.empty()) return Report{};  // only headers: nothing to compile
  options.files = sources;
  options.analyze.archs_explicit = options.archsGiven() || options.analyze.archs_explicit;
  options.analyze.cache_dir = options.no_cache ? "" : ResultCache::defaultDirectory();
  if (options.block_size) options.analyze.launch.block_size = options.block_size;
  requireIntelDevice(options.analyze.intel_device);
  options.analyze.intel_grf = grfModesFor(options.grf);
  const bool quiet_env = std::getenv("CI") || std::getenv("PRE_COMMIT") || std::getenv("GITHUB_ACTIONS");
  options.analyze.progress = options.progress == "always" ||
                             (options.progress == "auto" && isatty(STDERR_FILENO) && !quiet_env);
  std::vector<SourceJob> jobs = options.database.empty() ? jobsForFiles(options.files)
                                                         : jobsFromDatabase(options.database, options.files);
  Report report = analyzeJobs(jobs, options.analyze);
  for (const std::string &warning : report.warnings) std::cerr << "regscope: warning: " << warning << '\n';
  return report;
}

int reportErrors(const Report &report) {
  for (const std::string &error : report.errors) std::cerr << "regscope: error: " << error << '\n';
  return report.errors.empty() ? kExitOk : kExitError;
}

void refuseOverwritingInputs(const std::vector<std::string> &files, const std::string &output) {
  std::error_code ec;
  for (const std::string &file : files)
    if (!output.empty() && std::filesystem::equivalent(file, output, ec))
      throw Error(output + " is one of the inputs; refusing to overwrite it");
}

Command addAnalyzeCommand(CLI::App &root, const std::vector<std::string> &compiler_flags) {
  struct State {
    SourceOptions sources;
    OutputOptions output;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand(
      "analyze", "Compile HIP sources and report each kernel's registers, LDS and occupancy");
  addSourceOptions(*app, state->sources, compiler_flags);
  addOutputOptions(*app, state->output, /*ci_formats=*/true);

  return {app, [state] {
            refuseOverwritingInputs(state->sources.files, state->output.path);
            Report report = analyzeSources(state->sources);
            emit(state->output, *kernelTableView(report, "regscope analyze"));
            return reportErrors(report);
          }};
}

}  // namespace regscope
