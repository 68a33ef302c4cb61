// The Intel backend (ocloc, zebin/.ze_info, IGC's shader dump): its Backend,
// and its model for the tests and the occupancy command.
#pragma once

#include <vector>

#include "regscope/backend/backend.h"
#include "regscope/backends/intel/intel_occupancy.h"
#include "regscope/backends/intel/kernel_model.h"
#include "regscope/target/intel.h"

namespace regscope {

const Backend &intelBackend();

std::vector<Field> intelRequiredFigures();

// The Xe model of one record compiled for `target` on `device`. A required
// work-group size (reqd_work_group_size) is the only one the kernel launches
// with, so it wins over --block-size; else --block-size, else 256.
ModelledKernel modelIntelKernel(const KernelRecord &record, const IntelDevice &device, const IntelTarget &target,
                                const LaunchOverrides &launch);
void intelChart(const ModelledKernel &k, const IntelKernelModel &m, OccupancyChart &chart);

}  // namespace regscope
