// The gate stage: rules and baselines over a Report -> verdicts. It reads the
// report only; the CLI turns verdicts into lines and an exit code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "regscope/report.h"

namespace regscope {

// Thresholds; unset ones are not checked.
struct Thresholds {
  std::optional<int> min_occupancy;  // waves per SIMD
  std::optional<int> max_spills;     // VGPR + SGPR spills
  std::optional<int> max_scratch;    // bytes per lane
};

// A kernel-specific override: `match` is a glob tried against the mangled
// name, the demangled signature and the bare function name.
struct KernelRule {
  std::string match;
  Thresholds thresholds;
};

// .regscope.json
struct GateConfig {
  Thresholds defaults;
  std::vector<KernelRule> kernels;    // later entries win
  std::vector<std::string> archs;     // empty: the command line's / default
  std::vector<std::string> compiler_flags;
  std::string path;                   // where it was read from; empty if none
};

// Reads a config file. Throws regscope::Error naming the file and the problem
// (unknown keys included).
GateConfig loadConfig(const std::string &path);

// The config that applies in `dir`: .regscope.json there or in a parent.
std::optional<std::string> findConfig(const std::string &dir);

// The thresholds for one kernel: defaults, then matching overrides in order.
Thresholds thresholdsFor(const GateConfig &config, const KernelRecord &record);

struct Verdict {
  std::string file;
  int line = 0;
  std::string kernel;     // demangled
  std::string arch;
  std::string rule;       // "min-occupancy", "occupancy-regression", ... (see findings.h)
  std::string message;    // the figures
  std::string level = "error";  // error | warning | note, as SARIF and CI annotations use them
};

// The per-kernel figures a baseline keeps.
struct BaselineEntry {
  std::string file, name, demangled, arch;
  int vgprs = 0, agprs = 0, vgprs_total = 0, sgprs = 0;
  int scratch_bytes = 0, vgpr_spills = 0, sgpr_spills = 0, lds_bytes = 0;
  int waves_per_simd = 0;
  int waves_by_vgpr = 0;
};
using Baseline = std::vector<BaselineEntry>;  // sorted by (file, name, arch)

BaselineEntry baselineEntry(const KernelReport &kernel);
Baseline baselineFromReport(const Report &report);
std::string baselineToText(const Baseline &baseline);  // stable, sorted, diff-friendly JSON
// Throws regscope::Error for a malformed file or an unknown major version.
Baseline baselineFromText(const std::string &text, const std::string &path);

struct GateResult {
  std::vector<Verdict> failures;
  std::vector<Verdict> improvements;
  std::vector<Verdict> added;    // kernels not in the baseline
  std::vector<Verdict> removed;  // baseline kernels no longer found
  int kernels_checked = 0;
};

GateResult checkThresholds(const Report &report, const GateConfig &config);
// Adds regressions (failures), improvements, added and removed kernels.
void compareWithBaseline(const Report &report, const Baseline &baseline, GateResult &result);

}  // namespace regscope
