// ptxas -v / nvlink output and PTX launch bounds, then the CUDA model.
#include "fuzz_util.h"
#include "regscope/backends/nvidia/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/report/report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  fuzz::expectOnlyErrors([&] {
    FactSet ptxas = parsePtxas(fuzz::text(data, size), "sm_80");
    FactSet bounds = parsePtxLaunchBounds(fuzz::text(data, size), "sm_80");
    Report report;
    addKernels(report, mergeFacts({ptxas, bounds}));
    LaunchOverrides launch;
    launch.dynamic_shared = 1 << 20;
    launch.carveout_percent = 50;
    addKernels(report, mergeFacts({ptxas, bounds}), launch);
  });
  return 0;
}
