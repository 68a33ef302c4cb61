// The NVIDIA model's figures in words (the kernel table, the calculator, the JSON).
#pragma once

#include <string>

#include "regscope/backends/nvidia/cuda_occupancy.h"

namespace regscope {

// "free 8 registers -> 5 blocks/SM", "at maximum", "cannot launch: ...".
// `bound`: the kernel's __launch_bounds__, 0 when it has none.
std::string cudaNextStepText(const CudaOccupancy &occ, const CudaArch &arch, const CudaResources &r, int bound = 0);
// Why a CUDA launch cannot run (occ.limiter is Invalid).
std::string cudaInvalidText(const CudaOccupancy &occ, const CudaArch &arch, const CudaResources &r, int bound = 0);

}  // namespace regscope
