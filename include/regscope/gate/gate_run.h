// What a gate or baseline run decides around the verdicts: the baseline file
// it reads, the thresholds the flags add, a header judged through the sources
// that include it, the warnings before a pass is trusted, the kernels it
// cannot judge, and what a baseline run wrote.
#pragma once

#include <string>
#include <vector>

#include "regscope/gate/gate.h"
#include "regscope/support/messages.h"

namespace regscope {

// A baseline to compare with or update: read before anything compiles, so a
// broken one fails fast and stays untouched. Throws regscope::Error.
Baseline readBaseline(const std::string &path);

// The command line's thresholds (those given) over the config's defaults.
void applyThresholdFlags(Config &config, const Thresholds &flags);

// A header is judged through the sources that include it: those whose
// recorded dependencies (the baseline's) name it, else every entry of the
// compile database (`database`). Without either, nothing says which kernels
// it changes: an error, never a pass. `files` becomes the sources to compile
// (empty with a database: every entry); names are relative to `cwd` when below it.
// False when no input was a header (nothing changed).
bool gateHeadersThroughSources(std::vector<std::string> &files, const std::string &database,
                               const std::optional<Baseline> &baseline, const std::string &root, const std::string &cwd,
                               const Messages &say);

// A threshold no kernel can ever meet is a mistake, not a failure: throws regscope::Error.
void checkReachable(const Config &config, const Report &report);

// What a user should hear about a config and a run before trusting a pass:
// no rules at all, no kernels checked, ignore and kernels entries that match
// no kernel of this run.
void warnAboutRules(const Config &config, const Report &report, bool baseline, const Messages &say);

// Kernels the gate cannot judge (a figure not read, or one the target cannot
// have): each is one line, an error unless `allow_unknown` (then a warning).
// True when the run must stop (exit 2).
bool reportUnjudged(const Report &report, bool allow_unknown, const Messages &say);

// "wrote 3 kernels judged to F (1 not judged) (kept 2 entries of other files)":
// what `regscope baseline` says after writing `updated` to `path`.
std::string baselineWrittenMessage(const Report &report, const Baseline &updated, const std::string &path,
                                   const std::string &root);

}  // namespace regscope
