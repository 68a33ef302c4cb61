// The AMD backend's isa reader: the .s through LLVM's MC layer
// (include/regscope/isa/isa.h has the method and the report).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "regscope/collect/kernel_record.h"
#include "regscope/isa/isa.h"

namespace regscope {

// AMD: `assembly` is an AMDGPU .s as hipcc/clang write it; `arch` the target
// ("gfx90a", "gfx908", "gfx90a:xnack-"). Throws regscope::Error when the arch is
// unknown to LLVM 15 or the text holds no AMDGPU instruction at all.
IsaReport analyzeAmdgpuAssembly(std::string_view assembly, std::string_view arch, const IsaOptions &options = {});

// explain on artifacts (src/backends/amd/artifact_isa.cpp): the file a
// record's per-line figures are read from, its assembly (.s, .amdgcn; a
// Triton entry's .amdgcn beside its .hsaco), else the code object itself;
// that file through the isa stage (a code object disassembled back to
// assembly when it has .debug_line), std::nullopt when it has none; and what
// explain says then. Throws regscope::Error when the file cannot be read.
std::string artifactIsaPath(const KernelRecord &record);
std::optional<IsaReport> readArtifactIsa(const KernelRecord &record, const std::string &path);
std::string noArtifactLines(const KernelRecord &record);

// The spill sites' totals of each kernel (by symbol) of an AMD .s written for
// `arch` (the .s's .amdgcn_target; gfx941/gfx942 read as gfx940), with the
// line of its first spill in a loop (firstLoopSpill: explain's line, the
// inlined call site in the kernel's file; line 0 when none). Empty when LLVM 15
// cannot read the arch or the text: the figures it gives stay unknown.
struct KernelSpills {
  SpillTotals totals;
  SourcePlace first_in_loop;
};
std::map<std::string, KernelSpills> kernelSpillTotals(std::string_view assembly, const std::string &arch);

}  // namespace regscope
