// Device assembly (.s): comments, metadata YAML, directives and LLVM 20+
// expressions, then the model with the compiler figure it names.
#include "fuzz_util.h"
#include "regscope/backends/amd/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/report/report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  fuzz::expectOnlyErrors([&] {
    AsmFile file = parseAsm(fuzz::text(data, size));
    Report report;
    report.compiler_version = file.producer;
    addKernels(report, mergeFacts({file.facts}));
  });
  return 0;
}
