// Baseline files: what is read back writes the same baseline again.
#include "fuzz_util.h"
#include "regscope/gate/gate.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  fuzz::expectOnlyErrors([&] {
    const Baseline baseline = baselineFromText(std::string(fuzz::text(data, size)), "baseline.json");
    const std::string written = baselineToText(baseline);
    if (baselineToText(baselineFromText(written, "written.json")) != written) __builtin_trap();
  });
  return 0;
}
