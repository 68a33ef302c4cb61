#include "regscope/gate/gate_run.h"

#include <algorithm>
#include <filesystem>

#include "regscope/report/said_once.h"
#include "regscope/source/header_files.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/plural.h"
#include "regscope/support/symbols.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

bool hasRules(const Thresholds &t) {
  return t.min_occupancy || t.min_occupancy_percent || t.max_spills || t.max_scratch || t.max_loop_spills;
}

}  // namespace

Baseline readBaseline(const std::string &path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw Error(path + ": no such baseline (create one with regscope baseline)");
  return baselineFromText(readFile(path), path);
}

void applyThresholdFlags(Config &config, const Thresholds &flags) {
  // The flag's form replaces the config's either way: `--min-occupancy 50%` over `"min_occupancy": 4`.
  if (flags.min_occupancy || flags.min_occupancy_percent) {
    config.defaults.min_occupancy = flags.min_occupancy;
    config.defaults.min_occupancy_percent = flags.min_occupancy_percent;
  }
  if (flags.max_spills) config.defaults.max_spills = flags.max_spills;
  if (flags.max_scratch) config.defaults.max_scratch = flags.max_scratch;
  if (flags.max_loop_spills) config.defaults.max_loop_spills = flags.max_loop_spills;
}

void warnAboutRules(const Config &config, const Report &report, bool baseline, const Messages &say) {
  bool any = hasRules(config.defaults) || baseline;
  for (const KernelSettings &k : config.kernels) any |= hasRules(k.thresholds);
  if (!any)
    say.plain(
        "warning: the gate has no rules: give --min-occupancy, --max-spills, --max-scratch, "
        "a baseline, or defaults in .regscope.json; nothing is checked");
  if (report.kernels.empty() && report.errors.empty()) say.plain("warning: the gate checked no kernels");
  for (const IgnoreEntry &entry : config.ignore) {  // a stale entry would hide a future kernel
    bool matched = false;
    for (const KernelReport &k : report.kernels)
      matched |= KernelSettings{entry.match, {}, {}, {}}.matches(k.record.name, k.record.demangled,
                                                                 functionBaseName(k.record.demangled));
    if (!matched && !report.kernels.empty())
      say.plain("warning: " + config.path + ": ignore entry '" + entry.match + "' matches no kernel of this run");
  }
  for (const KernelSettings &settings : config.kernels) {
    bool matched = false;
    for (const KernelReport &k : report.kernels)
      matched |= settings.matches(k.record.name, k.record.demangled, functionBaseName(k.record.demangled));
    if (!matched && !report.kernels.empty())
      say.warning(config.path + ": kernels entry '" + settings.match + "' matches no kernel of this run");
  }
}

void checkReachable(const Config &config, const Report &report) {
  for (const KernelReport &k : report.kernels) {
    const Thresholds t = thresholdsFor(config, k.record);
    if (t.min_occupancy && k.summary.max_level > 0 && *t.min_occupancy > k.summary.max_level)
      throw Error("--min-occupancy " + std::to_string(*t.min_occupancy) + " can never be met on " + k.record.arch +
                  ": its maximum is " + std::to_string(k.summary.max_level) + " " + occupancyUnit(k.summary.vendor));
  }
}

bool gateHeadersThroughSources(std::vector<std::string> &inputs, const std::string &database,
                               const std::optional<Baseline> &baseline, const std::string &root, const std::string &cwd,
                               const Messages &say) {
  std::vector<std::string> headers, files;
  for (const std::string &f : inputs) (isHeader(f) ? headers : files).push_back(f);
  if (headers.empty()) return false;
  bool whole_database = false;
  for (const std::string &header : headers) {
    const std::optional<std::vector<std::string>> includers =
        baseline ? sourcesIncluding(*baseline, header, root) : std::nullopt;
    if (!includers) {
      if (database.empty())
        throw Error(header + " is a header: the gate judges it through the sources that include it, and " +
                    (baseline ? "this baseline records no dependencies (re-record it with regscope baseline)"
                              : "there is no baseline to say which they are") +
                    "; give --baseline FILE or -p BUILD_DIR");
      whole_database = true;
      say.plain(header + ": no recorded dependencies: gating every HIP source of the compile database");
      continue;
    }
    if (includers->empty()) {
      say.plain(header + ": no source in the baseline includes it: no kernel to gate for it");
      continue;
    }
    std::string list;
    for (const std::string &key : *includers) {
      // A database's second entry of a file is keyed "file#2": the file is what is compiled.
      const std::string file = key.substr(0, key.rfind('#') == std::string::npos ? key.size() : key.rfind('#'));
      std::string path = fs::path(file).is_absolute() ? file : (fs::path(root) / file).string();
      // As the user would name it: relative when below the working directory.
      const fs::path rel = fs::path(path).lexically_relative(cwd);
      if (!cwd.empty() && !rel.empty() && *rel.begin() != "..") path = rel.string();
      if (std::find(files.begin(), files.end(), path) == files.end()) files.push_back(path);
      list += (list.empty() ? "" : ", ") + file;
    }
    say.plain(header + ": gated through the " + std::to_string(includers->size()) +
              (includers->size() == 1 ? " source that includes it: " : " sources that include it: ") + list);
  }
  if (whole_database) files.clear();  // no files with -p: every entry
  inputs = files;
  return true;
}

bool reportUnjudged(const Report &report, bool allow_unknown, const Messages &say) {
  std::vector<std::string> whys;
  for (const KernelReport &k : report.kernels)
    if (std::string why = cannotJudge(k); !why.empty()) whys.push_back(why);
  // One line per cause, however many kernels share it (report/said_once.h).
  // Kernel names and paths are the input's: said escaped (warning, error).
  for (const std::string &line : saidOnce(whys, 3, "cannot judge kernel ")) {
    if (allow_unknown)
      say.warning(line + " (--allow-unknown: not judged)");
    else
      say.error(line);
  }
  return !whys.empty() && !allow_unknown;
}

std::string baselineWrittenMessage(const Report &report, const Baseline &updated, const std::string &path,
                                   const std::string &root) {
  // A file named twice counts once; kernels not judged are not written.
  const Report judged_report = judgedReport(report);
  const std::size_t judged = baselineFromReport(judged_report, root).size();
  const std::size_t kept = updated.size() - std::min(updated.size(), judged);
  std::string text = "wrote " + plural(judged, "kernel", "kernels") + " judged to " + path;
  // Neither a kernel whose figures were not read nor one that can never be resident is recorded;
  // each is counted by its own cause.
  std::size_t cannot_launch = 0;
  for (const KernelReport &k : report.kernels) cannot_launch += cannotJudge(k).empty() && cannotLaunch(k);
  const std::size_t not_judged = report.kernels.size() - judged_report.kernels.size() - cannot_launch;
  if (not_judged) text += " (" + std::to_string(not_judged) + " not judged)";
  if (cannot_launch)
    text += " (" + plural(cannot_launch, "kernel", "kernels") + " that can never be resident not recorded)";
  if (kept) text += " (kept " + plural(kept, "entry", "entries") + " of other files)";
  return text;
}

}  // namespace regscope
