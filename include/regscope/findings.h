// Findings: what the CI formats (SARIF, GitHub annotations, JUnit, Markdown)
// print. `analyze` and `gate` both reduce to a list of them, described by one
// rule catalogue, so each format is written once for both commands.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "regscope/gate.h"
#include "regscope/report.h"

namespace regscope {

struct RuleInfo {
  const char *id;           // "RS101"
  const char *name;         // "min-occupancy": the rule field of a Verdict
  const char *summary;      // one line
  const char *help;         // what to do about it
  const char *level;        // default level
};
const std::vector<RuleInfo> &ruleCatalog();
const RuleInfo *findRule(const std::string &name);

// `analyze`: one "occupancy" note per kernel, plus spill and scratch warnings.
std::vector<Verdict> analysisFindings(const Report &report);
// `gate`: failures, then improvements, added/removed and unchecked kernels.
std::vector<Verdict> gateFindings(const GateResult &result);

enum class CiFormat { Sarif, Markdown, Github, Junit };
// Prints `findings` about the kernels of `report` in `format`. `title` names
// the run ("regscope analyze", "regscope gate").
void printFindings(CiFormat format, const Report &report, const std::vector<Verdict> &findings,
                   const std::string &title, std::ostream &out);

}  // namespace regscope
