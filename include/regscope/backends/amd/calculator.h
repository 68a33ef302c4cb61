// The AMD occupancy calculator (regscope occupancy --arch gfx90a --vgprs N
// ...): the figures as typed, checked against the target, through the model.
#pragma once

#include <string>

#include "regscope/backends/amd/amdgpu_occupancy.h"

namespace regscope {

struct AmdCalculatorInput {
  std::string arch;  // a target or product name
  KernelResources resources;
  int wave_size = 0;  // 0: the target's
  bool cu_mode = false;
  int dynamic_lds = 0;                   // added to resources.lds_bytes
  std::string as_compiler = "hardware";  // hardware, llvm15, llvm19
};

struct AmdCalculation {
  AmdArch arch;               // configured for the wave size and CU mode
  KernelResources resources;  // LDS including the dynamic bytes
  Occupancy occupancy;
};

// Throws regscope::Error naming the option for an unknown target or a figure
// outside what the target can have.
AmdCalculation calculateAmdOccupancy(const AmdCalculatorInput &input);

}  // namespace regscope
