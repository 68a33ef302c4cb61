#include "phrases.h"

#include <vector>

namespace regscope {
namespace {

// "free 6 VGPRs + free 2 SGPRs -> 5 waves/SIMD": what must go for the next step.
std::string stepText(const std::vector<std::string> &frees, int target, const char *unit) {
  std::string text;
  for (const std::string &f : frees) text += (text.empty() ? "" : " + ") + f;
  return text + " -> " + std::to_string(target) + " " + unit;
}

}  // namespace

std::string shortKernelName(const std::string &demangled) {
  constexpr std::size_t kMax = 48;
  if (demangled.size() <= kMax) return demangled;
  std::size_t paren = demangled.find('(');
  if (paren != std::string::npos && paren < kMax) return demangled.substr(0, paren) + "(...)";
  return demangled.substr(0, kMax - 3) + "...";
}

std::string bytesText(std::int64_t n) {
  if (n == 0) return "0";
  if (n >= 1024 && n % 1024 == 0) return std::to_string(n / 1024) + " KiB";
  return std::to_string(n) + " B";
}

std::string locationText(const std::string &file, int line) {
  if (file.empty()) return "?";
  return file + (line > 0 ? ":" + std::to_string(line) : "");
}

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

std::string cudaInvalidText(const CudaOccupancy &occ, const CudaArch &arch, const CudaResources &r, int bound) {
  switch (occ.invalid) {
    case CudaOccupancy::Invalid::LaunchBounds:
      return "a block of " + std::to_string(r.block_size) + " threads exceeds the kernel's __launch_bounds__(" +
             std::to_string(bound) + ")";
    case CudaOccupancy::Invalid::BlockSize:
      return "block size " + std::to_string(r.block_size) + " is outside 1.." +
             std::to_string(arch.max_threads_per_block);
    case CudaOccupancy::Invalid::Registers:
      return std::to_string(r.registers) + " registers x " + std::to_string(r.block_size) +
             " threads exceed a block's registers";
    case CudaOccupancy::Invalid::Shared:
      return std::to_string(r.static_shared + r.dynamic_shared) + " bytes of shared memory exceed a block's " +
             std::to_string(arch.shared_per_block_optin);
    case CudaOccupancy::Invalid::None:
      break;
  }
  return "";
}

std::string cudaNextStepText(const CudaOccupancy &occ, const CudaArch &arch, const CudaResources &r, int bound) {
  if (occ.limiter == Limiter::Invalid) return "cannot launch: " + cudaInvalidText(occ, arch, r, bound);
  if (!occ.next)
    return occ.warps_per_sm == occ.max_warps_per_sm ? "at maximum"
                                                    : std::string("none: ") + limiterName(occ.limiter) + " cap it";
  std::vector<std::string> parts;
  if (occ.next->registers_to_free)
    parts.push_back("free " + std::to_string(occ.next->registers_to_free) + " registers");
  if (occ.next->shared_to_free) parts.push_back("free " + std::to_string(occ.next->shared_to_free) + " B shared");
  return stepText(parts, occ.next->blocks_per_sm, "blocks/SM");
}

std::string waveSlotsText(const Occupancy &occ, int waves_per_group) {
  const int percent10 = occ.max_waves_per_cu ? (occ.waves_per_cu * 1000 + occ.max_waves_per_cu / 2) / occ.max_waves_per_cu : 0;
  return std::to_string(occ.waves_per_cu) + " of " + std::to_string(occ.max_waves_per_cu) + " wave slots per CU (" +
         std::to_string(percent10 / 10) + "." + std::to_string(percent10 % 10) + "%): a workgroup of " +
         std::to_string(waves_per_group) + " wave" + (waves_per_group == 1 ? "" : "s") +
         " leaves SIMDs idle";
}

std::string amdLaunchInvalidText(const LaunchAssumption &launch) {
  return "a workgroup of " + std::to_string(launch.block_size) + " threads exceeds the kernel's maximum of " +
         std::to_string(launch.max_block_size) + " (__launch_bounds__ or --gpu-max-threads-per-block)";
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
           std::to_string(c.compile_block_size) + " threads (the most it compiled for) and no dynamic LDS; the figure "
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


std::string intelInvalidText(const IntelOccupancy &occ, const IntelDevice &device, const IntelResources &r) {
  const std::string name(device.name);
  switch (occ.invalid) {
    case IntelOccupancy::Invalid::GrfCount:
      return device.threads_per_eu_large == 0
                 ? name + " has no large GRF mode: its threads have " + std::to_string(device.grf_small) + " GRF"
                 : name + " threads have at most " + std::to_string(device.grf_large) + " GRF, not " +
                       std::to_string(r.grf_count);
    case IntelOccupancy::Invalid::Simd: {
      std::string widths;
      for (std::size_t i = 0; i < device.simd_widths.size(); ++i)
        widths += (i == 0 ? "SIMD" : i + 1 == device.simd_widths.size() ? " and SIMD" : ", SIMD") +
                  std::to_string(device.simd_widths[i]);
      return name + " runs " + widths + ", not SIMD" + std::to_string(r.simd);
    }
    case IntelOccupancy::Invalid::WorkGroupSize:
      return "a work-group of " + std::to_string(r.work_group_size) + " work-items is outside 1.." +
             std::to_string(device.max_work_group_size) + " on " + name;
    case IntelOccupancy::Invalid::ThreadsPerWorkGroup:
      return "a work-group of " + std::to_string(r.work_group_size) + " work-items at SIMD" + std::to_string(r.simd) +
             " needs " + std::to_string(occ.threads_per_work_group) + " hardware threads; an Xe-core has " +
             std::to_string(occ.thread_slots) + " with " + std::to_string(r.grf_count) + " GRF";
    case IntelOccupancy::Invalid::Slm:
      return std::to_string(r.slm_bytes) + " bytes of SLM per work-group is over " + name + "'s limit of " +
             std::to_string(device.slm_per_work_group);
    case IntelOccupancy::Invalid::None:
      break;
  }
  return "";
}

std::string intelNextStepText(const IntelOccupancy &occ, const IntelDevice &device, const IntelResources &r) {
  if (occ.limiter == Limiter::Invalid) return "cannot launch: " + intelInvalidText(occ, device, r);
  if (!occ.next) {
    if (occ.limiter == Limiter::None) return "at maximum";
    return std::string("none: ") +
           (occ.limiter == Limiter::Workgroup ? "work-group slots" : limiterName(occ.limiter)) + " cap it";
  }
  std::vector<std::string> parts;
  if (occ.next->small_grf) parts.push_back("small GRF");
  if (occ.next->slm_bytes_to_free) parts.push_back("free " + bytesText(occ.next->slm_bytes_to_free) + " SLM");
  return stepText(parts, occ.next->work_groups_per_xe_core, "work-groups/Xe-core");
}

std::string grfReasonText(const GrfRecommendation &rule) {
  switch (rule.reason) {
    case GrfReason::SmallSpills:
      return "it spills " + std::to_string(rule.small_grf_spill_bytes) + " bytes per thread in small GRF mode";
    case GrfReason::SmallDoesNotSpill:
      return "it does not spill in small GRF mode, which has twice the threads per EU";
    case GrfReason::NoLargeMode:
      return "the device has no large GRF mode";
  }
  return "";
}

}  // namespace regscope
