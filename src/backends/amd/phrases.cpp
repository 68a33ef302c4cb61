// The AMD model's figures in words: the next step, a workgroup that leaves
// SIMDs idle, a launch over the kernel's bound, the compiler's own figure.
#include "regscope/backends/amd/phrases.h"

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
  if (n.sgprs_to_free) parts.push_back("free " + std::to_string(n.sgprs_to_free) + " SGPRs");
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
  if (c.launch_differs && c.printed == c.hardware_at_compile)
    return "the compiler printed " + std::to_string(c.printed) + " waves/SIMD for workgroups of up to " +
           std::to_string(c.compile_block_size) +
           " threads (the most it compiled for) and no dynamic LDS; the figure "
           "here is for the launch";
  std::string why;
  if (c.model == CompilerModel::Llvm15)
    why = "LLVM 15 does not spread a workgroup's " + std::to_string(c.waves_per_workgroup) + " waves over the CU's " +
          std::to_string(amd.arch.simds_per_cu) + " SIMDs in its LDS/workgroup term" +
          (amd.arch.vgpr_file_1_5x ? " and does not know this target's 1.5x register file" : "") +
          ", so it overstates occupancy (fixed in LLVM 16, D139468)";
  else if (c.model == CompilerModel::Llvm19)
    why = "LLVM 16-22 divide the CU's LDS by the bytes a workgroup asks for, not by the " +
          std::to_string(amd.arch.lds_granule) +
          "-byte blocks the hardware allocates, so they overstate LDS-bound kernels (fixed in LLVM 23, "
          "llvm-project #205637)";
  else
    return "";
  if (c.launch_differs) why += "; and the figure here is for the launch, not the most it compiled for";
  return "the compiler printed " + std::to_string(c.printed) + " waves/SIMD: " + why;
}

}  // namespace regscope
