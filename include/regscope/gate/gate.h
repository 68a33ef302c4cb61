// The gate stage: rules and baselines over a Report -> verdicts. It reads the
// report only; the CLI turns verdicts into lines and an exit code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "regscope/gate/rules.h"
#include "regscope/report/report.h"

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
// The same from a config's text; `path` names it in errors.
GateConfig configFromText(const std::string &text, const std::string &path);

// The config that applies in `dir`: .regscope.json there or in a parent.
std::optional<std::string> findConfig(const std::string &dir);

// The thresholds for one kernel: defaults, then matching overrides in order.
Thresholds thresholdsFor(const GateConfig &config, const KernelRecord &record);

// The per-kernel figures a baseline keeps: the vendor-neutral summary
// (report.h). For AMD: waves/SIMD, VGPRs, spilled registers, scratch bytes;
// for NVIDIA: warps/SM, registers, spill-store bytes, stack bytes.
struct BaselineEntry {
  std::string file, name, demangled, arch;
  int occupancy = 0;               // summary.level
  int occupancy_by_registers = 0;  // summary.level_by_registers
  int registers = 0;
  int spills = 0;
  int scratch_bytes = 0;
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
  std::vector<Verdict> unchecked;  // kernels whose figures are unresolved until link
  int kernels_checked = 0;
};

GateResult checkThresholds(const Report &report, const GateConfig &config);
// Adds regressions (failures), improvements, added and removed kernels.
void compareWithBaseline(const Report &report, const Baseline &baseline, GateResult &result);

}  // namespace regscope
