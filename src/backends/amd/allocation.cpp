#include "allocation.h"

#include <llvm/Support/MathExtras.h>

#include <algorithm>
#include <array>
#include <string>

namespace regscope {
namespace {

void markUnknown(KernelFacts &facts, Field f, const std::string &why) {
  facts.values[static_cast<std::size_t>(f)].reset();
  if (std::find(facts.missing.begin(), facts.missing.end(), f) == facts.missing.end()) facts.missing.push_back(f);
  facts.warnings.push_back(std::string(fieldKey(f)) + ": " + why + ": unknown");
}

}  // namespace

void mergeReadings(KernelFacts &facts, std::initializer_list<Reading> readings) {
  std::array<const char *, kFieldCount> from{};
  std::array<bool, kFieldCount> disputed{};
  for (const auto &[part, label] : readings) {
    for (std::size_t i = 0; i < kFieldCount; ++i) {
      if (!(*part)[i] || disputed[i]) continue;
      if (!facts.values[i]) {
        facts.values[i] = (*part)[i];
        from[i] = label;
      } else if (*facts.values[i] != *(*part)[i]) {
        disputed[i] = true;
        markUnknown(facts, static_cast<Field>(i),
                    std::string(from[i]) + " says " + std::to_string(*facts.values[i]) + ", " + label + " says " +
                        std::to_string(*(*part)[i]));
      }
    }
  }
}

int vgprEncodingGranule(const AmdArch &arch, int wave_size) {
  return arch.agprs == AgprMode::Unified || wave_size == 32 ? 8 : 4;
}

int vgprEncodingGranule(const KernelRecord &r) {
  const AmdArch *arch = findAmdArch(r.arch);
  if (!arch) return 1;
  return vgprEncodingGranule(*arch,
                             r.has(Field::WaveSize) ? static_cast<int>(r.value(Field::WaveSize)) : arch->wave_size);
}

std::optional<std::int64_t> paddedFrom(const KernelRecord &r) {
  if (!r.has(Field::VgprsTotal) || !r.has(Field::VgprsUsed)) return std::nullopt;
  const std::int64_t granule = vgprEncodingGranule(r), used = r.value(Field::VgprsUsed);
  if (r.value(Field::VgprsTotal) <= static_cast<std::int64_t>(llvm::alignTo(used, granule))) return std::nullopt;
  return used;
}

std::optional<SgprAllocation> shownSgprAllocation(const KernelRecord &r, const AmdArch &arch) {
  if (!r.has(Field::SgprsAllocated) || !r.has(Field::Sgprs)) return std::nullopt;
  const std::int64_t allocated = r.value(Field::SgprsAllocated), used = r.value(Field::Sgprs);
  // The most the assembler adds to the compiler's count: VCC, XNACK and flat scratch.
  constexpr std::int64_t kMostExtras = 6;
  if (allocated > static_cast<std::int64_t>(llvm::alignTo(used + kMostExtras, kGfx9SgprGranule)))
    return SgprAllocation::Padded;
  if (wavesBySgprs(arch, static_cast<int>(allocated)) < wavesBySgprs(arch, static_cast<int>(used)))
    return SgprAllocation::Reserved;
  return std::nullopt;
}

// gfx9's SGPRs: the hardware allocates what the descriptor's granulated count
// says (COMPUTE_PGM_RSRC1.GRANULATED_WAVEFRONT_SGPR_COUNT, in 16s on gfx9). A
// .s gives the count before the rounding (.amdhsa_next_free_sgpr plus the
// extras its .amdhsa_reserve_* directives add), a code object only the
// granules. Fewer granules than what the code uses (`; NumSgprs`, metadata
// .sgpr_count) is a contradiction no rule explains: the SGPR count is unknown.
// Otherwise the allocation is kept beside the use, in whole granules
// (SgprsAllocated: one figure for a .s and its code object) and, from a .s,
// exactly (SgprsRequested); the hardware's occupancy counts it. It exceeds the use for two reasons seen in real output:
// the assembler reserves an XNACK pair the compiler's count leaves out (hipcc 5.2.3: private_array's 14 + 4 = 18 beside
// 16, two granules in its code object), and amdgpu-waves-per-eu pads the SGPRs to the waves its VGPR padding already
// limits the kernel to (Triton waves_per_eu=1: 96 + 6 = 102 beside 23).
void checkSgprAllocation(KernelFacts &facts, const AmdArch *arch, std::optional<std::int64_t> total, bool exact) {
  const std::optional<std::int64_t> used = facts.get(Field::Sgprs);
  // gfx10+ hardware ignores the field (it always allocates its SGPRs).
  if (!total || !arch || arch->generation != AmdGeneration::Gfx9 || !used || *used < 0 || *total < 0) return;
  auto granules = [](std::int64_t n) { return llvm::divideCeil(std::max<std::int64_t>(n, 1), kGfx9SgprGranule); };
  if (granules(*total) < granules(*used))
    return markUnknown(facts, Field::Sgprs,
                       "the kernel descriptor allocates " + std::to_string(*total) + " SGPRs but the code uses " +
                           std::to_string(*used));
  facts.set(Field::SgprsAllocated, granules(*total) * kGfx9SgprGranule);
  if (exact) facts.set(Field::SgprsRequested, *total);
}

void checkAllocation(KernelFacts &facts, const AmdArch *arch, std::optional<std::int64_t> sgprs_allocated,
                     bool sgprs_exact) {
  checkSgprAllocation(facts, arch, sgprs_allocated, sgprs_exact);
  if (!facts.get(Field::VgprsTotal)) return;
  // The hardware reads the allocation in granules (COMPUTE_PGM_RSRC1), so a
  // .s's exact .amdhsa_next_free_vgpr and a code object's granulated count
  // are one figure when they round alike. Unpadded, it is what the code uses
  // (LLVM floors the .s's at 1 for a kernel with no VGPRs; the metadata says
  // 0); padded, it is the granulated allocation, as the code object says.
  if (const std::optional<std::int64_t> used = facts.get(Field::VgprsUsed); arch && used && *used >= 0) {
    const std::int64_t granule =
        vgprEncodingGranule(*arch, static_cast<int>(facts.get(Field::WaveSize).value_or(arch->wave_size)));
    auto granules = [&](std::int64_t n) { return llvm::divideCeil(std::max<std::int64_t>(n, 1), granule); };
    const std::int64_t total = *facts.get(Field::VgprsTotal);
    if (total >= 0 && granules(total) == granules(*used))
      facts.set(Field::VgprsTotal, *used);
    else if (total > *used)
      facts.set(Field::VgprsTotal, static_cast<std::int64_t>(llvm::alignTo(total, granule)));
  }
  const std::optional<std::int64_t> total = facts.get(Field::VgprsTotal);
  const std::string allocates = "the kernel descriptor allocates " + std::to_string(*total) + " VGPRs";
  auto contradicts = [&](const std::string &uses) {
    markUnknown(facts, Field::VgprsTotal, allocates + " but " + uses);
  };
  if (auto used = facts.get(Field::VgprsUsed); used && *used > *total)
    return contradicts("the metadata says the code uses " + std::to_string(*used));
  const std::optional<std::int64_t> vgprs = facts.get(Field::Vgprs), agprs = facts.get(Field::Agprs);
  if (vgprs && *vgprs > *total) return contradicts("the code uses " + std::to_string(*vgprs) + " architectural VGPRs");
  if (agprs && *agprs > *total) return contradicts("the code uses " + std::to_string(*agprs) + " AGPRs");
  // gfx90a+: AGPRs follow the architectural VGPRs in one file, from the accumulation offset.
  const std::optional<std::int64_t> accum = facts.get(Field::AccumOffset);
  if (arch && arch->agprs == AgprMode::Unified && accum && agprs && *agprs > 0 && *accum + *agprs > *total)
    return contradicts(std::to_string(*agprs) + " AGPRs from v" + std::to_string(*accum) + " need " +
                       std::to_string(*accum + *agprs));
  if (arch && arch->agprs == AgprMode::Unified && accum && vgprs && *vgprs > *accum)
    markUnknown(
        facts, Field::VgprsTotal,
        std::to_string(*vgprs) + " architectural VGPRs overlap the AGPRs, which start at v" + std::to_string(*accum));
}

}  // namespace regscope
