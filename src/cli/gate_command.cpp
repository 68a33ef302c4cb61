// regscope gate FILE... [thresholds] [--config F] [--baseline F [--update-baseline]] [--exit-zero]
// regscope baseline FILE... [-o regscope-baseline.json]
#include <algorithm>
#include <filesystem>
#include <optional>

#include "commands.h"
#include "regscope/cache/cache.h"
#include "regscope/gate/gate_run.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"
#include "regscope/views/views.h"

namespace regscope {

namespace fs = std::filesystem;

namespace {

// gate and baseline over built artifacts (directories, Triton caches, code
// objects) instead of sources: all inputs or none; never with -p, --collect.
bool artifactInputs(const SourceOptions &sources) {
  const std::vector<std::string> &files = sources.files;
  const std::size_t artifacts = std::count_if(files.begin(), files.end(), isArtifactInput);
  if (artifacts == 0) return false;
  if (artifacts != files.size())
    throw Error("give built artifacts (directories, Triton caches, code objects) or sources, not both");
  if (!sources.database.empty() || !sources.collect_dir.empty())
    throw Error("directories and artifacts are read as they are: give them without -p or --collect");
  return true;
}

// Whether a gate judges spills inside loops (--max-loop-spills, a config's max_loop_spills): with a
// baseline, or for `baseline` itself, they are compared or recorded too.
bool judgesLoopSpills(const Config &config) {
  return config.defaults.max_loop_spills ||
         std::any_of(config.kernels.begin(), config.kernels.end(),
                     [](const KernelSettings &k) { return k.thresholds.max_loop_spills.has_value(); });
}

// The artifacts' report; a known artifact not read is an error (exit 2) unless --allow-unknown.
// `loop_spills`: read NVIDIA kernels' spills inside loops through nvdisasm (one run per cubin with
// local memory), only when the run judges, compares or records them.
Report artifactsReport(const SourceOptions &sources, bool allow_unknown, bool loop_spills, bool &unread) {
  ParseOptions options;
  options.parallel = sources.analyze.parallel;
  options.progress = progressWanted(sources.progress);
  options.cache_dir = sources.no_cache ? "" : ResultCache::defaultDirectory();
  if (sources.block_size) options.launch.block_size = sources.block_size;
  options.launch.dynamic_lds = sources.analyze.launch.dynamic_lds;
  // loop_spills of NVIDIA kernels with local memory, where nvdisasm is installed.
  if (loop_spills) options.nvdisasm = installedNvdisasm();
  options.timeout_seconds = sources.analyze.timeout_seconds;
  ParsedInputs parsed = readArtifactInputs(sources.files, options, !allow_unknown, stderrMessages());
  unread = !parsed.walk.not_read.empty() && !allow_unknown;
  for (const std::string &w : saidOnce(parsed.report.warnings)) printWarning(w);
  return std::move(parsed.report);
}

}  // namespace

Command addGateCommand(CLI::App &root, const std::vector<std::string> &compiler_flags) {
  struct State {
    SourceOptions sources;
    OutputOptions output;
    std::string baseline_path;
    Thresholds flags;
    bool update_baseline = false, exit_zero = false, allow_unknown = false;
    std::vector<std::string> logs;  // --log: judge a build's own remarks, compile nothing
  };
  auto state = std::make_shared<State>();
  CLI::App *app =
      root.add_subcommand("gate", "Fail (exit 1) when kernels break thresholds or regress against a baseline");
  addSourceOptions(*app, state->sources, compiler_flags);
  // A whole number in the vendor's unit, or N% of the device's maximum (every vendor at once).
  app->add_option_function<std::string>(
         "--min-occupancy",
         [state](const std::string &value) {
           if (std::optional<int> percent = occupancyPercent(value)) {
             state->flags.min_occupancy_percent = percent;
             state->flags.min_occupancy.reset();
           } else {
             state->flags.min_occupancy = std::stoi(value);  // a whole number: checked below
             state->flags.min_occupancy_percent.reset();
           }
         },
         "Fail below this occupancy: waves/SIMD (AMD), warps/SM (NVIDIA), threads/Xe-core (Intel), or N% of "
         "the device's maximum (any vendor)")
      ->type_name("N|N%")
      ->check(CLI::Validator(
          [](std::string &value) -> std::string {
            if (!value.empty() && value.back() == '%') {
              try {
                occupancyPercent(value);
                return "";
              } catch (const Error &e) {
                return e.what();
              }
            }
            std::string copy = value;
            return wholeNumber(1)(copy).empty() ? ""
                                                : "must be a whole number of at least 1 (the vendor's unit) or "
                                                  "a percent such as 50%, not '" +
                                                      value + "'";
          },
          "N|N%"));
  app->add_option("--max-spills", state->flags.max_spills,
                  "Fail above this many spilled registers (AMD), bytes of spill stores (NVIDIA), "
                  "spill bytes per thread (Intel)")
      ->check(wholeNumber(0));
  app->add_option("--max-scratch", state->flags.max_scratch, "Fail above this many scratch bytes per lane")
      ->check(wholeNumber(0));
  app->add_option("--max-loop-spills", state->flags.max_loop_spills,
                  "Fail above this many spill stores and reloads inside loops (AMD, read from the .s)")
      ->check(wholeNumber(0));
  app->add_option("--baseline", state->baseline_path, "Fail only on regressions against this baseline");
  app->add_flag("--update-baseline", state->update_baseline,
                "Rewrite the analysed files' entries of the baseline with the current figures")
      ->needs(app->get_option("--baseline"));
  app->add_flag("--exit-zero", state->exit_zero, "Exit 0 even when a rule fails (errors still exit 2)");
  app->add_option("--log", state->logs,
                  "Judge this build log's resource remarks (-Rpass-analysis=kernel-resource-usage) instead of "
                  "compiling; one arch per log, named by --offload-arch")
      ->type_name("FILE")
      ->allow_extra_args(false)  // one log per --log, so a file after it stays a file
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app->add_flag("--allow-unknown", state->allow_unknown,
                "List kernels whose figures could not be read (or are impossible) and judge the rest, instead of "
                "exiting 2");
  addCollectFlag(*app, state->sources);
  addShardOption(*app, state->sources.shard);
  addReportFlag(*app, state->sources);
  addOutputOptions(*app, state->output, /*ci_formats=*/true);

  return {app, [state]() -> int {
            std::vector<std::string> inputs = inputPaths(state->sources, workingDirectory());
            inputs.insert(inputs.end(), state->logs.begin(), state->logs.end());
            if (!state->logs.empty() && (!state->sources.files.empty() || !state->sources.database.empty()))
              throw Error("--log judges a build's own remarks: give the log or the sources (FILE, -p), not both");
            if (!state->logs.empty() && !state->sources.collect_dir.empty())
              throw Error("--log and --collect both name what to judge: give one");
            if (!state->baseline_path.empty()) inputs.push_back(state->baseline_path);
            refuseOverwritingInputs(inputs, state->output.path);
            Config config = prepareSources(state->sources);
            applyThresholdFlags(config, state->flags);
            std::optional<Baseline> baseline;
            std::string root;
            if (!state->baseline_path.empty()) {
              baseline = readBaseline(state->baseline_path);
              root = baselineRoot(state->baseline_path);
            }

            Report report;
            bool unread = false;
            if (artifactInputs(state->sources)) {
              const bool loop_spills = judgesLoopSpills(config) || baseline.has_value() || state->update_baseline;
              report = artifactsReport(state->sources, state->allow_unknown, loop_spills, unread);
            } else if (!state->logs.empty()) {
              report = logsReport(state->logs, state->sources, stderrMessages());
            } else {
              // Only headers that no recorded source includes: nothing to compile, nothing to judge.
              const bool only_unincluded_headers =
                  gateHeadersThroughSources(state->sources.files, state->sources.database, baseline, root,
                                            workingDirectory(), stderrMessages()) &&
                  state->sources.files.empty() && state->sources.database.empty() && state->sources.collect_dir.empty();
              state->sources.analyze.dependencies = true;  // --update-baseline records them
              if (!only_unincluded_headers) report = sourcesReport(state->sources, stderrMessages());
            }
            checkReachable(config, report);
            warnAboutRules(config, report, baseline.has_value(), stderrMessages());
            GateResult result = checkThresholds(report, config);
            result.allow_unknown = state->allow_unknown;
            result.update_baseline = state->update_baseline;
            if (baseline) compareWithBaseline(report, *baseline, root, result);
            result.exit_zero = state->exit_zero;
            // A known artifact not read (listed above), or kernels read and none judged: never a pass.
            result.run_not_judged = unread ? "a known artifact was not read" : judgedNone(report, result);
            const GateOutcome outcome = gateOutcome(report, result);
            if (!report.errors.empty()) reportErrors(report);  // each file's error, before the verdicts
            reportUnjudged(report, state->allow_unknown, stderrMessages());
            if (state->update_baseline &&
                (outcome == GateOutcome::Pass || outcome == GateOutcome::Accepted || outcome == GateOutcome::Fail)) {
              // Read again under the lock: another gate may have updated it since the read above.
              // Kernels not judged (or that cannot launch) keep their old entry, never a figure not read.
              updateBaselineFile(state->baseline_path,
                                 [&](const Baseline &now) { return updatedBaseline(now, report, root); });
              throwIfInterrupted();  // a signal during the write: the file is whole (old or new); the run ends 128+N
              stderrMessages().plain("baseline " + state->baseline_path + " updated for " +
                                     std::to_string(report.inputs.size()) + " file" +
                                     (report.inputs.size() == 1 ? "" : "s"));
            }
            // The verdict line last: its word and the exit code come from one outcome.
            emit(state->output, *gateView(report, result, gateFindings(result), baseline ? &*baseline : nullptr, root));
            return gateExitCode(outcome);
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
  addShardOption(*app, state->sources.shard);
  addReportFlag(*app, state->sources);
  return {app, [state]() -> int {
            refuseOverwritingInputs(inputPaths(state->sources, workingDirectory()), state->output);
            const Config config = prepareSources(state->sources);
            state->sources.analyze.dependencies = true;  // gate HEADER finds the sources that include it
            std::error_code ec;
            const bool exists = fs::exists(state->output, ec);
            if (exists) readBaseline(state->output);  // a broken one fails before anything compiles
            const std::string root = baselineRoot(state->output);
            bool unread = false;
            Report report = artifactInputs(state->sources)
                                ? artifactsReport(state->sources, state->allow_unknown, /*loop_spills=*/true, unread)
                                : sourcesReport(state->sources, stderrMessages());
            if (unread) return kExitError;                            // nothing written: a known artifact was not read
            if (!report.errors.empty()) return reportErrors(report);  // a partial baseline would lose kernels
            if (reportUnjudged(report, state->allow_unknown, stderrMessages())) return kExitError;  // nothing written
            // Kernels read and none recorded (an arch with no table, all unjudged): nothing written, exit 2.
            if (const std::string none = judgedNone(report, checkThresholds(report, config)); !none.empty()) {
              printError("baseline " + state->output + ": " + none + "; nothing written");
              return kExitError;
            }
            const Baseline updated = updateBaselineFile(
                state->output, [&](const Baseline &now) { return updatedBaseline(now, report, root); });
            throwIfInterrupted();  // a signal during the write: the file is whole (old or new); the run ends 128+N
            stderrMessages().plain(baselineWrittenMessage(report, updated, state->output, root));
            return 0;
          }};
}

}  // namespace regscope
