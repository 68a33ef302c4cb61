// Make-style dependency files (-MD -MF), which the cache reads.
#include "fuzz_util.h"
#include "regscope/support/depfile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  regscope::fuzz::expectOnlyErrors(
      [&] { regscope::parseDependencyFile(std::string(regscope::fuzz::text(data, size))); });
  return 0;
}
