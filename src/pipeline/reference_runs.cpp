#include "regscope/pipeline/reference_runs.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "regscope/backend/backend.h"
#include "regscope/cache/cache.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"
#include "regscope/support/symbols.h"

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
    if (compiledPerGrfMode(c.file) == intel) kept.push_back(c);
  if (kept.empty())
    throw Error(intel ? "no OpenCL C form of '" + selector + "' among the reference kernels (see regscope kernels list)"
                      : "'" + selector + "' is OpenCL C: compile it for an Intel device (--intel-device pvc)");
  return kept;
}

// Compiles the selected cases for the targets `options` ask for (with the
// flags their backend compiles the HIP-syntax kernels with), or, for the
// OpenCL C cases, for `intel_device`.
Report analyzeCases(const std::vector<ReferenceCase> &cases, AnalyzeOptions options) {
  const std::string dir = kernelsDirectory();
  std::vector<std::string> files;
  for (const ReferenceCase &c : cases) {
    const std::string file = (fs::path(dir) / c.file).string();
    if (std::find(files.begin(), files.end(), file) == files.end()) files.push_back(file);
  }
  const std::vector<std::string> flags = backendForTargets(requestedTargets(options)).referenceKernelFlags(dir);
  options.extra_flags.insert(options.extra_flags.begin(), flags.begin(), flags.end());
  Report report = analyzeFiles(files, options);
  keepSelected(report, cases, dir);
  return report;
}

}  // namespace

Report analyzeReferenceCases(const std::vector<ReferenceCase> &cases, const std::string &selector, bool intel_device,
                             const AnalyzeOptions &options) {
  return analyzeCases(casesFor(cases, intel_device, selector), options);
}

// The cache directory, or (with neither XDG_CACHE_HOME nor HOME) a private
// temporary one is the caller's `root`: never a predictable shared path a
// planted build tree could sit in.
std::string buildRunner(const Backend &gpu, const std::string &root) {
  const std::string build = root + "/runner-" + gpu.runnerPlatform();  // runner-hip, runner-cuda
  const std::string source = (fs::path(kernelsDirectory()) / "runner").string();
  auto step = [&](std::vector<std::string> argv, const char *what) {
    const ProcessOutput run = runCaptured(argv);
    if (run.exit_code != 0)
      throw Error(std::string("building the runner failed at ") + what + ":\n" + run.out + run.err);
  };
  std::vector<std::string> configure = {"cmake", "-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=Release"};
  const std::vector<std::string> flags = gpu.runnerConfigureFlags();
  configure.insert(configure.end(), flags.begin(), flags.end());
  step(configure, "configure");
  step({"cmake", "--build", build, "-j"}, "build");
  return build + "/regscope-runner";
}

Report joinRunnerFigures(json &run, const std::vector<ReferenceCase> &cases, const std::string &selector,
                         const std::string &cache_dir) {
  // regscope's own figures for the kernels, on this GPU's arch
  // (when the runner names none, as its platform's backend reads it: CUDA's compute capability).
  if (!run.contains("arch"))
    if (std::string arch = backendForRunner(run.value("platform", "")).runnerArch(run); !arch.empty())
      run["arch"] = arch;
  if (!run.contains("arch") || !run["arch"].is_string()) throw Error("the runner did not name its GPU's arch");
  AnalyzeOptions options;
  options.cache_dir = cache_dir;
  const std::string platform = run["platform"].is_string() ? run["platform"].get<std::string>() : "";
  RequestedTargets targets = requestedTargets(options);
  backendForRunner(platform).requestTargets(targets, {run["arch"].get<std::string>()});
  setRequestedTargets(options, targets);
  Report report = analyzeReferenceCases(cases, selector, false, options);
  const std::string dir = kernelsDirectory();
  for (json &c : run["cases"]) {
    auto rc =
        std::find_if(cases.begin(), cases.end(), [&](const ReferenceCase &r) { return c.value("name", "") == r.name; });
    if (rc == cases.end()) continue;  // a case this run did not select: no figures to join
    for (const KernelReport &k : report.kernels)
      if (isCaseKernel(k, *rc, dir)) {
        c["registers"] = k.summary.registers;
        c["spills"] = k.summary.spills;
        c["occupancy"] = std::to_string(k.summary.level) + "/" + std::to_string(k.summary.max_level) + " " +
                         occupancyUnit(k.summary.vendor);
      }
  }
  return report;
}

RunnerRun runReferenceKernels(const std::string &selector, int size, int repeat) {
  const std::vector<ReferenceCase> cases = selectCases(selector);
  RunnerRun result;
  // A prebuilt runner (REGSCOPE_RUNNER) skips detection and the build:
  // the runner itself says whether it found a GPU.
  std::string runner;
  std::optional<TempDir> scratch;  // the build, when there is no cache directory
  if (const char *prebuilt = std::getenv("REGSCOPE_RUNNER"); prebuilt && *prebuilt) {
    runner = requireExecutable(prebuilt, std::string("REGSCOPE_RUNNER=") + prebuilt);
  } else {
    const Backend *gpu = runnerGpuBackend();
    if (!gpu) {
      result.no_gpu = true;
      result.error = "kernels run needs an NVIDIA (/dev/nvidiactl) or AMD (/dev/kfd) GPU\n";
      return result;
    }
    const std::string cache = ResultCache::defaultDirectory();
    if (cache.empty()) scratch.emplace();
    runner = buildRunner(*gpu, cache.empty() ? scratch->path() : cache);
  }
  std::vector<std::string> argv = {runner, "--json", "--repeat", std::to_string(repeat)};
  if (size) argv.insert(argv.end(), {"--size", std::to_string(size)});
  if (!selector.empty()) argv.insert(argv.end(), {"--case", selector});
  const ProcessOutput ran = runCaptured(argv);
  result.exit_code = ran.exit_code;
  result.error = ran.err;
  if (ran.exit_code == 3) {
    result.no_gpu = true;
    return result;
  }
  try {
    result.results = json::parse(ran.out);
  } catch (const json::exception &) {
    throw Error("the runner failed (exit " + std::to_string(ran.exit_code) + ")" +
                (ran.err.empty() ? "" : ": " + ran.err));
  }
  result.report = joinRunnerFigures(result.results, cases, selector, ResultCache::defaultDirectory());
  return result;
}

}  // namespace regscope
