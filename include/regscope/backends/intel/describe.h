// What the views print of an Intel kernel (Backend::kernelSection,
// kernelJson and the rest; docs/json-schema.md), and Intel's GRF rule over a
// report's records: built here, printed by the views.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "regscope/backends/intel/intel_occupancy.h"
#include "regscope/describe/kernel_section.h"

namespace regscope {

// The "occupancy" object of a kernel and of the occupancy calculator.
nlohmann::json intelOccupancyJson(const IntelOccupancy &occ, const IntelDevice &device, const IntelResources &r);

KernelSection intelKernelSection(const std::vector<const KernelReport *> &kernels);
nlohmann::json intelKernelJson(const KernelReport &k);
std::string intelNextStep(const KernelReport &k);

// Where a kernel was compiled in both small and large GRF mode for one device
// (--grf both), both records get Intel's recommendation, read from the
// small-GRF record's spills.
void recommendGrfModes(const std::vector<KernelReport *> &kernels);

}  // namespace regscope
