// What the hardware allocates, checked against what the code uses. A kernel's
// VGPRs are said up to four times: the kernel descriptor's allocation (the
// `.amdhsa_next_free_vgpr` directive, COMPUTE_PGM_RSRC1 in a code object: what
// the GPU reads when it launches the kernel), the `NumVGPRsForWavesPerEU`
// comment (the same figure), what the code uses (metadata `.vgpr_count`, the
// `TotalNumVgprs` comment) and the architectural/AGPR split. The allocation is
// what occupancy counts; it may exceed the use (the compiler pads it up to the
// limit of amdgpu-waves-per-eu), never fall short of it.
#pragma once

#include <initializer_list>
#include <optional>

#include "regscope/collect/kernel_record.h"
#include "regscope/target/amdgpu.h"

namespace regscope {

// Merges the readings of one kernel's figures from several parts of one file,
// earliest first. A figure two parts give differently is unknown: reset, listed
// in facts.missing (so the model never falls back to another count), and the
// warning names both readings.
struct Reading {
  const FieldValues *values;
  const char *label;  // "the .s comment", "the code object's metadata", ...
};
void mergeReadings(KernelFacts &facts, std::initializer_list<Reading> readings);

// Checks gfx9's SGPR allocation (`sgprs_allocated`: the descriptor's, extras
// included; gfx10+ hardware ignores it) against what the code uses (Sgprs):
// fewer granules make Sgprs unknown, with a warning. Then rounds the
// allocation (VgprsTotal) to the granule the hardware reads it in,
// then checks it against the use: VgprsUsed, the VGPR
// and AGPR counts and, on gfx90a+, the AGPRs' start (AccumOffset). An
// allocation smaller than what the code uses is a contradiction no rule
// explains: the allocation becomes unknown, with a warning. `arch` may be null
// (a target regscope does not know): only the target-free checks are made.
// `sgprs_exact`: `sgprs_allocated` is a .s's count before the rounding (kept
// as SgprsRequested), not a code object's granules.
void checkAllocation(KernelFacts &facts, const AmdArch *arch,
                     std::optional<std::int64_t> sgprs_allocated = std::nullopt, bool sgprs_exact = false);

// The granule COMPUTE_PGM_RSRC1.GRANULATED_WORKITEM_VGPR_COUNT counts in
// (LLVM's IsaInfo::getVGPREncodingGranule): 8 on gfx90a+ and in wave32, else 4.
int vgprEncodingGranule(const AmdArch &arch, int wave_size);

// gfx9 encodes the SGPR allocation in granules of 16 (LLVM's
// IsaInfo::getSGPREncodingGranule; the field is 2 * (granules - 1)).
constexpr int kGfx9SgprGranule = 16;

// What the code uses, when the allocation is padded beyond it (more than the
// granule rounds up): the compiler's amdgpu-waves-per-eu padding.
std::optional<std::int64_t> paddedFrom(const KernelRecord &r);

// Why the table and the notes show a gfx9 kernel's SGPR allocation beside its
// use: the compiler padded it (amdgpu-waves-per-eu: more than the assembler's
// extras and the granule explain), or the hardware's term counts a step fewer
// waves on it than on the use. Null: not shown (not read, or changes nothing).
enum class SgprAllocation { Padded, Reserved };
std::optional<SgprAllocation> shownSgprAllocation(const KernelRecord &r, const AmdArch &arch);

}  // namespace regscope
