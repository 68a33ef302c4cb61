// The NVIDIA backend (nvcc, ptxas/nvlink, nvdisasm): its Backend, and its
// model for the tests and the occupancy command.
#pragma once

#include <vector>

#include "regscope/backend/backend.h"
#include "regscope/backends/nvidia/cuda_occupancy.h"
#include "regscope/backends/nvidia/kernel_model.h"
#include "regscope/target/cuda.h"

namespace regscope {

const Backend &nvidiaBackend();

std::vector<Field> nvidiaRequiredFigures();

ModelledKernel modelCudaKernel(const KernelRecord &record, const CudaArch &arch, const LaunchOverrides &launch);
void cudaChart(const ModelledKernel &k, const CudaKernelModel &m, OccupancyChart &chart);

}  // namespace regscope
