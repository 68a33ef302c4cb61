// explain and analyze --lines: the analyze pipeline with each compile's .s
// (AMD) or cubin (NVIDIA) kept and read by the isa stage (include/regscope/isa/isa.h), so every
// kernel's figures and its per-line pressure come from one and the same compile.
#pragma once

#include <string>
#include <vector>

#include "regscope/isa/kernel_isa.h"
#include "regscope/pipeline/analyze.h"

namespace regscope {

struct ExplainedReport {
  Report report;
  std::vector<KernelIsa> kernels;  // one per report.kernels, same order
};

// analyzeJobs with keep_assembly set (line tables added: -gline-tables-only
// for clang, -lineinfo for nvcc; they change no figure, docs/explain.md), then
// each AMD arch's .s through analyzeAmdgpuAssembly and each NVIDIA arch's cubin
// through nvdisasm (-plr joined with -gi). An output the isa stage cannot read
// leaves its kernels with `missing` set; the figures are unaffected.
ExplainedReport explainJobs(const std::vector<SourceJob> &jobs, AnalyzeOptions options);

// explain on NVIDIA binaries that exist (explain_cubin.cpp): whether `file` is
// a cubin, a fatbin or a host ELF carrying one; and the report parse gives of
// `files`, each kernel's cubin through `nvdisasm` (-c -plr joined with -c -gi:
// line info needs -lineinfo or -G at compile time). Throws regscope::Error
// when `nvdisasm` is empty (not installed) or a file cannot be read.
bool isNvidiaArtifact(const std::string &file);
// The gate's and baseline's loop_spills of NVIDIA kernels with local memory
// (stack_bytes > 0): the STL/LDL in loops of `nvdisasm -c -gi` of each
// kernel's cubin (docs/explain.md, "Spill sites"). A kernel whose cubin or
// branches nvdisasm cannot list keeps it unknown, said in one warning.
void readNvidiaLoopSpills(Report &report, const std::string &nvdisasm, int timeout_seconds);
// The nvdisasm installed here (PATH, $CUDA_PATH/bin, /usr/local/cuda/bin); empty when none.
std::string installedNvdisasm();
ExplainedReport explainNvidiaArtifacts(const std::vector<std::string> &files, const std::string &nvdisasm,
                                       const LaunchOverrides &launch, int timeout_seconds);

struct ParseOptions;
// explain over built artifacts, no compiler: the kernels parseInputs reads
// (files, directories, Triton caches), each AMD kernel's .s (a Triton entry's
// .amdgcn) through analyzeAmdgpuAssembly, its lines attributed to the files
// its .loc directives name (a Triton kernel's: the Python file). gfx941 and
// gfx942 assembly is read as gfx940's (LLVM 15 knows no later name). A kernel
// with no assembly to read has `missing` set (a code object alone, a cubin).
ExplainedReport explainArtifacts(const std::vector<std::string> &inputs, const ParseOptions &options);

// --source-map FROM=TO, spelled as clang's -fdebug-prefix-map: a path the line table names that is FROM,
// or lies under FROM, is read as TO with the rest of the path, so that assembly built on another machine
// (a Triton cache made under /tmp or /opt) shows its source here. The longest FROM that matches wins.
struct SourceMap {
  std::vector<std::pair<std::string, std::string>> prefixes;  // FROM, TO, as given
  std::string apply(const std::string &path) const;           // `path` itself when no FROM matches
};
// Throws regscope::Error, naming the value, for one without '=' or with an empty FROM.
SourceMap parseSourceMap(const std::vector<std::string> &values);
// Reads each kernel's source files again where `map` moves them, and shows them under their new path.
// Returns a warning for each FROM that matched no file, and for each source file not found here (the
// latter says how --source-map would help); each said once.
std::vector<std::string> mapSources(ExplainedReport &explained, const SourceMap &map);

}  // namespace regscope
