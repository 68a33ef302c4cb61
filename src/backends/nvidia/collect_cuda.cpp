// The collect stage over one nvcc run.
#include <algorithm>
#include <optional>
#include <utility>

#include "regscope/backends/nvidia/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/support/symbols.h"

namespace regscope {
namespace {

// "//   Cuda compilation tools, release 13.0, V13.0.88" heads every PTX file.
std::string ptxProducer(const std::string &ptx) {
  const std::size_t at = ptx.find("Cuda compilation tools");
  if (at == std::string::npos) return "";
  return ptx.substr(at, ptx.find('\n', at) - at);
}

// CUDA's, the C++ library's and the system's headers: never where a user's kernel is.
bool isToolchainHeader(const std::string &path) {
  for (const char *prefix : {"/usr/include/", "/usr/lib/", "/usr/local/cuda", "/opt/nvidia/"})
    if (path.rfind(prefix, 0) == 0) return true;
  return path.find("/targets/x86_64-linux/include/") != std::string::npos;
}

}  // namespace

CollectedRun collectCudaRun(const CompileOutput &output, const std::string &compiled_source, const SourceReader &read) {
  CollectedRun run;
  if (!output.archs.empty()) run.producer = ptxProducer(output.archs.front().assembly);
  std::vector<FactSet> sets;
  const bool linked = !output.archs.empty() && !output.archs.front().link_report.empty();
  if (!linked) {
    FactSet ptxas = parsePtxas(output.diagnostics, output.archs.size() == 1 ? output.archs.front().arch : "");
    sets.push_back(std::move(ptxas));
  }
  for (const ArchOutput &arch : output.archs) {
    if (linked) {  // -rdc: only the device link's figures are final
      FactSet link = parsePtxas(arch.link_report, arch.arch);
      link.source = "nvlink";
      sets.push_back(std::move(link));
    }
    sets.push_back(parsePtxLaunchBounds(arch.assembly, arch.arch));
  }
  std::vector<KernelRecord> records = mergeFacts(sets);
  // ptxas names no source line: find each kernel's declaration in the file,
  // else in the project's headers the compile read (a kernel defined in a
  // .cuh, .h or .inl), in the order the compiler read them.
  std::vector<std::pair<std::string, std::string>> texts;  // path, text
  texts.emplace_back(compiled_source, read(compiled_source).value_or(""));
  for (const std::string &header : output.dependencies)
    if (header != compiled_source && !isToolchainHeader(header))
      if (std::optional<std::string> text = read(header)) texts.emplace_back(header, std::move(*text));
  for (KernelRecord &record : records) {
    if (!record.has(Field::Registers)) continue;  // PTX-only entries (no SASS for this arch)
    record.file = compiled_source;
    record.line = 0;  // not found
    for (const auto &[path, text] : texts) {
      const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
      const int line = findDeclarationLine(text, lines, functionBaseName(record.demangled));
      if (line == lines) continue;
      record.file = path;
      record.line = line;
      break;
    }
    run.records.push_back(std::move(record));
  }
  // ptxas lists kernels in reverse source order; report them in source order, per arch.
  std::stable_sort(run.records.begin(), run.records.end(), [&](const KernelRecord &a, const KernelRecord &b) {
    auto rank = [&](const KernelRecord &r) {
      for (std::size_t i = 0; i < output.archs.size(); ++i)
        if (output.archs[i].arch == r.arch) return i;
      return output.archs.size();
    };
    return std::make_pair(rank(a), a.line) < std::make_pair(rank(b), b.line);
  });
  return run;
}

}  // namespace regscope
