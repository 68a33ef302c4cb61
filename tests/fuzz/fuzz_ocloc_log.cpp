// ocloc's log: IGC's spill warnings in every form (parseOclocLog), the error
// lines shown when ocloc fails (oclocErrorLines), the log's fact set as one
// run collects it, then the Intel model (the [target] prefix names the device).
#include <climits>

#include "fuzz_util.h"
#include "regscope/backends/intel/collect.h"
#include "regscope/report/report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  const std::string_view log = fuzz::text(data, size);
  oclocErrorLines(log, "k.cl");
  for (const char *arch : {"pvc", "dg2-g10:large-grf"}) {
    fuzz::expectOnlyErrors([&] {
      OclocOutput output;
      output.log = std::string(log);
      Report report;
      addKernels(report, mergeFacts(collectOclocFacts(output, arch)));
      LaunchOverrides launch;
      launch.dynamic_slm = INT_MAX;  // the most --dynamic-slm accepts
      launch.block_size = 1024;      // and --block-size
      addKernels(report, mergeFacts({{"ocloc log", parseOclocLog(log, arch)}}), launch);
    });
  }
  return 0;
}
