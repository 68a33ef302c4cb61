// The built-in reference kernels (source/reference_kernels.h) through the
// pipeline: `kernels analyze` compiles the selected cases for a vendor, and
// `kernels run` builds the runner, runs it, and joins regscope's own figures
// to what it measured.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "regscope/pipeline/analyze.h"
#include "regscope/source/reference_kernels.h"

namespace regscope {

// The selected cases one vendor compiles (the OpenCL C forms for an Intel
// device, the HIP ones for AMD and NVIDIA), compiled for `options`' targets;
// the report keeps only the cases' kernels. Throws regscope::Error when no
// selected case has a form for that vendor.
Report analyzeReferenceCases(const std::vector<ReferenceCase> &cases, const std::string &selector, bool intel_device,
                             const AnalyzeOptions &options);

// Configures and builds kernels/runner for the GPU of `gpu` (the registry's
// runnerGpuBackend: this machine's) under `root`; its path.
// Throws regscope::Error with the build's output when a step fails.
std::string buildRunner(const Backend &gpu, const std::string &root);

// The runner's JSON (`run`) with regscope's figures for each measured case
// joined in ("registers", "spills", "occupancy"), the cases analysed for the
// runner's GPU (its "arch", or, for CUDA, its compute capability). Returns
// the report of that analysis. Throws regscope::Error when the runner names no arch.
Report joinRunnerFigures(nlohmann::json &run, const std::vector<ReferenceCase> &cases, const std::string &selector,
                         const std::string &cache_dir);

// `kernels run`: the runner (REGSCOPE_RUNNER, else built for this machine's
// GPU under the cache directory or a private temporary one), run on the
// selected cases, with regscope's own figures joined to its results.
struct RunnerRun {
  bool no_gpu = false;  // no GPU here, or the runner found none: `error` says so
  int exit_code = 0;    // the runner's; not 0: a case failed its check (`error`: its stderr)
  nlohmann::json results;
  std::string error;
  Report report;  // regscope's analysis of the cases on the runner's arch
};
// Throws regscope::Error when the runner cannot be built or says nothing readable.
RunnerRun runReferenceKernels(const std::string &selector, int size, int repeat);

}  // namespace regscope
