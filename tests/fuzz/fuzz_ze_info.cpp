// The .ze_info YAML of a zebin (parseZeInfo, LLVM's YAML parser), then the
// Intel model in small and large GRF mode, with and without launch overrides.
#include <climits>

#include "fuzz_util.h"
#include "regscope/backends/intel/collect.h"
#include "regscope/report/report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  fuzz::expectOnlyErrors([&] {
    for (const char *arch : {"pvc", "pvc:large-grf"}) {
      const FactSet set{".ze_info", parseZeInfo(fuzz::text(data, size), arch)};
      Report report;
      addKernels(report, mergeFacts({set}));
      LaunchOverrides launch;
      launch.dynamic_slm = INT_MAX;  // the most --dynamic-slm accepts
      launch.block_size = 1024;      // and --block-size
      addKernels(report, mergeFacts({set}), launch);
    }
  });
  return 0;
}
