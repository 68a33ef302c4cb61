// regscope gate FILE... [thresholds] [--config F] [--baseline F [--update-baseline]] [--exit-zero]
// regscope baseline FILE... [-o regscope-baseline.json]
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <tuple>

#include "commands.h"
#include "regscope/cache/cache.h"
#include "regscope/gate/gate.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"
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
  for (const IgnoreEntry &entry : config.ignore) {  // a stale entry would hide a future kernel
    bool matched = false;
    for (const KernelReport &k : report.kernels)
      matched |= KernelSettings{entry.match, {}, {}, {}}.matches(k.record.name, k.record.demangled,
                                                                 functionBaseName(k.record.demangled));
    if (!matched && !report.kernels.empty())
      std::cerr << "regscope: warning: " << config.path << ": ignore entry '" << entry.match
                << "' matches no kernel of this run\n";
  }
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

// A header is judged through the sources that include it: those whose recorded
// dependencies (the baseline's) name it, else every entry of the compile
// database. Without either, nothing says which kernels it changes: an error,
// never a pass.
// False when no input was a header (nothing changed).
bool gateHeadersThroughSources(SourceOptions &sources, const std::optional<Baseline> &baseline,
                               const std::string &root) {
  std::vector<std::string> headers, files;
  for (const std::string &f : sources.files) (isHeader(f) ? headers : files).push_back(f);
  if (headers.empty()) return false;
  bool whole_database = false;
  for (const std::string &header : headers) {
    const std::optional<std::vector<std::string>> includers =
        baseline ? sourcesIncluding(*baseline, header, root) : std::nullopt;
    if (!includers) {
      if (sources.database.empty())
        throw Error(header + " is a header: the gate judges it through the sources that include it, and " +
                    (baseline ? "this baseline records no dependencies (re-record it with regscope baseline)"
                              : "there is no baseline to say which they are") +
                    "; give --baseline FILE or -p BUILD_DIR");
      whole_database = true;
      std::cerr << "regscope: " << header
                << ": no recorded dependencies: gating every HIP source of the compile database\n";
      continue;
    }
    if (includers->empty()) {
      std::cerr << "regscope: " << header << ": no source in the baseline includes it: no kernel to gate for it\n";
      continue;
    }
    std::string list;
    for (const std::string &key : *includers) {
      // A database's second entry of a file is keyed "file#2": the file is what is compiled.
      const std::string file = key.substr(0, key.rfind('#') == std::string::npos ? key.size() : key.rfind('#'));
      std::string path = fs::path(file).is_absolute() ? file : (fs::path(root) / file).string();
      std::error_code ec;  // as the user would name it: relative when below the working directory
      const fs::path rel = fs::path(path).lexically_relative(fs::current_path(ec));
      if (!ec && !rel.empty() && *rel.begin() != "..") path = rel.string();
      if (std::find(files.begin(), files.end(), path) == files.end()) files.push_back(path);
      list += (list.empty() ? "" : ", ") + file;
    }
    std::cerr << "regscope: " << header << ": gated through the " << includers->size()
              << (includers->size() == 1 ? " source that includes it: " : " sources that include it: ") << list << "\n";
  }
  if (whole_database) files.clear();  // no files with -p: every entry
  sources.files = files;
  return true;
}

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

// The artifacts' report; a known artifact not read is an error (exit 2) unless --allow-unknown.
Report artifactsReport(const SourceOptions &sources, bool allow_unknown, bool &unread) {
  ParseOptions options;
  options.parallel = sources.analyze.parallel;
  options.progress = progressWanted(sources.progress);
  options.cache_dir = sources.no_cache ? "" : ResultCache::defaultDirectory();
  if (sources.block_size) options.launch.block_size = sources.block_size;
  options.launch.dynamic_lds = sources.analyze.launch.dynamic_lds;
  ParsedInputs parsed = readArtifactInputs(sources.files, options, !allow_unknown);
  unread = !parsed.walk.not_read.empty() && !allow_unknown;
  for (const std::string &w : parsed.report.warnings) printWarning(w);
  return std::move(parsed.report);
}

// Kernels the gate cannot judge (a figure not read, or one the target cannot
// have): each is one line, an error unless --allow-unknown. True when the run
// must stop (exit 2).
bool reportUnjudged(const Report &report, bool allow_unknown) {
  bool any = false;
  for (const KernelReport &k : report.kernels)
    if (std::string why = cannotJudge(k); !why.empty()) {
      // Kernel names and paths are the input's: printed escaped (printWarning, printError).
      if (allow_unknown)
        printWarning(why + " (--allow-unknown: not judged)");
      else
        printError(why);
      any = true;
    }
  return any && !allow_unknown;
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
            std::vector<std::string> inputs = inputPaths(state->sources);
            inputs.insert(inputs.end(), state->logs.begin(), state->logs.end());
            if (!state->logs.empty() && (!state->sources.files.empty() || !state->sources.database.empty()))
              throw Error("--log judges a build's own remarks: give the log or the sources (FILE, -p), not both");
            if (!state->logs.empty() && !state->sources.collect_dir.empty())
              throw Error("--log and --collect both name what to judge: give one");
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

            Report report;
            bool unread = false;
            if (artifactInputs(state->sources)) {
              report = artifactsReport(state->sources, state->allow_unknown, unread);
            } else if (!state->logs.empty()) {
              const std::vector<std::string> &archs = state->sources.analyze.archs;
              if (!state->sources.analyze.archs_explicit || archs.size() != 1)
                throw Error("--log: name the log's arch with --offload-arch (one arch: remarks do not say theirs)");
              report = parseArtifacts(state->logs, archs.front());
              for (const std::string &w : report.warnings) std::cerr << "regscope: warning: " << w << '\n';
            } else {
              // Only headers that no recorded source includes: nothing to compile, nothing to judge.
              const bool only_unincluded_headers = gateHeadersThroughSources(state->sources, baseline, root) &&
                                                   state->sources.files.empty() && state->sources.database.empty() &&
                                                   state->sources.collect_dir.empty();
              state->sources.analyze.dependencies = true;  // --update-baseline records them
              if (!only_unincluded_headers) report = sourcesReport(state->sources);
            }
            checkReachable(config, report);
            warnAboutRules(config, report, baseline.has_value());
            GateResult result = checkThresholds(report, config);
            result.allow_unknown = state->allow_unknown;
            if (baseline) compareWithBaseline(report, *baseline, root, result);
            result.exit_zero = state->exit_zero;
            emit(state->output, *gateView(report, result, baseline ? &*baseline : nullptr, root));
            if (!report.errors.empty()) return reportErrors(report);              // never accept a partial run
            if (reportUnjudged(report, state->allow_unknown)) return kExitError;  // never pass what was not read
            if (unread) return kExitError;  // a known artifact this build cannot read (listed above)
            if (state->update_baseline) {
              // Read again under the lock: another gate may have updated it since the read above.
              // Kernels not judged keep their old entry (updatedBaseline), never a figure not read.
              updateBaselineFile(state->baseline_path,
                                 [&](const Baseline &now) { return updatedBaseline(now, report, root); });
              throwIfInterrupted();  // a signal during the write: the file is whole (old or new); the run ends 128+N
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
  addShardOption(*app, state->sources.shard);
  addReportFlag(*app, state->sources);
  return {app, [state]() -> int {
            refuseOverwritingInputs(inputPaths(state->sources), state->output);
            prepareSources(state->sources);
            state->sources.analyze.dependencies = true;  // gate HEADER finds the sources that include it
            std::error_code ec;
            const bool exists = fs::exists(state->output, ec);
            if (exists) readBaseline(state->output);  // a broken one fails before anything compiles
            const std::string root = baselineRoot(state->output);
            bool unread = false;
            Report report = artifactInputs(state->sources)
                                ? artifactsReport(state->sources, state->allow_unknown, unread)
                                : sourcesReport(state->sources);
            if (unread) return kExitError;                            // nothing written: a known artifact was not read
            if (!report.errors.empty()) return reportErrors(report);  // a partial baseline would lose kernels
            if (reportUnjudged(report, state->allow_unknown)) return kExitError;  // nothing written
            const Baseline updated = updateBaselineFile(
                state->output, [&](const Baseline &now) { return updatedBaseline(now, report, root); });
            throwIfInterrupted();  // a signal during the write: the file is whole (old or new); the run ends 128+N
            // A file named twice counts once; kernels not judged are not written.
            const Report judged_report = judgedReport(report);
            const std::size_t judged = baselineFromReport(judged_report, root).size();
            const std::size_t kept = updated.size() - std::min(updated.size(), judged);
            std::cerr << "regscope: wrote " << judged << (judged == 1 ? " kernel" : " kernels") << " judged to "
                      << state->output;
            if (const std::size_t not_judged = report.kernels.size() - judged_report.kernels.size())
              std::cerr << " (" << not_judged << " not judged)";
            if (kept) std::cerr << " (kept " << kept << (kept == 1 ? " entry" : " entries") << " of other files)";
            std::cerr << '\n';
            return 0;
          }};
}

}  // namespace regscope
