// The analyze pipeline, wired: source -> cache | driver -> collect -> model -> report.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "regscope/driver/driver.h"
#include "regscope/report/report.h"
#include "regscope/source/config.h"
#include "regscope/source/source.h"
#include "regscope/target/intel.h"

namespace regscope {

struct AnalyzeOptions {
  std::string compiler;                         // empty: $HIPCC, then hipcc on PATH
  std::vector<std::string> archs;               // validated against the arch tables
  bool archs_explicit = false;                  // archs beat a database entry's own
  std::vector<std::string> extra_flags;         // appended to every job's flags
  unsigned parallel = 1;                        // compiler runs at once
  bool progress = false;                        // a progress line on stderr
  std::string cache_dir;                        // result cache; empty: none (see cache.h)
  std::vector<std::string> cuda_archs;          // non-empty: compile with nvcc for these instead
  LaunchOverrides launch;                       // --block-size, --dynamic-smem
  std::vector<KernelSettings> kernel_settings;  // .regscope.json's kernels: block_size, dynamic_lds
  int timeout_seconds = 0;                      // per compiler run; 0: none
  bool verbose = false;                         // each job's compile time or cache hit on stderr
  // .cl and .spv jobs go to ocloc for this device, once per GRF mode (--grf
  // both: small and large, in parallel). With only such jobs, `compiler` is ocloc.
  std::string intel_device = kDefaultIntelDevice;
  std::vector<GrfMode> intel_grf = {GrfMode::Small};
  // explain and analyze --lines: keep each compile's .s (AMD) or cubin
  // (NVIDIA) for the isa stage, compiled with line tables (-gline-tables-only
  // for clang, -lineinfo for nvcc; they change no figure: docs/explain.md).
  // The cache is not read then (it keeps no assembly); what it stores is the same.
  bool keep_assembly = false;
  // Record each source's dependencies (the compiler's -MD list, or the
  // cache's) in Report::dependencies: gate and baseline gate a header through them.
  bool dependencies = false;
};

// The targets `options` ask for (with a compile database entry's own
// --offload-arch values): what each backend takes its targets from.
inline RequestedTargets requestedTargets(const AnalyzeOptions &options,
                                         const std::vector<std::string> &source_archs = {}) {
  return {options.archs, options.archs_explicit, source_archs, options.cuda_archs};
}
// The lists of `targets` (a backend's requestTargets set them) as the options'.
inline void setRequestedTargets(AnalyzeOptions &options, const RequestedTargets &targets) {
  options.archs = targets.archs;
  options.cuda_archs = targets.cuda_archs;
}

// Analyses each job with one compiler run. A job that fails (a compile
// error, an arch the device libraries lack) is recorded in Report::errors and
// the others go on. Bad input (a missing file, an unknown arch, no compiler)
// throws regscope::Error.
Report analyzeJobs(const std::vector<SourceJob> &jobs, const AnalyzeOptions &options);
inline Report analyzeFiles(const std::vector<std::string> &files, const AnalyzeOptions &options) {
  return analyzeJobs(jobsForFiles(files), options);
}

// As analyzeJobs, on the same pool, but each job into a report of its own
// (advise: the same file with each candidate's edited text). A job's compile
// error is in its report's `errors`.
std::vector<Report> analyzeEach(const std::vector<SourceJob> &jobs, const AnalyzeOptions &options);

// The compiler run analyzeJobs makes for `source` (hipcc/clang or nvcc): the
// resolved compiler, archs, the job's flags then the options', the timeout.
// Throws regscope::Error when no compiler is found.
CompileJob compileJobFor(const SourceJob &source, const AnalyzeOptions &options);

// Artifacts of a build that already ran, no compiler: device assembly (.s),
// build logs with -Rpass-analysis=kernel-resource-usage remarks, and code
// objects (device ELF, offload bundles, host objects or executables). Logs
// do not say which arch a remark is for: `log_arch` names it (required for
// logs). Throws regscope::Error for unreadable input, a log without remarks,
// a code object without AMDGPU kernels, or an arch regscope has no table for.
Report parseArtifacts(const std::vector<std::string> &files, const std::string &log_arch,
                      const LaunchOverrides &launch = {});

// What one artifact holds, read from its bytes alone (sniffed as a code
// object, .s, optimisation record or build log): the facts, merged into
// records, and the compiler that wrote it where it says. `name` is the file's
// name (an optimisation record's names its arch), and every error names it.
// No file I/O: parseArtifacts reads the file, the fuzz targets pass bytes.
struct Artifact {
  std::vector<KernelRecord> records;
  std::string producer;
  std::vector<std::string> warnings;  // the sources' (remarks that belong to no kernel)
};
Artifact collectArtifact(std::string_view bytes, const std::string &name, const std::string &log_arch);

}  // namespace regscope
