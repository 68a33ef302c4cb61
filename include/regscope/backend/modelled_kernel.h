// One modelled kernel: the vendor-neutral facts (model/kernel_model.h) and
// its backend's own model. This variant and the registry (backend.h,
// src/backend/registry.cpp) are the places that list the backends.
#pragma once

#include <variant>

#include "regscope/backends/amd/kernel_model.h"
#include "regscope/backends/intel/kernel_model.h"
#include "regscope/backends/nvidia/kernel_model.h"
#include "regscope/model/kernel_model.h"

namespace regscope {

using KernelModel = std::variant<AmdKernelModel, CudaKernelModel, IntelKernelModel>;

struct ModelledKernel : ModelFacts {
  KernelModel model;
};

}  // namespace regscope
