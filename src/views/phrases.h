// The phrases the views share: how a kernel name, a location, a next step or
// a compiler disagreement reads. Views and writers only; internal header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "regscope/backends/amd/amdgpu_occupancy.h"
#include "regscope/backends/intel/intel_occupancy.h"
#include "regscope/backends/nvidia/cuda_occupancy.h"
#include "regscope/report/report.h"

namespace regscope {

// A kernel name for one line of text: the demangled signature, with a long
// parameter list elided ("kernel(...)"), then a long template argument list
// shortened from its middle, keeping its first and last arguments
// ("mul_mat_vec_q<(ggml_type)2, ..., false>(...)").
std::string shortKernelName(const std::string &demangled);

// Names (a table's column of signatures) shortened to `width` characters
// each (0: as they are), keeping siblings distinct: of template
// instantiations of the same name, the arguments in which they differ stay
// and runs of the others become "..."; the parameter list becomes "(...)". Two
// different names never shorten to the same text: a name that would collide
// keeps a longer form (at worst, itself).
std::vector<std::string> shortenNames(const std::vector<std::string> &names, std::size_t width);

// "64 KiB" for whole KiB, else the byte count.
std::string bytesText(std::int64_t n);

// "dir/k.hip:12", "dir/k.hip" without a line, "?" without a file.
std::string locationText(const std::string &file, int line);

// "free 6 VGPRs -> 5 waves/SIMD", "at maximum", "none: workgroup size caps it".
std::string nextStepText(const Occupancy &occ);
// "free 8 registers -> 5 blocks/SM", "at maximum", "cannot launch: ...".
// `bound`: the kernel's __launch_bounds__, 0 when it has none.
std::string cudaNextStepText(const CudaOccupancy &occ, const CudaArch &arch, const CudaResources &r, int bound = 0);
// Why a CUDA launch cannot run (occ.limiter is Invalid).
std::string cudaInvalidText(const CudaOccupancy &occ, const CudaArch &arch, const CudaResources &r, int bound = 0);

// "1 of 32 wave slots per CU (3.1%): a workgroup of 1 wave cannot use every SIMD of the CU"
std::string waveSlotsText(const Occupancy &occ, int waves_per_group);
// "a workgroup of 1024 threads exceeds the kernel's maximum of 256 (...)"
std::string amdLaunchInvalidText(const LaunchAssumption &launch);

// Intel: "small GRF + free 8 KiB SLM -> 3 work-groups/Xe-core", "at maximum", "cannot launch: ...".
std::string intelNextStepText(const IntelOccupancy &occ, const IntelDevice &device, const IntelResources &r);
// Why an Intel launch cannot run (occ.limiter is Invalid).
std::string intelInvalidText(const IntelOccupancy &occ, const IntelDevice &device, const IntelResources &r);
// Why Intel's rule picks the mode it picks.
std::string grfReasonText(const GrfRecommendation &rule);

// Why the compiler's printed occupancy differs from regscope's, or "" when it
// does not (or the difference needs no words).
std::string compilerExplanation(const AmdKernelModel &amd, const std::string &compiler_version);

}  // namespace regscope
