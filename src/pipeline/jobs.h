// One job of the analyze pipeline (internal to the pipeline stage).
#pragma once

#include <string>
#include <vector>

#include "regscope/collect/collect.h"
#include "regscope/pipeline/analyze.h"

namespace regscope {

// What one job produced; merged into the report in job order.
struct JobResult {
  std::vector<KernelRecord> records;
  std::string producer;
  std::vector<InputError> errors;
  std::vector<std::string> notes;
};

// A .cl or .spv job: ocloc once per GRF mode of `options.intel_grf`, the
// runs in parallel, each through the result cache; the records of every
// mode, small first. `ocloc` is the resolved compiler.
JobResult runIntelJob(const SourceJob &source, const AnalyzeOptions &options, const std::string &ocloc,
                      const SourceReader &read);

}  // namespace regscope
