// The NVIDIA occupancy calculator (regscope occupancy --arch sm_90
// --registers N ...): the figures as typed, checked against the arch.
#pragma once

#include "regscope/backends/nvidia/cuda_occupancy.h"

namespace regscope {

// Throws regscope::Error naming the option for a figure outside what the arch can have.
CudaOccupancy calculateCudaOccupancy(const CudaArch &arch, const CudaResources &r);

}  // namespace regscope
