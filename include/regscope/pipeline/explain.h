// explain and analyze --lines: the analyze pipeline with each AMD compile's
// .s kept and read by the isa stage (include/regscope/isa/isa.h), so every
// kernel's figures and its per-line pressure come from one and the same compile.
#pragma once

#include <string>
#include <vector>

#include "regscope/isa/kernel_isa.h"
#include "regscope/pipeline/analyze.h"

namespace regscope {

struct ExplainedReport {
  Report report;
  std::vector<KernelIsa> kernels;  // one per report.kernels, same order
};

// The flags explain and --lines add to the user's: line tables (.loc and the
// inline tree). They change no figure (docs/explain.md: 204 kernel/arch pairs).
const std::vector<std::string> &lineTableFlags();

// analyzeJobs with lineTableFlags() added and keep_assembly set, then each
// AMD arch's .s through analyzeAmdgpuAssembly. A .s the isa stage cannot read
// leaves its kernels with `missing` set; the figures are unaffected.
ExplainedReport explainJobs(const std::vector<SourceJob> &jobs, AnalyzeOptions options);

}  // namespace regscope
