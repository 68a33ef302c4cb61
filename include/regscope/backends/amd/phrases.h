// The AMD model's figures in words (the kernel table, the calculator, the
// JSON's explanations).
#pragma once

#include <string>

#include "regscope/backends/amd/amdgpu_occupancy.h"
#include "regscope/backends/amd/kernel_model.h"
#include "regscope/model/kernel_model.h"

namespace regscope {

// "free 6 VGPRs -> 5 waves/SIMD", "at maximum", "none: workgroup size caps it".
std::string nextStepText(const Occupancy &occ);
// "1 of 32 wave slots per CU (3.1%): a workgroup of 1 wave cannot use every SIMD of the CU"
std::string waveSlotsText(const Occupancy &occ, int waves_per_group);
// "a workgroup of 1024 threads exceeds the kernel's maximum of 256 (...)"
std::string amdLaunchInvalidText(const LaunchAssumption &launch);
// Why a kernel whose figures are possible cannot launch as assumed: its
// workgroup never resident (AmdKernelModel::not_resident), else over its bound.
std::string amdInvalidText(const AmdKernelModel &amd, const LaunchAssumption &launch);
// Why the compiler's printed occupancy differs from regscope's, or "" when it
// does not (or the difference needs no words).
std::string compilerExplanation(const AmdKernelModel &amd, const std::string &compiler_version);

}  // namespace regscope
