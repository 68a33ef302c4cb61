// .regscope.json, and the thresholds it gives a kernel.
#include "fuzz_util.h"
#include "regscope/gate/gate.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  fuzz::expectOnlyErrors([&] {
    const Config config = configFromText(std::string(fuzz::text(data, size)), ".regscope.json");
    KernelRecord record;
    record.name = "_Z6kernelPf";
    record.demangled = "kernel(float*)";
    thresholdsFor(config, record);
  });
  return 0;
}
