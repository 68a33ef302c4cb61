// A zebin (an ELF for Intel GT): its .ze_info section through LLVM's object
// library, then the whole collect stage of one ocloc run (collectIntelRun:
// the zebin with an empty log, every kernel resolved against no source) and
// the Intel model.
#include "fuzz_util.h"
#include "regscope/backends/intel/collect.h"
#include "regscope/report/report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  fuzz::expectOnlyErrors([&] {
    OclocOutput output;
    output.zebin = std::string(fuzz::text(data, size));
    const SourceReader read = [](const std::string &) -> std::optional<std::string> { return std::nullopt; };
    CollectedRun run = collectIntelRun(output, "pvc", "k.spv", read);
    Report report;
    addKernels(report, run.records);
  });
  return 0;
}
