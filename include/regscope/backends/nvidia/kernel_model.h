// The NVIDIA backend's model of one kernel (types only; ModelledKernel holds
// one of these: include/regscope/backend/modelled_kernel.h).
#pragma once

#include "regscope/backends/nvidia/cuda_occupancy.h"
#include "regscope/target/cuda.h"

namespace regscope {

struct CudaKernelModel {
  CudaArch arch;
  CudaResources resources;  // as the model saw them: the launch applied
  CudaOccupancy occupancy;
};

}  // namespace regscope
