// The Intel model's figures in words: the next step, why a launch cannot run,
// and why Intel's GRF rule picks a mode.
#include "regscope/backends/intel/phrases.h"

#include "regscope/describe/phrases.h"

namespace regscope {

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
        widths += (i == 0                               ? "SIMD"
                   : i + 1 == device.simd_widths.size() ? " and SIMD"
                                                        : ", SIMD") +
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
    return std::string("none: ") + (occ.limiter == Limiter::Workgroup ? "work-group slots" : limiterName(occ.limiter)) +
           " cap it";
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
