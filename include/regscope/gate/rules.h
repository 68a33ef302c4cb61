// The rule catalogue: every finding regscope reports, with its SARIF id, its
// help text and its default level. `analyze` and `gate` both reduce their
// results to Verdicts over these rules, so each CI format is written once.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace regscope {

enum class Rule {
  Occupancy,     // RS001: analyze's note per kernel
  Spills,        // RS002
  Scratch,       // RS003
  Cliff,         // RS004: a few registers from losing occupancy
  MinOccupancy,  // RS101: thresholds
  MaxSpills,
  MaxScratch,
  OccupancyRegression,  // RS201: against a baseline
  VgprStepRegression,
  SpillRegression,
  ScratchRegression,
  Improved,  // RS301
  Added,
  Removed,
  Unresolved,           // RS304
  Ignored,              // RS305: the config's ignore list
  CannotJudge,          // RS306: a figure not read, or one the target cannot have
  CannotLaunch,         // RS104: its launch can never be resident (a finding whatever the thresholds)
  MaxLoopSpills,        // RS105: spill accesses inside loops over --max-loop-spills
  LoopSpillRegression,  // RS205: more spill accesses inside loops than the baseline
};

// As SARIF and CI annotations name them.
enum class Level { Error, Warning, Note };
const char *levelName(Level level);  // "error", "warning", "note"

struct RuleInfo {
  Rule rule;
  const char *id;       // "RS101"
  const char *name;     // "min-occupancy"
  const char *summary;  // one line
  const char *help;     // what to do about it
  Level level;          // default level
};
const std::vector<RuleInfo> &ruleCatalog();
const RuleInfo &ruleInfo(Rule rule);
inline const char *ruleName(Rule rule) { return ruleInfo(rule).name; }

// One finding about one kernel on one arch.
struct Verdict {
  std::string file;
  int line = 0;
  std::string kernel;  // demangled
  std::string arch;
  Rule rule = Rule::Occupancy;
  std::string message;         // the figures
  Level level = Level::Error;  // the rule's level
  // The figures of a threshold or baseline rule, for the data formats (JSON,
  // CSV): the kernel's value now, the threshold it broke or the baseline's
  // value, and their unit ("waves/SIMD", "registers", "bytes": scratch is
  // bytes per lane, NVIDIA spills and stack bytes per thread).
  std::optional<int> value, limit, before;
  std::string unit;
};

}  // namespace regscope
