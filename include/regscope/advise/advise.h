// The advise stage: candidate edits found in the user's source with Clang's
// own AST (the front end the compiler ran, with the compiler's flags), each
// tried on a private copy and measured by the analysis pipeline (result
// cache, config, launch sizes and all), and the ones that help combined
// greedily. Nothing here writes to the user's files.
#pragma once

#include <clang/Tooling/Core/Replacement.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "regscope/backend/measured_figures.h"
#include "regscope/model/limiter.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/report/report.h"
#include "regscope/source/source.h"

namespace regscope {

// Every rule names the seed it comes from (docs/advise.md).
enum class AdviseRule {
  PowToMultiply,  // seed 000: pow(x, 2.0) -> x * x
  Restrict,       // seed 000: __restrict__ on one pointer parameter of a kernel
  RestrictAll,    // seed 000: __restrict__ on every pointer parameter of a kernel
  PowerOfTwo,     // seed 001: % and / by powers of two, fmod/floor as integer arithmetic -> masks, shifts
  LaunchBounds,   // seed 004: __launch_bounds__(block size[, waves])
  WavesPerEu,     // seed 000/004 on AMD: __attribute__((amdgpu_waves_per_eu(N)))
  Unroll,         // seed 002 (and 000's item 6): a smaller unroll factor
  ScratchArray,   // seed 000's item 3: a local array indexed at run time (hint only)
};
inline constexpr int kAdviseRuleCount = 8;

const char *adviseRuleId(AdviseRule rule);    // "pow-to-multiply", "restrict", ...
const char *adviseRuleSeed(AdviseRule rule);  // "000", "001", ...

// A kernel (or a __device__ function an edit lands in) as the front end saw it.
struct KernelRef {
  std::string name;     // as declared, qualified: "ns::scale"
  std::string mangled;  // the device symbol the compiler emits
  std::string demangled;
  std::string file;  // where it is declared
  int line = 0;
  int column = 0;
  unsigned offset = 0;    // of the name in the file, to follow it through edits
  bool is_kernel = true;  // false: a __device__ function; its edits reach every caller
};

// One candidate edit (or, for a hint, a finding without an edit).
struct Candidate {
  std::string id;  // unique in one run: "<rule>@<line>:<column>[:<what>]"
  AdviseRule rule = AdviseRule::PowToMultiply;
  KernelRef kernel;
  std::string file;
  int line = 0;
  int column = 0;
  std::string description;  // one line
  // What the edit takes for granted that advise cannot prove from the source
  // (no aliasing for __restrict__, a power-of-two run-time divisor). Empty when
  // the edit is proved to keep the program's meaning.
  std::string assumption;
  bool hint_only = false;             // no edit: the user has to decide (description says why)
  clang::tooling::Replacements edit;  // empty for hints
  std::string edited_source;          // the whole file with the edit applied; empty for hints
  std::int64_t array_bytes = 0;       // scratch-array: bytes per lane the array takes
};

// What to look at, and how the analysis compiles and models it.
struct AdviseInput {
  SourceJob job;           // the file (jobsForFiles, or a compile database's entry)
  AnalyzeOptions options;  // archs (AMD), flags, compiler, cache, timeout, launch sizes, `parallel` compiles at once
  std::vector<std::string> kernels;  // only these kernels (name, demangled or mangled); empty: all
  // Waves per SIMD to ask for, per kernel (mangled name): the model's next
  // occupancy step. Gives the waves-per-eu candidate and launch bounds' second
  // argument; advise() fills it from the baseline measurement.
  std::map<std::string, int> next_waves;
};

struct CandidateSet {
  std::string path;                        // the file the edits apply to (absolute)
  std::string source_text;                 // its bytes as parsed
  std::string frontend_version;            // "Debian clang version 15.0.6", from the compiler's -###
  std::string frontend_arch;               // whose device AST was read (the first arch)
  std::vector<std::string> frontend_args;  // the cc1 arguments the AST was built with
  std::vector<KernelRef> kernels;          // every kernel defined in the file
  std::vector<Candidate> candidates;       // in source order
  std::vector<std::string> warnings;
};

// Parses `input.job` as the compiler's device front end does (the cc1 job of
// the analysis's own compile, made -###, for the first arch, then
// -fsyntax-only) and runs every rule. Throws regscope::Error with the front
// end's first errors when the file does not parse, and, when input.kernels
// names no kernel of the file, with the list of its kernels.
CandidateSet findCandidates(const AdviseInput &input);

// ---- edits ----

// The text with the replacements applied (clang's Rewriter underneath).
// Throws regscope::Error when they do not apply.
std::string applyEdit(const std::string &text, const clang::tooling::Replacements &edit);

// A unified diff (`diff -u` form, paths a/<label> and b/<label>, 3 lines of
// context) that `git apply` / `patch -p1` accept. Empty when equal.
std::string unifiedDiff(const std::string &label, const std::string &before, const std::string &after);

// Several candidates' edits as one. A replacement already present (the same
// __restrict__ from a single and from the all-pointers candidate) is taken
// once; a candidate whose edit overlaps one taken before is not applied and
// is listed in `conflicts` with the candidate it collides with.
struct CombinedEdit {
  clang::tooling::Replacements edit;
  std::string edited_source;
  std::vector<std::string> applied;                            // candidate ids, in order
  std::vector<std::pair<std::string, std::string>> conflicts;  // (refused id, id it collides with)
};
CombinedEdit combineEdits(const std::string &original, const std::vector<const Candidate *> &candidates);

// ---- measuring ----

struct Measurement {
  bool ok = false;
  std::string error;  // the compiler's first errors when !ok
  std::vector<KernelFigures> kernels;
};

// The figures of every AMD kernel in an analysis report.
std::vector<KernelFigures> figuresFromReport(const Report &report);

// Each text compiled in place of input.job's file (the pipeline's edited-text
// jobs: under the file's own name, through the result cache) and measured,
// `input.options.parallel` at once.
std::vector<Measurement> measureTexts(const AdviseInput &input, const std::vector<std::string> &texts);

// ---- the trial loop ----

enum class TrialVerdict {
  Helps,         // better on some kernel/arch, worse on none
  NoGain,        // the same figures
  Worse,         // worse on some, better on none
  Mixed,         // better on some, worse on others: reported, not combined
  CompileError,  // the edit does not compile; never applied
  NotTried,      // a hint: nothing to compile
};
const char *trialVerdictName(TrialVerdict verdict);

// One kernel on one arch, before and after an edit: Helps, NoGain, Worse or
// Mixed. Waves per SIMD, spills and scratch are judged each on its own (a gain
// in one and a loss in another is Mixed); VGPRs decide only when none of them
// moved; SGPRs alone never do.
TrialVerdict judgeFigures(const KernelFigures &before, const KernelFigures &after);

// Figures compared: occupancy first, then spills, scratch, VGPRs (the total
// occupancy counts), SGPRs. Positive fields are improvements.
struct Gain {
  int waves = 0;
  int loop_spills = 0;  // spill accesses inside loops removed (read on both sides)
  int spills = 0;
  int scratch_bytes = 0;
  int vgprs = 0;
  int sgprs = 0;
};

struct Trial {
  std::string candidate_id;
  TrialVerdict verdict = TrialVerdict::NotTried;
  Measurement measured;  // empty for hints
  // For each baseline kernel, its index in measured.kernels (-1: missing).
  std::vector<int> matched;
  Gain gain;         // summed over every kernel and arch
  std::string diff;  // unified diff of the candidate's edit
  std::string note;  // the changed figures in words, or the compiler's first errors
};

struct CombinationStep {
  std::string candidate_id;
  bool kept = false;
  bool compiled = false;  // false: measured alone already, or refused before compiling
  std::string reason;     // why it was not kept
  Measurement measured;
  std::vector<int> matched;  // as Trial::matched
};

struct AdviseResult {
  std::string display_path;  // the file as the user named it (diff labels)
  std::string compiler_path, compiler_version;
  std::vector<std::string> archs;
  CandidateSet found;
  Measurement baseline;
  std::vector<Trial> trials;           // one per candidate, in the same order
  std::vector<CombinationStep> steps;  // the greedy combination, in order of gain
  CombinedEdit combined;               // the kept edits
  Measurement combined_measured;       // their figures (the baseline when none was kept)
  std::vector<int> combined_matched;   // as Trial::matched
  std::string combined_diff;
  int compiles = 0;  // distinct texts measured, the original included (a cache hit counts)
  std::vector<std::string> warnings;
  // Kernels (on an arch) whose occupancy registers do not limit: LDS or the
  // workgroup size does. No register edit can raise it; the figure that can is said.
  std::vector<std::string> not_register_limited;
};

// "k on gfx90a: occupancy 2 waves/SIMD is limited by LDS (40960 B per
// workgroup), not registers: 32768 B or less reaches 3 waves/SIMD" (empty when
// registers limit it, or nothing does).
std::string notRegisterLimitedText(const KernelFigures &k);

// The whole loop: measure the original, find the candidates (waves targets
// from the baseline's next steps), measure each edit, then combine those that
// help in order of gain, keeping each only if the combination so far improves.
// Throws regscope::Error when the original does not compile (the compiler's
// first errors) or does not parse. AMD only (hipcc or clang).
AdviseResult advise(const AdviseInput &input);

// Where `kernel` (from the original) is among `measured` (a compile of the
// original with `edit` applied): by mangled name and arch, else by its
// declaration line moved through the edit. Exposed for tests.
const KernelFigures *matchKernel(const KernelFigures &kernel, const std::vector<KernelFigures> &measured,
                                 const std::string &original, const clang::tooling::Replacements &edit);

}  // namespace regscope
