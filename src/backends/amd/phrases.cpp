// The AMD model's figures in words: the next step, a workgroup that leaves
// SIMDs idle, a launch over the kernel's bound, the compiler's own figure.
#include "regscope/backends/amd/phrases.h"

#include <vector>

#include "regscope/describe/phrases.h"

namespace regscope {

std::string nextStepText(const Occupancy &occ) {
  if (!occ.next) {
    if (occ.limiter == Limiter::None) return "at maximum";
    return "none: workgroup size caps it";
  }
  const NextStep &n = *occ.next;
  std::vector<std::string> parts;
  if (n.vgprs_to_free) parts.push_back("free " + std::to_string(n.vgprs_to_free) + " VGPRs");
  // Counted from the descriptor's allocation, the step is one of the allocation: what the code
  // must free depends on the SGPRs the assembler reserves beside it, which a code object does not say.
  if (n.sgprs_to_free && occ.sgprs_from_descriptor)
    parts.push_back("at most " + std::to_string(occ.sgprs_total - n.sgprs_to_free) + " SGPRs allocated (now " +
                    std::to_string(occ.sgprs_total) + ")");
  else if (n.sgprs_to_free)
    parts.push_back("free " + std::to_string(n.sgprs_to_free) + " SGPRs");
  if (n.lds_bytes_to_free) parts.push_back("free " + bytesText(n.lds_bytes_to_free) + " LDS");
  if (occ.counts_per_cu) return stepText(parts, n.waves_per_cu, "waves/CU");
  return stepText(parts, n.waves_per_simd, "waves/SIMD");
}

std::string waveSlotsText(const Occupancy &occ, int waves_per_group) {
  const int percent10 =
      occ.max_waves_per_cu ? (occ.waves_per_cu * 1000 + occ.max_waves_per_cu / 2) / occ.max_waves_per_cu : 0;
  return std::to_string(occ.waves_per_cu) + " of " + std::to_string(occ.max_waves_per_cu) + " wave slots per CU (" +
         std::to_string(percent10 / 10) + "." + std::to_string(percent10 % 10) + "%): a workgroup of " +
         std::to_string(waves_per_group) + " wave" + (waves_per_group == 1 ? "" : "s") + " leaves SIMDs idle";
}

std::string amdLaunchInvalidText(const LaunchAssumption &launch) {
  return "a workgroup of " + std::to_string(launch.block_size) + " threads exceeds the kernel's maximum of " +
         std::to_string(launch.max_block_size) + " (__launch_bounds__ or --gpu-max-threads-per-block)";
}

std::string amdInvalidText(const AmdKernelModel &amd, const LaunchAssumption &launch) {
  return amd.not_resident.empty() ? amdLaunchInvalidText(launch) : amd.not_resident;
}

std::string compilerExplanation(const AmdKernelModel &amd, const std::string &compiler_version) {
  if (!amd.compiler) return "";
  const CompilerFigure &c = *amd.compiler;
  if (c.expected != c.printed)
    return "the compiler printed " + std::to_string(c.printed) + " waves/SIMD where regscope's model of " +
           compiler_version + " gives " + std::to_string(c.expected) +
           "; the compiler may know a launch bound or attribute regscope does not";
  if (c.printed == amd.occupancy.waves_per_simd) return "";
  // The compiler's figure is for the workgroup size it compiled for; a
  // different launch explains a different figure on its own.
  const std::string launch_text =
      "the compiler printed " + std::to_string(c.printed) + " waves/SIMD for workgroups of up to " +
      std::to_string(c.compile_block_size) +
      " threads (the most it compiled for) and no dynamic LDS; the figure here is for the launch";
  if (c.launch_differs && c.printed == c.hardware_at_compile) return launch_text;
  if (c.model == CompilerModel::Hardware) return "";
  // Name what differs, each cause once: each term the compiler's way and the
  // hardware's way, for what the compiler saw. A term explains the printed
  // figure when the hardware's term is below it and the compiler's is not.
  const Occupancy &ours = c.compiler_terms, &hw = c.hardware_terms;
  std::vector<std::string> reasons;
  // Whole workgroups: the hardware places a workgroup's waves on the CU at
  // once, so no resource lets more waves in than whole workgroups fill; LLVM
  // counts waves per SIMD. Said once, for every term it caps.
  const int slots = hw.by_workgroup;
  if (slots < c.printed)
    reasons.push_back("the hardware dispatches whole workgroups of " + std::to_string(c.waves_per_workgroup) +
                      " waves over the CU's " + std::to_string(amd.arch.simds_per_cu) +
                      " SIMDs: " + std::to_string(slots) + " waves/SIMD at most, where LLVM counts waves per SIMD");
  // A term below the workgroup cap that the compiler computes otherwise.
  auto explains = [&](int compiler_term, int hardware_term) {
    return compiler_term != hardware_term && hardware_term < c.printed && hardware_term < slots;
  };
  auto term = [](const std::string &name, int compiler_term, int hardware_term) {
    return "its " + name + " term gives " + std::to_string(compiler_term) + ", the hardware's " +
           std::to_string(hardware_term);
  };
  // The register terms whole workgroups round down, in one clause: "its VGPR
  // and SGPR terms give 7, the hardware's 6" when they agree.
  const bool vgpr_file = c.model == CompilerModel::Llvm15 && amd.arch.vgpr_file_1_5x;
  const bool vgpr = explains(ours.by_vgpr, hw.by_vgpr);
  // The SGPR term differs for its own reason when, per SIMD, the hardware's
  // granules of the allocation give fewer waves than the compiler's table of the use.
  const bool sgpr_granules =
      explains(ours.by_sgpr, hw.by_sgpr) &&
      wavesBySgprs(amd.arch, hw.sgprs_total) < wavesBySgprs(amd.arch, ours.sgprs_total, TermRule::Llvm16);
  const bool sgpr = explains(ours.by_sgpr, hw.by_sgpr) && !sgpr_granules;
  if (sgpr_granules) {
    // Whole workgroups may round the hardware's per-SIMD figure down further: said with it.
    const int per_simd = wavesBySgprs(amd.arch, hw.sgprs_total);
    const std::string rounded_down = hw.by_sgpr < per_simd
                                         ? " (" + std::to_string(per_simd) + " waves, which whole workgroups of " +
                                               std::to_string(c.waves_per_workgroup) + " waves round down to " +
                                               std::to_string(hw.by_sgpr) + ")"
                                         : "";
    reasons.push_back(term("SGPR", ours.by_sgpr, hw.by_sgpr) + ": the hardware allocates " +
                      std::to_string(allocatedSgprsOf(amd.arch, hw.sgprs_total)) + " SGPRs in granules of " +
                      std::to_string(amd.arch.sgprs.granule) + " out of " + std::to_string(amd.arch.sgprs.per_simd) +
                      " per SIMD" + rounded_down + ", LLVM before 23 counts " + std::to_string(ours.sgprs_total) +
                      " by a table (llvm-project #201342)");
  }
  if (vgpr && vgpr_file)
    reasons.push_back(term("VGPR", ours.by_vgpr, hw.by_vgpr) +
                      ": LLVM 15 does not know this target's 1.5x register file");
  std::string rounded;
  if (vgpr && !vgpr_file && sgpr && ours.by_vgpr == ours.by_sgpr && hw.by_vgpr == hw.by_sgpr)
    rounded = "its VGPR and SGPR terms give " + std::to_string(ours.by_vgpr) + ", the hardware's " +
              std::to_string(hw.by_vgpr);
  else if (vgpr && !vgpr_file && sgpr)
    rounded = term("VGPR", ours.by_vgpr, hw.by_vgpr) + " and " + term("SGPR", ours.by_sgpr, hw.by_sgpr);
  else if (vgpr && !vgpr_file)
    rounded = term("VGPR", ours.by_vgpr, hw.by_vgpr);
  else if (sgpr)
    rounded = term("SGPR", ours.by_sgpr, hw.by_sgpr);
  if (!rounded.empty())
    reasons.push_back(rounded + ": the hardware dispatches whole workgroups of " +
                      std::to_string(c.waves_per_workgroup) + " waves, LLVM counts waves per SIMD");
  if (explains(ours.by_lds, hw.by_lds)) {
    if (c.model == CompilerModel::Llvm15)
      reasons.push_back(term("LDS/workgroup", ours.by_lds, hw.by_lds) + ": LLVM 15 does not spread a workgroup's " +
                        std::to_string(c.waves_per_workgroup) + " waves over the CU's " +
                        std::to_string(amd.arch.simds_per_cu) + " SIMDs (fixed in LLVM 16, D139468)");
    else
      reasons.push_back(term("LDS", ours.by_lds, hw.by_lds) +
                        ": LLVM 16-22 divide the CU's LDS by the bytes a workgroup asks for, not by the " +
                        std::to_string(amd.arch.lds_granule) +
                        "-byte blocks the hardware allocates (fixed in LLVM 23, llvm-project #205637)");
  }
  if (reasons.empty()) return c.launch_differs ? launch_text : "";
  std::string why;
  for (const std::string &r : reasons) why += (why.empty() ? "" : "; ") + r;
  if (c.launch_differs) why += "; and the figure here is for the launch, not the most it compiled for";
  return "the compiler printed " + std::to_string(c.printed) + " waves/SIMD: " + why;
}

}  // namespace regscope
