// Optimisation records (.opt.yaml) through LLVM's remarks library, then the model.
#include "fuzz_util.h"
#include "regscope/backends/amd/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/report/report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  fuzz::expectOnlyErrors([&] {
    Report report;
    addKernels(report, mergeFacts({parseRemarkYaml(fuzz::text(data, size), "gfx90a")}));
  });
  return 0;
}
