// The Intel occupancy calculator (regscope occupancy --arch pvc --grf 256
// --simd 16 ...): the figures as typed, checked against the device.
#pragma once

#include "regscope/backends/intel/intel_occupancy.h"

namespace regscope {

// The hardware has only its GRF modes and SIMD widths: any other figure is a
// typo, not a what-if. Throws regscope::Error naming the option.
IntelOccupancy calculateIntelOccupancy(const IntelDevice &device, const IntelResources &r);

}  // namespace regscope
