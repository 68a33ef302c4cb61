// IGC's shader dump: the input is one .asm file's text, read as a first try
// and (under its own bytes as the file name) as a retry, so that both the
// header reader and the retry numbering of file names see fuzzed bytes; then
// the Intel model.
#include "fuzz_util.h"
#include "regscope/backends/intel/collect.h"
#include "regscope/report/report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  fuzz::expectOnlyErrors([&] {
    const std::string text(fuzz::text(data, size));
    const std::vector<ShaderDumpFile> files = {{"OCL_asm0_simd32_entry_0001.asm", text}, {text, text}};
    Report report;
    addKernels(report, mergeFacts({{"IGC dump", parseShaderDump(files, "pvc")}}));
  });
  return 0;
}
