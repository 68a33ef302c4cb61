// compile_commands.json: regscope's JSON check, Clang's loader, and the
// flags regscope keeps.
#include "fuzz_util.h"
#include "regscope/backend/backend.h"
#include "regscope/source/source.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  fuzz::expectOnlyErrors([&] {
    jobsFromDatabaseText(fuzz::text(data, size), "compile_commands.json", {},
                         backendFor(defaultVendor()).databaseEntries());
  });
  return 0;
}
