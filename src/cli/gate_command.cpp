// regscope gate FILE... [thresholds] [--config F] [--baseline F [--update-baseline]] [--exit-zero]
// regscope baseline FILE... [-o regscope-baseline.json]
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <tuple>

#include "commands.h"
#include "regscope/gate/gate.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/symbols.h"
#include "regscope/views/views.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// A baseline to compare with or update: read before anything compiles, so a
// broken one fails fast and stays untouched.
Baseline readBaseline(const std::string &path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw Error(path + ": no such baseline (create one with regscope baseline)");
  return baselineFromText(readFile(path), path);
}

bool hasRules(const Thresholds &t) { return t.min_occupancy || t.max_spills || t.max_scratch; }

// What a user should hear about a config and a run before trusting a pass.
void warnAboutRules(const Config &config, const Report &report, bool baseline) {
  bool any = hasRules(config.defaults) || baseline;
  for (const KernelSettings &k : config.kernels) any |= hasRules(k.thresholds);
  if (!any)
    std::cerr << "regscope: warning: the gate has no rules: give --min-occupancy, --max-spills, --max-scratch, "
                 "a baseline, or defaults in .regscope.json; nothing is checked\n";
  if (report.kernels.empty() && report.errors.empty()) std::cerr << "regscope: warning: the gate checked no kernels\n";
  for (const KernelSettings &settings : config.kernels) {
    bool matched = false;
    for (const KernelReport &k : report.kernels)
      matched |= settings.matches(k.record.name, k.record.demangled, functionBaseName(k.record.demangled));
    if (!matched && !report.kernels.empty())
      printWarning(config.path + ": kernels entry '" + settings.match + "' matches no kernel of this run");
  }
}

// A threshold no kernel can ever meet is a mistake, not a failure.
void checkReachable(const Config &config, const Report &report) {
  for (const KernelReport &k : report.kernels) {
    const Thresholds t = thresholdsFor(config, k.record);
    if (t.min_occupancy && k.summary.max_level > 0 && *t.min_occupancy > k.summary.max_level)
      throw Error("--min-occupancy " + std::to_string(*t.min_occupancy) + " can never be met on " + k.record.arch +
                  ": its maximum is " + std::to_string(k.summary.max_level) + " " + occupancyUnit(k.summary.vendor));
  }
}

// Kernels the gate cannot judge (a figure not read, or one the target cannot
// have): each is one line, an error unless --allow-unknown. True when the run
// must stop (exit 2).
bool reportUnjudged(const Report &report, bool allow_unknown) {
  bool any = false;
  for (const KernelReport &k : report.kernels)
    if (std::string why = cannotJudge(k); !why.empty()) {
      // Kernel names and paths are the input's: printed escaped (printWarning, printError).
      if (allow_unknown) printWarning(why + " (--allow-unknown: not judged)");
      else printError(why);
      any = true;
    }
  return any && !allow_unknown;
}

// The baseline `report` gives over `old`, less the kernels it could not judge:
// those keep their old entry, if they had one, rather than a figure never read.
Baseline judgedBaseline(const Baseline &old, const Report &report, const std::string &root) {
  Report judged = report;
  judged.kernels.clear();
  std::vector<BaselineEntry> unjudged;
  for (const KernelReport &k : report.kernels)
    if (cannotJudge(k).empty()) judged.kernels.push_back(k);
    else unjudged.push_back(baselineEntry(k, root));
  Baseline updated = updatedBaseline(old, judged, root);
  for (const BaselineEntry &u : unjudged)
    for (const BaselineEntry &e : old)
      if (e.source == u.source && e.name == u.name && e.arch == u.arch &&
          std::none_of(updated.begin(), updated.end(), [&](const BaselineEntry &n) {
            return n.source == e.source && n.name == e.name && n.arch == e.arch;
          }))
        updated.push_back(e);
  std::stable_sort(updated.begin(), updated.end(), [](const BaselineEntry &a, const BaselineEntry &b) {
    return std::tie(a.source, a.file, a.name, a.arch) < std::tie(b.source, b.file, b.name, b.arch);
  });
  return updated;
}

std::size_t judgedCount(const Report &report) {
  return static_cast<std::size_t>(std::count_if(report.kernels.begin(), report.kernels.end(),
                                                [](const KernelReport &k) { return cannotJudge(k).empty(); }));
}

}  // namespace

Command addGateCommand(CLI::App &root, const std::vector<std::string> &compiler_flags) {
  struct State {
    SourceOptions sources;
    OutputOptions output;
    std::string baseline_path;
    Thresholds flags;
    bool update_baseline = false, exit_zero = false, allow_unknown = false;
  };
  auto state = std::make_shared<State>();
  CLI::App *app =
      root.add_subcommand("gate", "Fail (exit 1) when kernels break thresholds or regress against a baseline");
  addSourceOptions(*app, state->sources, compiler_flags);
  app->add_option("--min-occupancy", state->flags.min_occupancy,
                  "Fail below this occupancy: waves/SIMD (AMD), warps/SM (NVIDIA), threads/Xe-core (Intel)")
      ->check(wholeNumber(1));
  app->add_option("--max-spills", state->flags.max_spills,
                  "Fail above this many spilled registers (AMD), bytes of spill stores (NVIDIA), "
                  "spill bytes per thread (Intel)")
      ->check(wholeNumber(0));
  app->add_option("--max-scratch", state->flags.max_scratch, "Fail above this many scratch bytes per lane")
      ->check(wholeNumber(0));
  app->add_option("--baseline", state->baseline_path, "Fail only on regressions against this baseline");
  app->add_flag("--update-baseline", state->update_baseline,
                "Rewrite the analysed files' entries of the baseline with the current figures")
      ->needs(app->get_option("--baseline"));
  app->add_flag("--exit-zero", state->exit_zero, "Exit 0 even when a rule fails (errors still exit 2)");
  app->add_flag("--allow-unknown", state->allow_unknown,
                "List kernels whose figures could not be read (or are impossible) and judge the rest, instead of "
                "exiting 2");
  addCollectFlag(*app, state->sources);
  addOutputOptions(*app, state->output, /*ci_formats=*/true);

  return {app, [state]() -> int {
            std::vector<std::string> inputs = inputPaths(state->sources);
            if (!state->baseline_path.empty()) inputs.push_back(state->baseline_path);
            refuseOverwritingInputs(inputs, state->output.path);
            Config config = prepareSources(state->sources);
            if (state->flags.min_occupancy) config.defaults.min_occupancy = state->flags.min_occupancy;
            if (state->flags.max_spills) config.defaults.max_spills = state->flags.max_spills;
            if (state->flags.max_scratch) config.defaults.max_scratch = state->flags.max_scratch;
            std::optional<Baseline> baseline;
            std::string root;
            if (!state->baseline_path.empty()) {
              baseline = readBaseline(state->baseline_path);
              root = baselineRoot(state->baseline_path);
            }

            Report report = sourcesReport(state->sources);
            checkReachable(config, report);
            warnAboutRules(config, report, baseline.has_value());
            GateResult result = checkThresholds(report, config);
            result.allow_unknown = state->allow_unknown;
            if (baseline) compareWithBaseline(report, *baseline, root, result);
            emit(state->output, *gateView(report, result, baseline ? &*baseline : nullptr, root));
            if (!report.errors.empty()) return reportErrors(report);  // never accept a partial run
            if (reportUnjudged(report, state->allow_unknown)) return kExitError;  // never pass what was not read
            if (state->update_baseline) {
              writeFileAtomically(state->baseline_path, baselineToText(judgedBaseline(*baseline, report, root)));
              std::cerr << "regscope: baseline " << state->baseline_path << " updated for " << report.inputs.size()
                        << " file" << (report.inputs.size() == 1 ? "" : "s") << "\n";
              return 0;
            }
            return result.failures.empty() || state->exit_zero ? kExitOk : kExitFindings;
          }};
}

Command addBaselineCommand(CLI::App &root, const std::vector<std::string> &compiler_flags) {
  struct State {
    SourceOptions sources;
    std::string output = "regscope-baseline.json";
    bool allow_unknown = false;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand(
      "baseline", "Record the kernels' figures for gate --baseline (other files' entries in the file are kept)");
  addSourceOptions(*app, state->sources, compiler_flags);
  app->add_option("-o,--output", state->output, "Baseline file to write or update")->capture_default_str();
  app->add_flag("--allow-unknown", state->allow_unknown,
                "Record the kernels whose figures were all read and keep the others' old entries, instead of "
                "exiting 2");
  addCollectFlag(*app, state->sources);
  return {app, [state]() -> int {
            refuseOverwritingInputs(inputPaths(state->sources), state->output);
            prepareSources(state->sources);
            std::error_code ec;
            const bool exists = fs::exists(state->output, ec);
            const Baseline old = exists ? readBaseline(state->output) : Baseline{};
            const std::string root = baselineRoot(state->output);
            Report report = sourcesReport(state->sources);
            if (!report.errors.empty()) return reportErrors(report);  // a partial baseline would lose kernels
            if (reportUnjudged(report, state->allow_unknown)) return kExitError;  // nothing written
            const Baseline updated = judgedBaseline(old, report, root);
            writeFileAtomically(state->output, baselineToText(updated));
            const std::size_t judged = judgedCount(report);
            const std::size_t kept = updated.size() - std::min(updated.size(), judged);
            std::cerr << "regscope: wrote " << judged << (judged == 1 ? " kernel" : " kernels")
                      << " judged to " << state->output;
            if (judged != report.kernels.size()) std::cerr << " (" << report.kernels.size() - judged << " not judged)";
            if (kept) std::cerr << " (kept " << kept << (kept == 1 ? " entry" : " entries") << " of other files)";
            std::cerr << '\n';
            return 0;
          }};
}

}  // namespace regscope
