// regscope gate FILE... [thresholds] [--config F] [--baseline F [--update-baseline]] [--exit-zero]
#include <filesystem>
#include <iostream>

#include "commands.h"
#include "regscope/gate/gate.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/views/views.h"

namespace regscope {

// The config in force: --config, else .regscope.json here or above. Its archs
// and flags apply where the command line gives none.
GateConfig resolveConfig(const std::string &explicit_path, SourceOptions &sources) {
  GateConfig config;
  if (!explicit_path.empty()) config = loadConfig(explicit_path);
  else if (auto found = findConfig(std::filesystem::current_path().string())) config = loadConfig(*found);
  if (!sources.archsGiven() && !config.archs.empty()) {
    sources.analyze.archs = config.archs;
    sources.analyze.archs_explicit = true;
  }
  sources.analyze.extra_flags.insert(sources.analyze.extra_flags.begin(), config.compiler_flags.begin(),
                                     config.compiler_flags.end());
  return config;
}

Command addGateCommand(CLI::App &root, const std::vector<std::string> &compiler_flags) {
  struct State {
    SourceOptions sources;
    OutputOptions output;
    std::string config_path, baseline_path;
    Thresholds flags;
    bool update_baseline = false, exit_zero = false;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand("gate", "Fail (exit 1) when kernels break thresholds or regress against a baseline");
  addSourceOptions(*app, state->sources, compiler_flags);
  app->add_option("--min-occupancy", state->flags.min_occupancy,
                  "Fail below this many waves/SIMD (AMD), warps/SM (NVIDIA), threads/Xe-core (Intel)");
  app->add_option("--max-spills", state->flags.max_spills,
                  "Fail above this many spilled registers (AMD), bytes of spill stores (NVIDIA), "
                  "spill bytes per thread (Intel)");
  app->add_option("--max-scratch", state->flags.max_scratch, "Fail above this many scratch bytes per lane");
  app->add_option("--config", state->config_path, "Config file (default: .regscope.json here or in a parent)");
  app->add_option("--baseline", state->baseline_path, "Fail only on regressions against this baseline");
  app->add_flag("--update-baseline", state->update_baseline, "Rewrite the baseline with the current figures")
      ->needs(app->get_option("--baseline"));
  app->add_flag("--exit-zero", state->exit_zero, "Exit 0 even when a rule fails (errors still exit 2)");
  addOutputOptions(*app, state->output, /*ci_formats=*/true);

  return {app, [state]() -> int {
            refuseOverwritingInputs(state->sources.files, state->output.path);
            GateConfig config = resolveConfig(state->config_path, state->sources);
            if (state->flags.min_occupancy) config.defaults.min_occupancy = state->flags.min_occupancy;
            if (state->flags.max_spills) config.defaults.max_spills = state->flags.max_spills;
            if (state->flags.max_scratch) config.defaults.max_scratch = state->flags.max_scratch;
            // Read the baseline before compiling: a broken one fails fast and stays untouched.
            std::optional<Baseline> baseline;
            if (!state->baseline_path.empty()) {
              if (!std::filesystem::is_regular_file(state->baseline_path))
                throw Error(state->baseline_path + ": no such baseline (create one with regscope baseline)");
              baseline = baselineFromText(readFile(state->baseline_path), state->baseline_path);
            }

            Report report = analyzeSources(state->sources);
            GateResult result = checkThresholds(report, config);
            if (baseline) compareWithBaseline(report, *baseline, result);
            emit(state->output, *gateView(report, result));
            if (!report.errors.empty()) return reportErrors(report);  // never accept a partial run
            if (state->update_baseline) {
              writeFileAtomically(state->baseline_path, baselineToText(baselineFromReport(report)));
              std::cerr << "regscope: baseline " << state->baseline_path << " updated\n";
              return 0;
            }
            return result.failures.empty() || state->exit_zero ? kExitOk : kExitFindings;
          }};
}

Command addBaselineCommand(CLI::App &root, const std::vector<std::string> &compiler_flags) {
  struct State {
    SourceOptions sources;
    std::string config_path, output = "regscope-baseline.json";
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand("baseline", "Record every kernel's figures for gate --baseline");
  addSourceOptions(*app, state->sources, compiler_flags);
  app->add_option("--config", state->config_path, "Config file (default: .regscope.json here or in a parent)");
  app->add_option("-o,--output", state->output, "Baseline file to write")->capture_default_str();
  return {app, [state]() -> int {
            refuseOverwritingInputs(state->sources.files, state->output);
            resolveConfig(state->config_path, state->sources);
            Report report = analyzeSources(state->sources);
            if (!report.errors.empty()) return reportErrors(report);  // a partial baseline would lose kernels
            writeFileAtomically(state->output, baselineToText(baselineFromReport(report)));
            std::cerr << "regscope: wrote " << report.kernels.size() << " kernels to " << state->output << '\n';
            return 0;
          }};
}

}  // namespace regscope
