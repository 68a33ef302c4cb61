// The analyze pipeline, wired: source -> driver -> collect -> merge -> model.
#pragma once

#include <string>
#include <vector>

#include "regscope/driver.h"
#include "regscope/report.h"

namespace regscope {

struct AnalyzeOptions {
  std::string compiler;                 // empty: $HIPCC, then hipcc on PATH
  std::vector<std::string> archs;       // validated against the arch tables
  std::vector<std::string> extra_flags;
};

// Analyses each HIP file with one compiler run per file. Throws
// regscope::Error for bad input or a failing compile.
Report analyzeFiles(const std::vector<std::string> &files, const AnalyzeOptions &options);

// The collect + merge stage over one compiler run's outputs (no I/O besides
// reading source files to find declaration lines). `compiled_source` is the
// absolute path that was compiled; relative remark paths are resolved
// against its directories. Exposed for tests.
std::vector<KernelRecord> collectRecords(const CompileOutput &output, const std::string &compiled_source,
                                         std::string &producer);

}  // namespace regscope
