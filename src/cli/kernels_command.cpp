// regscope kernels list | analyze [NAME|FAMILY] | run [NAME|FAMILY]
#include <sys/stat.h>

#include <cstdlib>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>

#include "commands.h"
#include "regscope/backends/intel/ocloc.h"
#include "regscope/cache/cache.h"
#include "regscope/source/reference_kernels.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"
#include "regscope/support/symbols.h"
#include "regscope/target/amdgpu.h"
#include "regscope/target/intel.h"
#include "regscope/views/views.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Whether a reported kernel is the case's kernel (files hold several).
bool isCaseKernel(const KernelReport &k, const ReferenceCase &c, const std::string &dir) {
  return fs::path(k.record.file).lexically_normal() == (fs::path(dir) / c.file).lexically_normal() &&
         functionBaseName(k.record.demangled) == c.kernel;
}

// The report's kernels that belong to the selected cases.
void keepSelected(Report &report, const std::vector<ReferenceCase> &cases, const std::string &dir) {
  std::vector<KernelReport> kept;
  for (KernelReport &k : report.kernels)
    if (std::any_of(cases.begin(), cases.end(), [&](const ReferenceCase &c) { return isCaseKernel(k, c, dir); }))
      kept.push_back(std::move(k));
  report.kernels = std::move(kept);
}

// The cases one vendor compiles: the OpenCL C forms for Intel, the HIP ones
// for AMD and NVIDIA.
std::vector<ReferenceCase> casesFor(const std::vector<ReferenceCase> &cases, bool intel, const std::string &selector) {
  std::vector<ReferenceCase> kept;
  for (const ReferenceCase &c : cases)
    if (isOclocInput(c.file) == intel) kept.push_back(c);
  if (kept.empty())
    throw Error(intel ? "no OpenCL C form of '" + selector + "' among the reference kernels (see regscope kernels list)"
                      : "'" + selector + "' is OpenCL C: compile it for an Intel device (--intel-device pvc)");
  return kept;
}

// Compiles the selected cases for `archs` (AMD) or `cuda_archs` (NVIDIA), or,
// for the OpenCL C cases, for `intel_device`.
Report analyzeCases(const std::vector<ReferenceCase> &cases, AnalyzeOptions options) {
  const std::string dir = kernelsDirectory();
  std::vector<std::string> files;
  for (const ReferenceCase &c : cases) {
    const std::string file = (fs::path(dir) / c.file).string();
    if (std::find(files.begin(), files.end(), file) == files.end()) files.push_back(file);
  }
  if (!options.cuda_archs.empty())  // HIP syntax under nvcc: the portability shim
    options.extra_flags.insert(options.extra_flags.begin(),
                               {"-x", "cu", "-I", (fs::path(dir) / "common" / "cuda_shim").string()});
  Report report = analyzeFiles(files, options);
  keepSelected(report, cases, dir);
  return report;
}

enum class Gpu { None, Nvidia, Amd };

Gpu detectGpu() {
  std::error_code ec;
  if (fs::exists("/dev/nvidiactl", ec) || fs::exists("/dev/nvidia0", ec)) return Gpu::Nvidia;
  if (fs::exists("/dev/kfd", ec)) return Gpu::Amd;
  return Gpu::None;
}

// Configures and builds kernels/runner for `gpu` under `root`: the cache
// directory, or (with neither XDG_CACHE_HOME nor HOME) a private temporary
// one, never a predictable shared path a planted build tree could sit in.
std::string buildRunner(Gpu gpu, const std::string &root) {
  const std::string build = root + (gpu == Gpu::Nvidia ? "/runner-cuda" : "/runner-hip");
  const std::string source = (fs::path(kernelsDirectory()) / "runner").string();
  auto step = [&](std::vector<std::string> argv, const char *what) {
    const ProcessOutput run = runCaptured(argv);
    if (run.exit_code != 0)
      throw Error(std::string("building the runner failed at ") + what + ":\n" + run.out + run.err);
  };
  std::vector<std::string> configure = {"cmake", "-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=Release"};
  if (gpu == Gpu::Nvidia) {
    configure.push_back("-DRUNNER_GPU=cuda");
    configure.push_back("-DCMAKE_CUDA_ARCHITECTURES=native");
    if (std::string nvcc = searchPath("nvcc"); nvcc.empty() && fs::exists("/usr/local/cuda/bin/nvcc"))
      configure.push_back("-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc");
  } else {
    configure.push_back("-DRUNNER_GPU=hip");
  }
  step(configure, "configure");
  step({"cmake", "--build", build, "-j"}, "build");
  return build + "/regscope-runner";
}

Command kernelsList(CLI::App &parent) {
  auto output = std::make_shared<OutputOptions>();
  CLI::App *app = parent.add_subcommand("list", "List the built-in reference kernels");
  addOutputOptions(*app, *output);
  return {app, [output] {
            emit(*output, *referenceCasesView(referenceCases(), kernelsDirectory()));
            return 0;
          }};
}

Command kernelsAnalyze(CLI::App &parent) {
  struct State {
    std::string selector;
    AnalyzeOptions options;
    std::string grf = "small";
    OutputOptions output;
  };
  auto state = std::make_shared<State>();
  state->options.archs = {kDefaultAmdArch};
  CLI::App *app = parent.add_subcommand("analyze", "Compile the reference kernels and report them");
  app->add_option("case", state->selector, "A case or family (default: all)");
  app->add_option("--offload-arch", state->options.archs, "AMD target(s)")->delimiter(',')->capture_default_str();
  app->add_option("--cuda-arch", state->options.cuda_archs, "NVIDIA target(s) instead")->delimiter(',');
  app->add_option("--compiler", state->options.compiler, "Compiler to use");
  CLI::Option *intel = app->add_option("--intel-device", state->options.intel_device,
                                       "Intel device: compile the OpenCL C forms with ocloc instead");
  app->add_option("--grf", state->grf, "Intel: GRF mode: small, large, both, auto")
      ->check(CLI::IsMember({"small", "large", "both", "auto"}))
      ->capture_default_str();
  addOutputOptions(*app, state->output, /*ci_formats=*/true);
  return {app, [state, intel] {
            state->options.cache_dir = ResultCache::defaultDirectory();
            state->options.intel_grf = grfModesFor(state->grf);
            requireIntelDevice(state->options.intel_device);
            const std::vector<ReferenceCase> cases =
                casesFor(selectCases(state->selector), intel->count() > 0, state->selector);
            Report report = analyzeCases(cases, state->options);
            emit(state->output, *kernelTableView(report, "regscope kernels analyze"));
            return reportErrors(report);
          }};
}

Command kernelsRun(CLI::App &parent) {
  struct State {
    std::string selector;
    int size = 0, repeat = 10;
    OutputOptions output;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = parent.add_subcommand("run", "Build the runner, then verify and time the kernels on this GPU");
  app->add_option("case", state->selector, "A case or family (default: all)");
  app->add_option("--size", state->size, "Problem size (Laplacian: cube side; see docs/benchmarks.md)")
      ->check(CLI::PositiveNumber);
  app->add_option("--repeat", state->repeat, "Timed runs per case (median)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  addOutputOptions(*app, state->output);
  return {
      app, [state]() -> int {
        const std::vector<ReferenceCase> cases = selectCases(state->selector);
        // A prebuilt runner (REGSCOPE_RUNNER) skips detection and the build:
        // the runner itself says whether it found a GPU.
        std::string runner;
        std::optional<TempDir> scratch;  // the build, when there is no cache directory
        if (const char *prebuilt = std::getenv("REGSCOPE_RUNNER"); prebuilt && *prebuilt) {
          runner = requireExecutable(prebuilt, std::string("REGSCOPE_RUNNER=") + prebuilt);
        } else {
          const Gpu gpu = detectGpu();
          if (gpu == Gpu::None) {
            std::cerr << "regscope: no GPU found: kernels run needs an NVIDIA (/dev/nvidiactl) or AMD (/dev/kfd) GPU\n";
            return kExitNoGpu;
          }
          const std::string cache = ResultCache::defaultDirectory();
          if (cache.empty()) scratch.emplace();
          runner = buildRunner(gpu, cache.empty() ? scratch->path() : cache);
        }
        std::vector<std::string> argv = {runner, "--json", "--repeat", std::to_string(state->repeat)};
        if (state->size) argv.insert(argv.end(), {"--size", std::to_string(state->size)});
        if (!state->selector.empty()) argv.insert(argv.end(), {"--case", state->selector});
        const ProcessOutput ran = runCaptured(argv);
        const int code = ran.exit_code;
        const std::string &err = ran.err;
        if (code == 3) {
          std::cerr << "regscope: no GPU found: " << err;
          return kExitNoGpu;
        }
        json run;
        try {
          run = json::parse(ran.out);
        } catch (const json::exception &) {
          throw Error("the runner failed (exit " + std::to_string(code) + ")" + (err.empty() ? "" : ": " + err));
        }
        // regscope's own figures for the kernels, on this GPU's arch
        // (CUDA: from the compute capability when the runner names none).
        if (!run.contains("arch") && run.value("platform", "") == "cuda") {
          std::string cc = run.value("compute_capability", "");
          cc.erase(std::remove(cc.begin(), cc.end(), '.'), cc.end());
          run["arch"] = "sm_" + cc;
        }
        if (!run.contains("arch") || !run["arch"].is_string()) throw Error("the runner did not name its GPU's arch");
        AnalyzeOptions options;
        options.cache_dir = ResultCache::defaultDirectory();
        if (run["platform"] == "cuda")
          options.cuda_archs = {run["arch"].get<std::string>()};
        else
          options.archs = {run["arch"].get<std::string>()};
        Report report = analyzeCases(casesFor(cases, false, state->selector), options);
        const std::string dir = kernelsDirectory();
        for (json &c : run["cases"]) {
          auto rc = std::find_if(cases.begin(), cases.end(),
                                 [&](const ReferenceCase &r) { return c.value("name", "") == r.name; });
          if (rc == cases.end()) continue;  // a case this run did not select: no figures to join
          for (const KernelReport &k : report.kernels)
            if (isCaseKernel(k, *rc, dir)) {
              c["registers"] = k.summary.registers;
              c["spills"] = k.summary.spills;
              c["occupancy"] = std::to_string(k.summary.level) + "/" + std::to_string(k.summary.max_level) + " " +
                               occupancyUnit(k.summary.vendor);
            }
        }
        emit(state->output, *runnerView(run, &report));
        if (code != 0) {
          std::cerr << "regscope: " << err;
          return kExitFindings;
        }
        return kExitOk;
      }};
}

}  // namespace

Command addKernelsCommand(CLI::App &root) {
  CLI::App *app = root.add_subcommand("kernels", "The built-in reference kernels: list, analyze, run");
  app->require_subcommand(1);
  auto subcommands = std::make_shared<std::vector<Command>>(
      std::vector<Command>{kernelsList(*app), kernelsAnalyze(*app), kernelsRun(*app)});
  return {app, [subcommands] {
            for (const Command &c : *subcommands)
              if (c.app->parsed()) return c.run();
            return static_cast<int>(kExitError);
          }};
}

}  // namespace regscope
