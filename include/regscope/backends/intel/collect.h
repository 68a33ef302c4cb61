// Intel collectors: ocloc's log, the zebin's .ze_info and IGC's shader-dump
// headers -> KernelFacts (vendor Intel). What each figure means: docs/intel.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "regscope/backends/intel/ocloc.h"
#include "regscope/collect/collect.h"
#include "regscope/collect/kernel_record.h"

namespace regscope {

// ocloc's spill warnings, in every form IGC prints them:
//   warning: kernel NAME  compiled SIMD32 allocated 128 regs and spilled around 874    (22.43)
//   warning: kernel NAME compiled SIMD32 allocated 128 regs and spilled around 396     (Intel's guide)
//   warning: in kernel 'NAME': compiled SIMD32 allocated 128 regs and spilled around 2  (newer IGC)
//   [bmg-g21] warning: in kernel 'NAME': compiled SIMD32 ...                          (multi-target builds)
// Each gives GrfCount, SimdSize and SpillGrfs; arch is the [target] prefix,
// else `arch`. IGC warns only about kernels that spill.
std::vector<KernelFacts> parseOclocLog(std::string_view log, const std::string &arch);

// The .ze_info YAML (read with LLVM's YAML parser), per kernel: GrfCount,
// SimdSize, SlmBytes, Barriers, HasStackCalls, PrivateBytes, SpillBytes,
// EuThreadCount (each when present; 22.43 writes no private_size,
// spill_size or eu_thread_count), MaxWorkgroupSize (required_work_group_size),
// ScratchPerThread and GlobalPrivatePerThread (per_thread_memory_buffers).
// IGC's pseudo-kernel Intel_Symbol_Table_Void_Program (listed when the program
// has program-scope variables) comes back with is_kernel false, so merging
// drops it. Throws regscope::Error when the text is not a .ze_info document.
std::vector<KernelFacts> parseZeInfo(std::string_view yaml, const std::string &arch);

// The .ze_info section of a zebin, read with LLVM's object library (an ELF
// for machine 0xcd, Intel GT). Throws regscope::Error when `zebin` is not one.
std::string zeInfoSection(std::string_view zebin);
// The product-family number in a zebin's .note.intelgt.compat (the "IntelGT" note of type 1), or
// nullopt when the zebin has none.
std::optional<int> zebinProductFamily(std::string_view zebin);
inline std::vector<KernelFacts> parseZebin(std::string_view zebin, const std::string &arch) {
  return parseZeInfo(zeInfoSection(zebin), arch);
}

// IGC shader-dump headers: GrfCount (//.thread_config numGRF=), SpillBytes
// (//.spill size; 0 when absent), PrivateBytes (//.private memory size; 0
// when absent). IGC recompiles a spilling kernel ("..._1_simd32_entry_...")
// and keeps the retry: the highest retry of each kernel is the one that ships.
std::vector<KernelFacts> parseShaderDump(const std::vector<ShaderDumpFile> &files, const std::string &arch);

// Every source of one successful run as fact sets: the zebin (".ze_info"),
// the log ("ocloc log"; a kernel the zebin lists without a warning gets
// SpillGrfs 0) and the dump ("IGC dump"), each when present. `arch` is the
// record's arch (intelTargetName: "pvc", "pvc:large-grf").
std::vector<FactSet> collectOclocFacts(const OclocOutput &output, const std::string &arch);

// One ocloc run, collected: the fact sets merged into one record per kernel,
// each resolved to its declaration line in a .cl source (ocloc names no
// line; a SPIR-V input has none), in the zebin's order. The producer is
// "ocloc <version>".
CollectedRun collectIntelRun(const OclocOutput &output, const std::string &arch, const std::string &compiled_source,
                             const SourceReader &read);

// What a failed ocloc run said, for the user: its first error lines (at most
// three) with the source's name where ocloc wrote its buffer name "1", or
// the line naming an option or device it rejected, else its last words.
std::vector<std::string> oclocErrorLines(std::string_view log, const std::string &source);

}  // namespace regscope
