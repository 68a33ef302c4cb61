// What the views print of an AMD kernel (Backend::kernelSection, kernelJson
// and the rest; docs/json-schema.md): built here, printed by the views.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "regscope/backend/measured_figures.h"
#include "regscope/backends/amd/amdgpu_occupancy.h"
#include "regscope/describe/kernel_section.h"

namespace regscope {

// The "occupancy" object of a kernel and of the occupancy calculator.
nlohmann::json amdOccupancyJson(const Occupancy &occ, std::optional<int> compiler_reported);

KernelSection amdKernelSection(const std::vector<const KernelReport *> &kernels, const std::string &compiler_version);
nlohmann::json amdKernelJson(const KernelReport &k, const std::string &compiler_version);
std::string amdNextStep(const KernelReport &k);
std::optional<std::string> amdRegisterCliff(const KernelReport &k, int registers);
std::optional<std::string> amdHiddenSpills(const KernelReport &k);
KernelFigures amdMeasuredFigures(const KernelReport &k);

}  // namespace regscope
