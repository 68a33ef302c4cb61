// The JSON documents of the views (docs/json-schema.md), and the CI summary
// of a report. Internal to the views.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "regscope/report/report.h"
#include "regscope/views/view.h"

namespace regscope {

nlohmann::json reportToJson(const Report &report);
// dumpJson(reportToJson(report)) and a newline, byte for byte, written a
// kernel at a time: a report of 100,000 kernels is never one document.
void writeReportJson(const Report &report, std::ostream &out);
// The CI formats' view of a report: its kernels as cases, a summary table, and `findings`.
CiReport ciReport(const Report &report, std::string title, std::vector<Verdict> findings);

}  // namespace regscope
