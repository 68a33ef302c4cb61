// The gate stage: rules and baselines over a Report -> verdicts. It reads the
// report only; the CLI turns verdicts into lines and an exit code.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "regscope/gate/rules.h"
#include "regscope/report/report.h"
#include "regscope/source/config.h"

namespace regscope {

// The thresholds for one kernel: defaults, then matching overrides in order.
Thresholds thresholdsFor(const Config &config, const KernelRecord &record);

// The per-kernel figures a baseline keeps: the vendor-neutral summary
// (report.h). For AMD: waves/SIMD, VGPRs, spilled registers, scratch bytes;
// for NVIDIA: warps/SM, registers, spill-store bytes, stack bytes.
//
// Paths are keys relative to the baseline's root (baselineRoot), so a gate
// run from a sub-directory, or with absolute paths, finds the same entries.
// An entry belongs to the translation unit that was compiled (`source`), so
// a run over some files replaces only those files' entries.
struct BaselineEntry {
  std::string file;    // where the kernel is declared
  std::string source;  // the translation unit compiled; the file itself for older baselines
  std::string name, demangled, arch;
  int occupancy = 0;               // summary.level
  int occupancy_by_registers = 0;  // summary.level_by_registers
  int registers = 0;
  int spills = 0;
  // False when the kernel's spill count was not read (a cubin records none): written as null and
  // compared as unknown, never as 0 (its local memory, scratch_bytes, is compared instead).
  bool spills_known = true;
  int scratch_bytes = 0;
  // Spill stores and reloads inside loops (1.4); unset when not read (a code
  // object, a cubin) or not recorded (a baseline written before 1.4).
  std::optional<int> loop_spills;
  // The files below the root that the source's compile read (its headers;
  // keys as `file`): `gate HEADER` gates the sources that include HEADER.
  // False for baselines written before 1.2, which did not record them.
  bool dependencies_recorded = false;
  std::vector<std::string> dependencies;
  // A Triton entry of a baseline written before 1.4, whose keys told entries
  // alike but for a constexpr apart by their cache hash (now by their IR).
  bool triton_key_before_1_4 = false;
  // The occupancy of an entry written before 1.5 (or carried over from one): gfx9 SGPRs counted by
  // LLVM's step table. Compared with the kernel's level under that rule.
  bool sgprs_by_table = false;
};
using Baseline = std::vector<BaselineEntry>;  // sorted by (source, file, name, arch)

// The repository's top level above the baseline file (its first ancestor
// with .git), else the file's own directory.
std::string baselineRoot(const std::string &baseline_path);
// `path` as a key under `root`: relative when inside it, else absolute; as
// given when `root` is empty.
std::string baselineKey(const std::string &path, const std::string &root);

BaselineEntry baselineEntry(const KernelReport &kernel, const std::string &root);
// The report's dependencies of `source` (an input path) as baseline keys:
// below the root only (system headers are not the repository's), sorted, the source itself left out.
std::vector<std::string> baselineDependencies(const Report &report, const std::string &source, const std::string &root);
// The baseline sources (keys) whose recorded dependencies include `header`
// (a path); nullopt when the baseline recorded no dependencies at all.
std::optional<std::vector<std::string>> sourcesIncluding(const Baseline &baseline, const std::string &header,
                                                         const std::string &root);
Baseline baselineFromReport(const Report &report, const std::string &root);
// `old` with the entries of the report's translation units replaced by the
// report's figures; every other entry is kept as it was.
// The baseline `report` gives over `old` (other files' entries kept). A kernel the
// gate cannot judge is not written: it keeps its old entry, if it had one, rather
// than a figure never read.
Baseline updatedBaseline(const Baseline &old, const Report &report, const std::string &root);
std::string baselineToText(const Baseline &baseline);  // stable, sorted, diff-friendly JSON
// Throws regscope::Error for a malformed file, an unknown major version, or
// two entries for one (source, kernel, arch) key (naming it).
Baseline baselineFromText(const std::string &text, const std::string &path);
// A read-modify-write of the baseline file at `path` under a FileLock
// ("<path>.lock", held from the read to the atomic rename): `update` gets the
// file's entries as they are now (none when it does not exist yet) and its
// result replaces the file. Concurrent updates of one file (parallel CI jobs
// each gating their own sources) therefore keep every job's entries. Returns
// what was written; throws regscope::Error (InterruptedError while waiting).
Baseline updateBaselineFile(const std::string &path, const std::function<Baseline(const Baseline &)> &update);

struct GateResult {
  std::vector<Verdict> failures;
  std::vector<Verdict> improvements;
  std::vector<Verdict> added;      // kernels not in the baseline
  std::vector<Verdict> removed;    // baseline kernels no longer found
  std::vector<Verdict> unchecked;  // kernels whose figures are unresolved until link
  std::vector<Verdict> ignored;    // kernels the config's ignore list exempts, with its reason
  std::vector<Verdict> unjudged;   // kernels with a figure unknown or impossible (Rule::CannotJudge)
  int kernels_checked = 0;
  bool exit_zero = false;        // --exit-zero: failures are reported but exit 0 (the summary says so)
  bool allow_unknown = false;    // --allow-unknown: `unjudged` are listed, not an error
  bool update_baseline = false;  // --update-baseline: regressions are accepted into the baseline
  // Why the run as a whole cannot be judged (exit 2): a known artifact not
  // read, or inputs that held kernels of which none was judged. Empty: it can.
  std::string run_not_judged;
  // Triton kernels that match no baseline key although the baseline holds
  // their kernel and arch under another key (a baseline of an older
  // regscope's keys; entries whose IR was cleaned away): never counted as
  // added and passed, but one line, exit 2. Empty: none.
  std::string baseline_keys_unmatched;
  // Kernels whose occupancy was compared under a baseline's older rule (an entry written before
  // 1.5): one line, which does not change the outcome. Empty: none.
  std::string baseline_older_rule;
};

// How a gate run ends. The last line's word and the exit code are both read
// from it (gateExitCode), so they cannot disagree.
enum class GateOutcome {
  Pass,         // exit 0
  Fail,         // exit 1
  FailExempt,   // failures, exit 0 under --exit-zero (the line says so)
  Accepted,     // failures taken into the baseline by --update-baseline, exit 0
  CannotJudge,  // a kernel or the run could not be judged, exit 2
  Error,        // a file could not be analysed, exit 2
};
GateOutcome gateOutcome(const Report &report, const GateResult &result);
int gateExitCode(GateOutcome outcome);

// "judged none of the 166 kernels its inputs held (166 of gfx803, which has
// no occupancy table)" when the inputs held kernels and none was judged;
// empty otherwise (a run over host-only files holds none).
std::string judgedNone(const Report &report, const GateResult &result);

// "cannot judge kernel K in F: vgprs unknown" when a kernel's figures are
// not all read, or one cannot be on its target; empty when it can be judged.
// Unknown spill counts alone (a cubin records none) leave the kernel judged:
// each rule refuses on what it reads (spillsUnjudged), the others judge.
std::string cannotJudge(const KernelReport &kernel);
// Whether the kernel's spill count was read (no spill field among its unknowns).
bool spillsRead(const KernelReport &kernel);
// Why --max-spills cannot judge this kernel (its spill count is unknown and no
// local memory figure stands for it); empty when it can.
std::string spillsUnjudged(const KernelReport &kernel);
// Whether the kernel can never be resident at its launch (Limiter::Invalid):
// rule cannot-launch, never compared with or written to a baseline.
bool cannotLaunch(const KernelReport &kernel);
// `report` without the kernels the gate cannot judge or that cannot launch.
Report judgedReport(const Report &report);

// The config's ignore entry that names this kernel, if any.
const IgnoreEntry *ignoredBy(const Config &config, const KernelRecord &record);
// Judges every kernel but those the config ignores (listed in `ignored`).
GateResult checkThresholds(const Report &report, const Config &config);
// Adds regressions (failures), improvements, added and removed kernels. A
// kernel is removed when it vanished from a translation unit the report analysed.
void compareWithBaseline(const Report &report, const Baseline &baseline, const std::string &root, GateResult &result);

}  // namespace regscope
