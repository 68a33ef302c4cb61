// The reduction of analyze and gate results to findings (Verdicts over the
// rule catalogue), which the CI formats print.
#pragma once

#include <string>
#include <vector>

#include "regscope/gate/gate.h"
#include "regscope/gate/rules.h"
#include "regscope/report/report.h"

namespace regscope {

// A finding about `k` under `rule`, at the rule catalogue's level.
Verdict verdictFor(const KernelReport &k, Rule rule, std::string message);

// `analyze`: one occupancy note per kernel, plus spill and scratch warnings.
std::vector<Verdict> analysisFindings(const Report &report);
// `gate`: failures, then improvements, added/removed and unchecked kernels.
std::vector<Verdict> gateFindings(const GateResult &result);

}  // namespace regscope
