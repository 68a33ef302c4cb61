// The collect stage over one ocloc run.
#include <algorithm>
#include <filesystem>
#include <set>

#include "regscope/backends/intel/collect.h"
#include "regscope/support/symbols.h"

namespace regscope {
namespace {

std::vector<std::string> lines(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    out.emplace_back(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
  }
  return out;
}

bool startsWith(const std::string &s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

// ocloc hands the source to its front end as a buffer named "1": "1:5:10:
// error: ..." is line 5 of the file compiled. Headers keep their paths.
std::string withSourceName(const std::string &line, const std::string &source) {
  std::size_t i = 2;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
    return i > start && i < line.size() && line[i] == ':';
  };
  if (!startsWith(line, "1:") || !digits() || (++i, !digits())) return line;
  return source + line.substr(1);
}

}  // namespace

std::vector<FactSet> collectOclocFacts(const OclocOutput &output, const std::string &arch) {
  std::vector<FactSet> sets;
  if (!output.zebin.empty()) sets.push_back({"zebin", parseZebin(output.zebin, arch), {}});
  FactSet log{"ocloc log", parseOclocLog(output.log, arch), {}};
  // IGC warns about every kernel that spills, so a kernel without a warning
  // in a run that succeeded spilled nothing.
  std::set<std::string> warned;
  for (const KernelFacts &k : log.kernels) warned.insert(k.name);
  if (!sets.empty())
    for (const KernelFacts &k : sets.front().kernels)
      if (!warned.count(k.name)) {
        KernelFacts clean;
        static_cast<KernelIdentity &>(clean) = k;
        clean.is_kernel = k.is_kernel;
        clean.set(Field::SpillGrfs, 0);
        log.kernels.push_back(std::move(clean));
      }
  sets.push_back(std::move(log));
  if (!output.shader_dump.empty()) sets.push_back({"IGC dump", parseShaderDump(output.shader_dump, arch), {}});
  return sets;
}

CollectedRun collectIntelRun(const OclocOutput &output, const std::string &arch, const std::string &compiled_source,
                             const SourceReader &read) {
  CollectedRun run;
  run.producer = "ocloc" + (output.version.empty() ? std::string() : " " + output.version);
  run.records = mergeFacts(collectOclocFacts(output, arch));
  // ocloc names no source line: find each kernel's declaration in an OpenCL C
  // source (a SPIR-V module is no text to search).
  const bool spirv = std::filesystem::path(compiled_source).extension() == ".spv";
  const std::string source = spirv ? "" : read(compiled_source).value_or("");
  const int count = static_cast<int>(std::count(source.begin(), source.end(), '\n')) + 1;
  for (KernelRecord &record : run.records) {
    record.file = compiled_source;
    record.line = source.empty() ? 0 : findDeclarationLine(source, count, functionBaseName(record.demangled));
    if (record.line == count) record.line = 0;  // not found (a kernel declared through a macro, say)
  }
  return run;
}

std::vector<std::string> oclocErrorLines(std::string_view log, const std::string &source) {
  std::vector<std::string> errors;
  std::string last;
  for (const std::string &line : lines(log)) {
    if (startsWith(line, "Unrecognized build options") ||
        line.find("Cannot get HW Info for device") != std::string::npos ||
        line.find("does not look like spirv") != std::string::npos)
      return {line};
    if (line.find("error:") != std::string::npos && errors.size() < 3) errors.push_back(withSourceName(line, source));
    // Anything else: ocloc's last word, which is not the command it echoes.
    if (!line.empty() && !startsWith(line, "Command was:")) last = line;
  }
  if (errors.empty() && !last.empty()) errors.push_back(last);
  return errors;
}

}  // namespace regscope
