// The Intel model's figures in words (the kernel table, the calculator, the JSON).
#pragma once

#include <string>

#include "regscope/backends/intel/intel_occupancy.h"

namespace regscope {

// "small GRF + free 8 KiB SLM -> 3 work-groups/Xe-core", "at maximum", "cannot launch: ...".
std::string intelNextStepText(const IntelOccupancy &occ, const IntelDevice &device, const IntelResources &r);
// Why an Intel launch cannot run (occ.limiter is Invalid).
std::string intelInvalidText(const IntelOccupancy &occ, const IntelDevice &device, const IntelResources &r);
// Why Intel's rule picks the mode it picks.
std::string grfReasonText(const GrfRecommendation &rule);

}  // namespace regscope
