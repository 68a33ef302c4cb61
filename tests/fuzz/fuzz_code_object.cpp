// Code objects: device ELFs, offload bundles and host files with .hip_fatbin,
// then the AMD model over their kernels.
#include "fuzz_util.h"
#include "regscope/backends/amd/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/report/report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  fuzz::expectOnlyErrors([&] {
    std::vector<FactSet> sets;
    for (CodeObject &co : parseCodeObjects(fuzz::text(data, size))) sets.push_back(std::move(co.facts));
    Report report;
    addKernels(report, mergeFacts(sets));
  });
  return 0;
}
