// What `regscope parse` does with a file, from its bytes: sniffing (code
// object, .s, optimisation record or build log), the parser it picks, the
// model, and the report in every format (JSON must take any kernel name).
#include "fuzz_util.h"
#include "regscope/gate/findings.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/views/view.h"
#include "regscope/views/views.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace regscope;
  for (const char *arch : {"gfx90a", ""}) {
    fuzz::expectOnlyErrors([&] {
      Artifact artifact = collectArtifact(fuzz::text(data, size), "k-hip-amdgcn-amd-amdhsa-gfx90a.opt.yaml", arch);
      Report report;
      report.compiler_version = artifact.producer;
      addKernels(report, artifact.records);
      std::unique_ptr<View> view = kernelTableView(report, "regscope parse", analysisFindings(report));
      for (Format format :
           {Format::Text, Format::Json, Format::Csv, Format::Markdown, Format::Sarif, Format::Github, Format::Junit})
        render(*view, format);
    });
  }
  return 0;
}
