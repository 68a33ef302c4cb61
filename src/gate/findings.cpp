// The reduction of analyze and gate results to findings.
#include "regscope/gate/findings.h"

namespace regscope {

Verdict verdictFor(const KernelReport &k, Rule rule, std::string message) {
  return {k.display_file, k.record.line,      k.record.demangled,  k.record.arch,
          rule,           std::move(message), ruleInfo(rule).level};
}

namespace {

// Registers within this many of the next step down are a cliff worth a note.
constexpr int kCliffRegisters = 4;

// "1 more VGPR lowers", "3 more VGPRs lower"
std::string more(int count, const char *what) {
  return std::to_string(count) + " more " + what + (count == 1 ? " lowers" : "s lower");
}

// How many more registers (VGPRs/SGPRs on AMD, registers per thread on
// NVIDIA) lower the occupancy, when that is within a cliff's reach.
std::optional<std::string> cliff(const KernelReport &k) {
  if (const AmdKernelModel *amd = k.amd()) {
    const Headroom &h = amd->occupancy.headroom;
    if (amd->occupancy.limiter == Limiter::Invalid) return std::nullopt;
    const int unit = amd->occupancy.counts_per_cu ? amd->occupancy.waves_per_cu : amd->occupancy.waves_per_simd;
    const std::string where = std::to_string(unit) + (amd->occupancy.counts_per_cu ? " waves/CU" : " waves/SIMD");
    if (h.vgprs < kCliffRegisters && amd->occupancy.waves_per_simd > 1)
      return more(h.vgprs + 1, "VGPR") + " the occupancy from " + where;
    if (h.sgprs_can_limit && h.sgprs < kCliffRegisters)
      return more(h.sgprs + 1, "SGPR") + " the occupancy from " + where;
  } else if (const CudaKernelModel *cuda = k.cuda()) {
    const CudaOccupancy &occ = cuda->occupancy;
    if (occ.limiter == Limiter::Invalid || occ.blocks_per_sm <= 1) return std::nullopt;
    for (int extra = 1; extra <= kCliffRegisters; ++extra)
      if (cudaBlocksByRegisters(cuda->arch, cuda->resources.registers + extra, cuda->resources.block_size) <
          occ.blocks_per_sm)
        return more(extra, "register") + " per thread the occupancy from " + std::to_string(occ.blocks_per_sm) +
               " blocks/SM";
  }
  return std::nullopt;
}

}  // namespace

// analyze's findings are what needs attention: spills, scratch, a cliff. A
// healthy kernel gets none (its figures are in the table).
std::vector<Verdict> analysisFindings(const Report &report) {
  std::vector<Verdict> findings;
  for (const KernelReport &k : report.kernels) {
    if (k.unresolved()) {
      findings.push_back(verdictFor(k, Rule::Unresolved, "figures unresolved until link"));
      continue;
    }
    if (!k.impossible.empty() || k.summary.limiter == Limiter::Unknown) {
      std::string fields;
      for (Field f : k.unknown) fields += (fields.empty() ? "" : ", ") + std::string(fieldKey(f));
      findings.push_back(verdictFor(k, Rule::CannotJudge,
                                    k.impossible.empty() ? fields + " unknown" : "cannot launch: " + k.impossible));
      continue;
    }
    const OccupancySummary &s = k.summary;
    if (s.spills > 0)
      findings.push_back(
          verdictFor(k, Rule::Spills, std::to_string(s.spills) + " " + spillsUnit(s.vendor) + " to scratch memory"));
    if (const AmdKernelModel *amd = k.amd(); amd && amd->hidden_agpr_spills)
      findings.push_back(verdictFor(
          k, Rule::Spills,
          std::to_string(k.record.value(Field::Agprs)) + " VGPRs parked in AGPRs without MFMA (" +
              std::to_string(k.record.value(Field::AgprCopies)) + " copies); the compiler reports 0 spills"));
    else if (s.scratch_bytes > 0)
      findings.push_back(verdictFor(k, Rule::Scratch, std::to_string(s.scratch_bytes) + " bytes of scratch per lane"));
    if (std::optional<std::string> why = cliff(k)) findings.push_back(verdictFor(k, Rule::Cliff, *why));
  }
  return findings;
}

std::vector<Verdict> gateFindings(const GateResult &result) {
  std::vector<Verdict> findings = result.failures;
  for (const auto *list :
       {&result.unjudged, &result.improvements, &result.added, &result.removed, &result.unchecked, &result.ignored})
    findings.insert(findings.end(), list->begin(), list->end());
  return findings;
}

}  // namespace regscope
