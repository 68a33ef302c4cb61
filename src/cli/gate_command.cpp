// regscope gate FILE... [thresholds] [--config F] [--baseline F [--update-baseline]] [--exit-zero]
// regscope baseline FILE... [-o regscope-baseline.json]
#include <algorithm>
#include <filesystem>
#include <iostream>

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

}  // namespace

Command addGateCommand(CLI::App &root, const std::vector<std::string> &compiler_flags) {
  struct State {
    SourceOptions sources;
    OutputOptions output;
    std::string baseline_path;
    Thresholds flags;
    bool update_baseline = false, exit_zero = false;
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
            if (baseline) compareWithBaseline(report, *baseline, root, result);
            emit(state->output, *gateView(report, result, baseline ? &*baseline : nullptr, root));
            if (!report.errors.empty()) return reportErrors(report);  // never accept a partial run
            if (state->update_baseline) {
              writeFileAtomically(state->baseline_path, baselineToText(updatedBaseline(*baseline, report, root)));
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
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand(
      "baseline", "Record the kernels' figures for gate --baseline (other files' entries in the file are kept)");
  addSourceOptions(*app, state->sources, compiler_flags);
  app->add_option("-o,--output", state->output, "Baseline file to write or update")->capture_default_str();
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
            const Baseline updated = updatedBaseline(old, report, root);
            writeFileAtomically(state->output, baselineToText(updated));
            const std::size_t kept = updated.size() - std::min(updated.size(), report.kernels.size());
            std::cerr << "regscope: wrote " << report.kernels.size() << (report.kernels.size() == 1 ? " kernel" : " kernels")
                      << " to " << state->output;
            if (kept) std::cerr << " (kept " << kept << (kept == 1 ? " entry" : " entries") << " of other files)";
            std::cerr << '\n';
            return 0;
          }};
}

}  // namespace regscope
