// explain over artifacts (include/regscope/pipeline/explain.h): the kernels
// parse reads, each AMD kernel's assembly (.s, .amdgcn; a Triton entry's
// .amdgcn beside its .hsaco; else a device code object with .debug_line,
// disassembled back to assembly: code_object_text.h) through the isa stage,
// lines attributed to the files its .loc directives name (for Triton, the
// Python file).
#include <filesystem>
#include <map>
#include <sstream>

#include "jobs.h"
#include "regscope/backend/backend.h"
#include "regscope/backends/amd/code_object_text.h"
#include "regscope/backends/amd/isa.h"
#include "regscope/pipeline/explain.h"
#include "regscope/pipeline/parse_tree.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// The .s of a kernel read from `file`: the file itself when it is assembly,
// else a Triton entry's .amdgcn beside its code object. Empty: none.
std::string assemblyOf(const KernelRecord &record) {
  const fs::path file(record.file);
  const std::string ext = file.extension().string();
  if (ext == ".s" || ext == ".amdgcn") return record.file;
  if (record.triton) {
    const fs::path beside = file.parent_path() / (file.stem().string() + ".amdgcn");
    std::error_code ec;
    if (fs::is_regular_file(beside, ec)) return beside.string();
  }
  return "";
}

// LLVM 15 (the isa stage's MC layer) knows gfx940 but not its later steppings
// gfx941 and gfx942, which share its instruction set (LLVM's
// FeatureISAVersion9_4_Common); their assembly is read as gfx940's.
std::string mcArch(const std::string &arch) {
  if (arch == "gfx941" || arch == "gfx942") return "gfx940";
  return arch;
}

// The .amdgcn_target directive names the arch the text was written for; LLVM
// 15's parser refuses one it does not know, so the line is blanked (kept as a
// line, so that line numbers still match the file).
std::string readableAssembly(std::string text, const std::string &arch) {
  if (mcArch(arch) == arch) return text;
  for (std::size_t at = text.find(".amdgcn_target"); at != std::string::npos;
       at = text.find(".amdgcn_target", at + 1)) {
    const std::size_t end = text.find('\n', at);
    text.replace(at, (end == std::string::npos ? text.size() : end) - at, "");
  }
  return text;
}

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
    if (std::string why = backendFor(record.vendor).noArtifactLineFigures(); !why.empty()) {
      kernel.missing = std::move(why);
      out.kernels.push_back(std::move(kernel));
      continue;
    }
    // No assembly: the code object itself, disassembled, when it has line info.
    std::string path = assemblyOf(record);
    const bool code_object = path.empty();
    if (code_object) path = record.file;
    auto [slot, fresh] = read.try_emplace(path);
    if (fresh) {
      try {
        std::optional<std::string> text = code_object ? assemblyOfCodeObject(readFile(path), mcArch(record.arch))
                                                      : readableAssembly(readFile(path), record.arch);
        if (text)
          slot->second.isa = std::make_shared<const IsaReport>(analyzeAmdgpuAssembly(*text, mcArch(record.arch)));
        else
          slot->second.no_lines = true;
      } catch (const Error &e) {
        slot->second.error = e.what();
      }
    }
    if (slot->second.no_lines) {
      kernel.missing =
          "explain reads a kernel's AMD assembly (.s, .amdgcn) or a code object with line info: " + record.file +
          " has no device code object with .debug_line (name its .s, or compile with -g)";
      out.kernels.push_back(std::move(kernel));
      continue;
    }
    kernel.isa = slot->second.isa;
    if (kernel.isa)
      for (std::size_t f = 0; f < kernel.isa->functions.size(); ++f)
        if (kernel.isa->functions[f].name == record.name) kernel.function = static_cast<int>(f);
    if (kernel.get())
      readSources(kernel);
    else
      kernel.missing = !slot->second.error.empty() ? path + " could not be read: " + slot->second.error
                                                   : path + " has no function " + record.name;
    out.kernels.push_back(std::move(kernel));
  }
  return out;
}

}  // namespace regscope
