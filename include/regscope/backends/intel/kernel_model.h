// The Intel backend's model of one kernel (types only; ModelledKernel holds
// one of these: include/regscope/backend/modelled_kernel.h).
#pragma once

#include <cstdint>
#include <optional>

#include "regscope/backends/intel/intel_occupancy.h"
#include "regscope/target/intel.h"

namespace regscope {

struct IntelKernelModel {
  IntelDevice device;
  IntelTarget target;        // the device as named and the GRF mode compiled for
  IntelResources resources;  // as the model saw them: the launch applied
  IntelOccupancy occupancy;
  std::int64_t spill_bytes = 0;  // per hardware thread (intelSpillBytes)
  bool spill_known = true;       // false: no source gave a spill figure (a zebin alone): spill_bytes means nothing
  // Intel's rule, when the kernel was compiled in both small and large GRF
  // mode (--grf both); on both records.
  std::optional<GrfRecommendation> grf_recommendation;
};

}  // namespace regscope
