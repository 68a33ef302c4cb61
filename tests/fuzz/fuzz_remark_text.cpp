// Remarks as text (stderr, build logs), then the AMD model over what they say.
#include "fuzz_util.h"
#include "regscope/backends/amd/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/report/report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  fuzz::expectOnlyErrors([&] {
    Report report;
    addKernels(report, mergeFacts({parseRemarkText(fuzz::text(data, size), "gfx90a")}));
  });
  fuzz::expectOnlyErrors([&] { parseRemarkText(fuzz::text(data, size), ""); });
  return 0;
}
