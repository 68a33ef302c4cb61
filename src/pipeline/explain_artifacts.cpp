// explain over artifacts (include/regscope/pipeline/explain.h): the kernels
// parse reads, each kernel's assembly as its backend finds and reads it
// through the isa stage (Backend::artifactIsaPath, readArtifactIsa; AMD: the
// .s, .amdgcn, or a code object with .debug_line), lines attributed to the
// files its line table names (for Triton, the Python file).
#include <map>
#include <memory>
#include <optional>

#include "jobs.h"
#include "regscope/backend/backend.h"
#include "regscope/pipeline/explain.h"
#include "regscope/pipeline/parse_tree.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"

namespace regscope {
namespace {

// The files the function's lines name, as their debug info names them (a Python file that is not on
// this machine: its lines without their text); the kernel's file is the one most instructions count for.
void readSources(KernelIsa &kernel) {
  readSourceFiles(kernel, [](const std::string &path) { return path; });
  kernel.kernel_file = kernel.main_file;
}

}  // namespace

ExplainedReport explainArtifacts(const std::vector<std::string> &inputs, const ParseOptions &options) {
  ExplainedReport out;
  out.report = parseInputs(inputs, options).report;
  struct Read {
    std::shared_ptr<const IsaReport> isa;
    std::string error;
    bool no_lines = false;  // a code object without .debug_line
  };
  std::map<std::string, Read> read;  // by assembly path
  for (const KernelReport &k : out.report.kernels) {
    const KernelRecord &record = k.record;
    KernelIsa kernel;
    const Backend &backend = backendFor(record.vendor);
    if (std::string why = backend.noArtifactLineFigures(); !why.empty()) {
      kernel.missing = std::move(why);
      out.kernels.push_back(std::move(kernel));
      continue;
    }
    const std::string path = backend.artifactIsaPath(record);
    auto [slot, fresh] = read.try_emplace(path);
    if (fresh) {
      try {
        if (std::optional<IsaReport> isa = backend.readArtifactIsa(record, path))
          slot->second.isa = std::make_shared<const IsaReport>(std::move(*isa));
        else
          slot->second.no_lines = true;
      } catch (const Error &e) {
        slot->second.error = e.what();
      }
    }
    if (slot->second.no_lines) {
      kernel.missing = backend.noArtifactLines(record);
      out.kernels.push_back(std::move(kernel));
      continue;
    }
    kernel.isa = slot->second.isa;
    if (kernel.isa)
      for (std::size_t f = 0; f < kernel.isa->functions.size(); ++f)
        if (kernel.isa->functions[f].name == record.name) kernel.function = static_cast<int>(f);
    if (kernel.get()) {
      readSources(kernel);
    } else if (!slot->second.error.empty()) {
      // explain was asked for lines it cannot give (an arch LLVM 15 cannot decode, a damaged file): an
      // error (exit 2), said once per file; the kernel's figures, read by parse, are still shown.
      kernel.missing = "its lines could not be read (the error says why)";
      if (fresh)
        out.report.errors.push_back({path, record.arch, path + ": no lines to explain: " + slot->second.error});
    } else {
      kernel.missing = path + " has no function " + record.name;
    }
    out.kernels.push_back(std::move(kernel));
  }
  return out;
}

}  // namespace regscope
