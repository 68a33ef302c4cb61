// explain on artifacts, the AMD part (include/regscope/backends/amd/isa.h):
// a kernel's assembly (.s, .amdgcn; a Triton entry's .amdgcn beside its
// .hsaco; else a device code object with .debug_line, disassembled back to
// assembly: code_object_text.h) through the isa stage.
#include <llvm/Config/llvm-config.h>

#include <filesystem>

#include "mc_target.h"
#include "regscope/backends/amd/code_object_text.h"
#include "regscope/backends/amd/isa.h"
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
// FeatureISAVersion9_4_Common); their assembly is read as gfx940's. LLVM 19
// (CMake's REGSCOPE_LLVM=19) knows them: each is read as itself.
//
// Neither knows gfx950 (LLVM 20): its instruction set is gfx942's plus new
// ones (FeatureISAVersion9_5_Common: MFMAs, conversions, ds_read_*_tr_*,
// v_permlane*_swap, v_bitop3), none a branch or a scratch access, so its
// assembly text is read as gfx942's. The instructions the stand-in cannot read
// leave per-line registers unread (IsaFunction::has_liveness) and are counted
// in the notes; spill sites and loop depths stand unless one of them could
// branch or reach private memory (mc_reader.cpp). Its code objects are not
// disassembled so: a gfx950 encoding decoded as gfx942's is not an instruction.
std::string mcArch(const std::string &arch, bool text) {
#if LLVM_VERSION_MAJOR < 19
  if (arch == "gfx941" || arch == "gfx942" || (text && arch == "gfx950")) return "gfx940";
#else
  if (text && arch == "gfx950") return "gfx942";
#endif
  return arch;
}

// The .amdgcn_target directive names the arch the text was written for; LLVM
// 15's parser refuses one it does not know, so the line is blanked (kept as a
// line, so that line numbers still match the file).
std::string readableAssembly(std::string text, const std::string &arch) {
  if (mcArch(arch, /*text=*/true) == arch) return text;
  for (std::size_t at = text.find(".amdgcn_target"); at != std::string::npos;
       at = text.find(".amdgcn_target", at + 1)) {
    const std::size_t end = text.find('\n', at);
    text.replace(at, (end == std::string::npos ? text.size() : end) - at, "");
  }
  return text;
}

// Said where a text was read through a stand-in arch whose instruction set is
// smaller: one its code objects are not read as (gfx941/gfx942 are gfx940's set).
void noteStandIn(IsaReport &report, const std::string &arch) {
  if (mcArch(arch, /*text=*/true) == mcArch(arch, /*text=*/false)) return;
  report.notes.push_back(std::string(amdgpu_mc::kLinkedLlvm) + " does not know " + arch + ": its assembly is read as " +
                         mcArch(arch, /*text=*/true) + "'s, an instruction set it extends");
}

}  // namespace

std::string artifactIsaPath(const KernelRecord &record) {
  // No assembly: the code object itself, disassembled, when it has line info.
  const std::string assembly = assemblyOf(record);
  return assembly.empty() ? record.file : assembly;
}

std::optional<IsaReport> readArtifactIsa(const KernelRecord &record, const std::string &path) {
  const bool code_object = assemblyOf(record).empty();
  std::optional<std::string> text = code_object
                                        ? assemblyOfCodeObject(readFile(path), mcArch(record.arch, /*text=*/false))
                                        : readableAssembly(readFile(path), record.arch);
  if (!text) return std::nullopt;
  IsaReport report = analyzeAmdgpuAssembly(*text, mcArch(record.arch, /*text=*/!code_object));
  if (!code_object) noteStandIn(report, record.arch);
  return report;
}

std::map<std::string, KernelSpills> kernelSpillTotals(std::string_view assembly, const std::string &arch) {
  std::map<std::string, KernelSpills> totals;
  if (arch.empty()) return totals;
  IsaOptions options;
  options.estimate = false;
  options.spills_only = true;
  // The .set lines (LLVM 20+'s resource symbols) are blanked, keeping the line
  // numbers: the instructions do not name them, and LLVM 15's expression
  // evaluator fails hard on hostile ones (INT64_MIN / -1, 30,000 parentheses).
  std::string text = readableAssembly(std::string(assembly), arch);
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::size_t first = text.find_first_not_of(" \t", start);
    if (first < end && text.compare(first, 4, ".set") == 0) {
      text.erase(start, end - start);
      end = start;
    }
    start = end + 1;
  }
  try {
    const IsaReport report = analyzeAmdgpuAssembly(text, mcArch(arch, /*text=*/true), options);
    for (const IsaFunction &f : report.functions) {
      if (!f.is_kernel || !f.spill_totals.loops_known) continue;
      totals[f.name] = {f.spill_totals, firstLoopSpill(report, f)};
    }
  } catch (const Error &) {
    totals.clear();  // an arch LLVM 15 does not know, or no instruction: unknown, never 0
  }
  return totals;
}

std::string noArtifactLines(const KernelRecord &record) {
  return "explain reads a kernel's AMD assembly (.s, .amdgcn) or a code object with line info: " + record.file +
         " has no device code object with .debug_line (name its .s, or compile with -g)";
}

}  // namespace regscope
