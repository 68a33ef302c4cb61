// The advise loop: measure the original, find candidates, measure each edit
// through the analysis pipeline, and combine those that help, greedily.
#include "regscope/advise/advise.h"

#include <clang/Basic/Version.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <tuple>

#include "advise_internal.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/symbols.h"

namespace regscope {

namespace fs = std::filesystem;

const char *adviseRuleId(AdviseRule rule) {
  switch (rule) {
    case AdviseRule::PowToMultiply:
      return "pow-to-multiply";
    case AdviseRule::Restrict:
      return "restrict";
    case AdviseRule::RestrictAll:
      return "restrict-all";
    case AdviseRule::PowerOfTwo:
      return "power-of-two";
    case AdviseRule::LaunchBounds:
      return "launch-bounds";
    case AdviseRule::WavesPerEu:
      return "waves-per-eu";
    case AdviseRule::Unroll:
      return "unroll";
    case AdviseRule::ScratchArray:
      return "scratch-array";
  }
  return "?";
}

const char *adviseRuleSeed(AdviseRule rule) {
  switch (rule) {
    case AdviseRule::PowToMultiply:
    case AdviseRule::Restrict:
    case AdviseRule::RestrictAll:
    case AdviseRule::ScratchArray:
      return "000";
    case AdviseRule::PowerOfTwo:
      return "001";
    case AdviseRule::Unroll:
      return "002";
    case AdviseRule::LaunchBounds:
    case AdviseRule::WavesPerEu:
      return "004";
  }
  return "?";
}

const char *trialVerdictName(TrialVerdict verdict) {
  switch (verdict) {
    case TrialVerdict::Helps:
      return "helps";
    case TrialVerdict::NoGain:
      return "no gain";
    case TrialVerdict::Worse:
      return "worse";
    case TrialVerdict::Mixed:
      return "mixed";
    case TrialVerdict::CompileError:
      return "does not compile";
    case TrialVerdict::NotTried:
      return "not tried";
  }
  return "?";
}

std::string notRegisterLimitedText(const KernelFigures &k) {
  if (k.limiter != Limiter::Lds && k.limiter != Limiter::Workgroup) return "";
  const std::string base = functionBaseName(k.demangled);
  std::string text = (base.empty() ? k.mangled : base) + " on " + k.arch + ": occupancy " +
                     std::to_string(k.waves_per_simd) + " waves/SIMD is limited by ";
  if (k.limiter == Limiter::Workgroup) {
    text += "its workgroup size (" + std::to_string(k.workgroup_size) +
            " threads: the CU's workgroup slots are full), not registers or LDS; a register edit cannot raise it";
    return text;
  }
  text += "LDS (" + std::to_string(k.lds_bytes) + " B per workgroup), not registers; ";
  if (k.next_lds_bytes && k.next_waves) {
    text += std::to_string(*k.next_lds_bytes) + " B of LDS or less reaches " + std::to_string(*k.next_waves) +
            " waves/SIMD";
    if (k.next_vgprs_to_free > 0 || k.next_sgprs_to_free > 0) {
      text += " once also ";
      if (k.next_vgprs_to_free > 0) text += std::to_string(k.next_vgprs_to_free) + " VGPRs";
      if (k.next_vgprs_to_free > 0 && k.next_sgprs_to_free > 0) text += " and ";
      if (k.next_sgprs_to_free > 0) text += std::to_string(k.next_sgprs_to_free) + " SGPRs";
      text += " are freed";
    }
  } else {
    text += "no LDS figure alone reaches a higher step";
  }
  return text + "; a register edit alone cannot raise it";
}

namespace {

void checkReadable(const std::string &path) {
  std::error_code ec;
  if (std::string why = notARegularFile(path); !why.empty()) throw Error(why);
  if (access(path.c_str(), R_OK) != 0) throw Error(path + ": cannot read (permission denied)");
}

// The path in diff headers: relative to the working directory when below it
// (where `git apply` is run), else absolute.
std::string diffLabel(const std::string &path) {
  std::error_code ec;
  const fs::path rel = fs::path(path).lexically_relative(fs::current_path(ec));
  if (!ec && !rel.empty() && *rel.begin() != "..") return rel.string();
  return path;
}

// The names of the symbol (support/symbols.h), and the declared name with
// any of its leading namespaces left out ("b::scale" for "a::b::scale").
bool namesKernel(const KernelRef &k, const std::string &wanted) {
  return regscope::namesKernel(wanted, k.mangled) || wanted == k.demangled || wanted == k.name ||
         (k.name.size() > wanted.size() && k.name.compare(k.name.size() - wanted.size(), wanted.size(), wanted) == 0 &&
          k.name[k.name.size() - wanted.size() - 1] == ':');
}

void keepOnlyKernels(CandidateSet &set, const std::vector<std::string> &wanted) {
  if (wanted.empty()) return;
  for (const std::string &w : wanted) {
    if (std::any_of(set.kernels.begin(), set.kernels.end(), [&](const KernelRef &k) { return namesKernel(k, w); }))
      continue;
    std::string list;
    for (const KernelRef &k : set.kernels)
      list += (list.empty() ? "" : ", ") + (k.demangled.empty() ? k.name : k.demangled);
    throw Error("no kernel named '" + w + "' in " + set.path +
                (list.empty() ? " (it defines none)" : "; its kernels: " + list));
  }
  auto unwanted = [&](const Candidate &c) {
    return !c.kernel.is_kernel ||
           std::none_of(wanted.begin(), wanted.end(), [&](const std::string &w) { return namesKernel(c.kernel, w); });
  };
  set.candidates.erase(std::remove_if(set.candidates.begin(), set.candidates.end(), unwanted), set.candidates.end());
}

// ---- comparing measurements ----

// Occupancy first, then spills inside loops (a spill moved out of a loop runs
// once, not per iteration), all spills, scratch, VGPRs and SGPRs: larger is
// better. Loop spills count where both sides read them (`other`'s too).
std::array<int, 6> key(const KernelFigures &k, const KernelFigures &other) {
  const int vgprs = k.vgprs_total ? k.vgprs_total : k.vgprs;
  const int loops = k.loop_spills && other.loop_spills ? *k.loop_spills : 0;
  return {k.waves_per_simd, -loops, -(k.vgpr_spills + k.sgpr_spills), -k.scratch_bytes, -vgprs, -k.sgprs};
}

struct Comparison {
  bool better = false, worse = false;
  Gain gain;
  std::string note;  // the first change, in words
};

std::string figures(const KernelFigures &k) {
  return std::to_string(k.waves_per_simd) + " waves/SIMD, " + std::to_string(k.vgpr_spills + k.sgpr_spills) +
         " spills" + (k.loop_spills ? " (" + std::to_string(*k.loop_spills) + " in loops)" : std::string()) + ", " +
         std::to_string(k.scratch_bytes) + " B scratch, " + std::to_string(k.vgprs_total ? k.vgprs_total : k.vgprs) +
         " VGPRs, " + std::to_string(k.sgprs) + " SGPRs";
}

std::string shortName(const KernelFigures &k) {
  const std::string base = functionBaseName(k.demangled);
  return base.empty() ? k.mangled : base;
}

// For each of the baseline's kernels, its index in `m` (-1: not found).
std::vector<int> align(const Measurement &baseline, const Measurement &m, const std::string &original,
                       const clang::tooling::Replacements &edit) {
  std::vector<int> out;
  for (const KernelFigures &k : baseline.kernels) {
    const KernelFigures *found = matchKernel(k, m.kernels, original, edit);
    out.push_back(found ? static_cast<int>(found - m.kernels.data()) : -1);
  }
  return out;
}

const KernelFigures *at(const Measurement &m, const std::vector<int> &matched, std::size_t i) {
  return matched[i] < 0 ? nullptr : &m.kernels[matched[i]];
}

// `after` against `before`, kernel by kernel in the baseline's order.
Comparison compare(const Measurement &baseline, const Measurement &before, const std::vector<int> &before_matched,
                   const Measurement &after, const std::vector<int> &after_matched) {
  Comparison c;
  for (std::size_t i = 0; i < baseline.kernels.size(); ++i) {
    const KernelFigures &k = baseline.kernels[i];
    const KernelFigures *b_fig = at(before, before_matched, i), *a_fig = at(after, after_matched, i);
    if (!b_fig) continue;
    if (!a_fig) {
      c.worse = true;
      if (c.note.empty()) c.note = shortName(k) + " on " + k.arch + " is missing from the edited compile";
      continue;
    }
    const std::array<int, 6> b = key(*b_fig, *a_fig), a = key(*a_fig, *b_fig);
    c.gain.waves += a[0] - b[0];
    c.gain.loop_spills += a[1] - b[1];
    c.gain.spills += a[2] - b[2];
    c.gain.scratch_bytes += a[3] - b[3];
    c.gain.vgprs += a[4] - b[4];
    c.gain.sgprs += a[5] - b[5];
    if (a == b) continue;
    const TrialVerdict v = judgeFigures(*b_fig, *a_fig);
    c.better |= v == TrialVerdict::Helps || v == TrialVerdict::Mixed;
    c.worse |= v == TrialVerdict::Worse || v == TrialVerdict::Mixed;
    c.note += (c.note.empty() ? "" : "; ") + shortName(k) + " on " + k.arch + ": " + figures(*b_fig) + " -> " +
              figures(*a_fig);
  }
  return c;
}

}  // namespace

TrialVerdict judgeFigures(const KernelFigures &before, const KernelFigures &after) {
  const std::array<int, 6> b = key(before, after), a = key(after, before);
  // What the GPU does (occupancy, spills inside loops, spills, scratch)
  // decides, each on its own: more waves bought with more spills is a
  // trade-off, never "helps", and a spill-removing edit that costs a wave is
  // one too; so is one that moves spills into a loop while the count falls.
  // VGPRs decide only when none of those moved (headroom towards the next
  // step); SGPRs never do alone.
  bool up = false, down = false;
  for (std::size_t f = 0; f < 4; ++f)
    if (a[f] != b[f]) (a[f] > b[f] ? up : down) = true;
  if (!up && !down && a[4] != b[4]) (a[4] > b[4] ? up : down) = true;
  return up && down ? TrialVerdict::Mixed
         : up       ? TrialVerdict::Helps
         : down     ? TrialVerdict::Worse
                    : TrialVerdict::NoGain;
}

namespace {

TrialVerdict verdictOf(const Comparison &c) {
  if (c.better && c.worse) return TrialVerdict::Mixed;
  if (c.better) return TrialVerdict::Helps;
  if (c.worse) return TrialVerdict::Worse;
  return TrialVerdict::NoGain;
}

bool largerGain(const Gain &x, const Gain &y) {
  return std::tie(x.waves, x.loop_spills, x.spills, x.scratch_bytes, x.vgprs, x.sgprs) >
         std::tie(y.waves, y.loop_spills, y.spills, y.scratch_bytes, y.vgprs, y.sgprs);
}

// Each distinct text measured once, through the pipeline; counted.
class Measurer {
 public:
  explicit Measurer(const AdviseInput &input) : input_(input) {}

  // The texts measured together (the pipeline's pool); `fresh[i]` says
  // whether texts[i] was measured now rather than remembered.
  std::vector<Measurement> operator()(const std::vector<std::string> &texts, std::vector<bool> *fresh = nullptr) {
    std::vector<std::string> todo;
    for (const std::string &text : texts)
      if (!memo_.count(text) && std::find(todo.begin(), todo.end(), text) == todo.end()) todo.push_back(text);
    if (fresh) {
      fresh->clear();
      for (const std::string &text : texts) fresh->push_back(!memo_.count(text));
    }
    if (!todo.empty()) {
      std::vector<Measurement> measured = measureTexts(input_, todo);
      for (std::size_t i = 0; i < todo.size(); ++i) memo_.emplace(todo[i], std::move(measured[i]));
      calls_ += static_cast<int>(todo.size());
    }
    std::vector<Measurement> out;
    for (const std::string &text : texts) out.push_back(memo_.at(text));
    return out;
  }
  int calls() const { return calls_; }

 private:
  const AdviseInput &input_;
  std::map<std::string, Measurement> memo_;
  int calls_ = 0;
};

// The file as it is on disk, through the pipeline: exactly `regscope analyze`.
Measurement measureOriginal(const AdviseInput &input, Report &report) {
  report = analyzeJobs({input.job}, input.options);
  return advise_detail::measurementOf(report);
}

}  // namespace

CandidateSet findCandidates(const AdviseInput &input) {
  checkReadable(input.job.path);
  CandidateSet set;
  set.path = input.job.path;
  const advise_detail::FrontendCommand command = advise_detail::deviceFrontendCommand(input);
  set.frontend_version = command.version;
  set.frontend_arch = command.arch;
  set.frontend_args = command.args;
  if (command.version.find("version " + std::to_string(CLANG_VERSION_MAJOR) + ".") == std::string::npos)
    set.warnings.push_back("the compiler's front end is '" + command.version + "'; advise parses with Clang " +
                           CLANG_VERSION_STRING + ", so its candidates may miss what that version reads differently");
  if (!command.resource_dir_replaced.empty())
    set.warnings.push_back("the compiler's builtin headers (" + command.resource_dir_replaced +
                           ") were read as Clang " CLANG_VERSION_STRING "'s");
  if (!command.dropped.empty()) {
    std::string list;
    for (const std::string &a : command.dropped) list += (list.empty() ? "" : " ") + a;
    set.warnings.push_back("front-end flags Clang " CLANG_VERSION_STRING " does not know were left out: " + list);
  }
  advise_detail::parseSource(command, input.job.path, [&](clang::ASTContext &ast) {
    const clang::SourceManager &sm = ast.getSourceManager();
    set.source_text = sm.getBufferData(sm.getMainFileID()).str();  // the bytes the offsets refer to
    advise_detail::RuleContext ctx(ast, input, set);
    for (const clang::FunctionDecl *fn : ctx.deviceFunctions())
      if (advise_detail::RuleContext::isKernel(fn)) set.kernels.push_back(ctx.kernelRef(fn));
    advise_detail::findPowCalls(ctx);
    advise_detail::findRestrictCandidates(ctx);
    advise_detail::findPowerOfTwoArithmetic(ctx);
    advise_detail::findLaunchBounds(ctx);
    advise_detail::findUnrollCandidates(ctx);
    advise_detail::findScratchArrays(ctx);
  });
  keepOnlyKernels(set, input.kernels);
  std::stable_sort(set.candidates.begin(), set.candidates.end(), [](const Candidate &a, const Candidate &b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
  return set;
}

AdviseResult advise(const AdviseInput &given) {
  if (!backendForSource(given.job.path, requestedTargets(given.options, given.job.archs)).compilesEditedText())
    throw Error("advise reads and compiles HIP sources for AMD targets only (hipcc or clang)");
  checkReadable(given.job.path);
  AdviseInput input = given;
  AdviseResult result;
  result.display_path = input.job.file;
  const std::string label = diffLabel(input.job.path);
  Measurer run(input);

  // The original, as `regscope analyze` measures it.
  const std::string original = readFile(input.job.path);
  Report report;
  result.baseline = measureOriginal(input, report);
  if (!result.baseline.ok) throw Error(result.baseline.error);
  result.compiler_path = report.compiler_path;
  result.compiler_version = report.compiler_version;
  result.warnings = report.warnings;
  for (const KernelReport &k : report.kernels)
    if (std::find(result.archs.begin(), result.archs.end(), k.record.arch) == result.archs.end())
      result.archs.push_back(k.record.arch);
  // The model's next step, first arch first, unless the caller named one;
  // only where registers limit: asking the compiler for more waves cannot
  // help a kernel that LDS or its workgroup size holds back.
  for (const KernelFigures &k : result.baseline.kernels) {
    const std::string text = notRegisterLimitedText(k);
    if (!text.empty())
      result.not_register_limited.push_back(text);
    else if (k.next_waves)
      input.next_waves.emplace(k.mangled, *k.next_waves);
  }

  result.found = findCandidates(input);
  if (result.found.source_text != original) throw Error(input.job.file + " changed while advise read it");
  result.warnings.insert(result.warnings.end(), result.found.warnings.begin(), result.found.warnings.end());
  const std::vector<Candidate> &candidates = result.found.candidates;

  // Every candidate alone, on the pipeline's pool.
  std::vector<std::string> texts;
  for (const Candidate &c : candidates)
    if (!c.hint_only) texts.push_back(c.edited_source);
  std::vector<Measurement> measured = run(texts);
  const std::vector<int> base = align(result.baseline, result.baseline, original, {});
  result.trials.resize(candidates.size());
  for (std::size_t i = 0, m = 0; i < candidates.size(); ++i) {
    const Candidate &c = candidates[i];
    Trial &t = result.trials[i];
    t.candidate_id = c.id;
    if (c.hint_only) continue;
    t.measured = std::move(measured[m++]);
    t.diff = unifiedDiff(label, original, c.edited_source);
    if (!t.measured.ok) {
      t.verdict = TrialVerdict::CompileError;
      t.note = t.measured.error;
      continue;
    }
    t.matched = align(result.baseline, t.measured, original, c.edit);
    const Comparison cmp = compare(result.baseline, result.baseline, base, t.measured, t.matched);
    t.verdict = verdictOf(cmp);
    t.gain = cmp.gain;
    t.note = cmp.note;
  }

  // Greedy: largest gain first; each kept only if the combination improves.
  std::vector<std::size_t> helpful;
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (result.trials[i].verdict == TrialVerdict::Helps) helpful.push_back(i);
  std::stable_sort(helpful.begin(), helpful.end(), [&](std::size_t a, std::size_t b) {
    return largerGain(result.trials[a].gain, result.trials[b].gain);
  });
  std::vector<const Candidate *> kept;
  result.combined = combineEdits(original, {});
  result.combined_measured = result.baseline;
  result.combined_matched = base;
  for (std::size_t i : helpful) {
    CombinationStep step;
    step.candidate_id = candidates[i].id;
    std::vector<const Candidate *> next = kept;
    next.push_back(&candidates[i]);
    CombinedEdit combined = combineEdits(original, next);
    if (!combined.conflicts.empty()) {
      step.reason = "conflicts with " + combined.conflicts.front().second;
    } else if (combined.edited_source == result.combined.edited_source) {
      step.reason = "already part of the combination";
    } else {
      std::vector<bool> fresh;
      step.measured = run({combined.edited_source}, &fresh).front();
      step.compiled = fresh.front();
      if (!step.measured.ok) {
        step.reason = "the combination does not compile";
      } else {
        step.matched = align(result.baseline, step.measured, original, combined.edit);
        const Comparison cmp =
            compare(result.baseline, result.combined_measured, result.combined_matched, step.measured, step.matched);
        step.kept = cmp.better && !cmp.worse;
        if (!step.kept)
          step.reason = cmp.worse ? "worse in combination: " + cmp.note : "no further gain in combination";
      }
    }
    if (step.kept) {
      kept.push_back(&candidates[i]);
      result.combined = std::move(combined);
      result.combined_measured = step.measured;
      result.combined_matched = step.matched;
    }
    result.steps.push_back(std::move(step));
  }
  result.combined_diff = unifiedDiff(label, original, result.combined.edited_source);
  result.compiles = 1 + run.calls();
  return result;
}

}  // namespace regscope
