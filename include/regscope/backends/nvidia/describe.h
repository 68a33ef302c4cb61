// What the views print of an NVIDIA kernel (Backend::kernelSection,
// kernelJson and the rest; docs/json-schema.md): built here, printed by the views.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "regscope/backends/nvidia/cuda_occupancy.h"
#include "regscope/describe/kernel_section.h"

namespace regscope {

// The "occupancy" object of a kernel and of the occupancy calculator.
// `bound`: the kernel's __launch_bounds__, 0 when it has none.
nlohmann::json cudaOccupancyJson(const CudaOccupancy &occ, const CudaArch &arch, const CudaResources &r, int bound = 0);

KernelSection cudaKernelSection(const std::vector<const KernelReport *> &kernels);
nlohmann::json cudaKernelJson(const KernelReport &k);
std::string cudaNextStep(const KernelReport &k);
std::optional<std::string> cudaRegisterCliff(const KernelReport &k, int registers);

}  // namespace regscope
