// The AMD backend (hipcc/clang 15, AMDGPU code objects, LLVM's MC layer):
// its Backend, and its model for the tests and the occupancy command.
#pragma once

#include <vector>

#include "regscope/backend/backend.h"
#include "regscope/backends/amd/amdgpu_occupancy.h"
#include "regscope/backends/amd/kernel_model.h"
#include "regscope/target/amdgpu.h"

namespace regscope {

const Backend &amdBackend();

// The figures an AMD record must carry (on its arch for AGPRs).
std::vector<Field> amdRequiredFigures(const KernelRecord &record);

// The AMD model of one record on `row` (the table row; the record's wave size
// and WGP/CU mode are applied). `compiler` is the generation whose printed
// figure the record's CompilerOccupancy should match.
ModelledKernel modelAmdKernel(const KernelRecord &record, const AmdArch &row, const LaunchOverrides &launch,
                              CompilerModel compiler);
void amdChart(const ModelledKernel &k, const AmdKernelModel &m, OccupancyChart &chart);

}  // namespace regscope
