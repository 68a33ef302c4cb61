// Under nvcc, kernels that include <hip/hip_runtime.h> get the portability
// header instead (the runner builds with -I kernels/common/cuda_shim).
#pragma once
#include "../../gpu.h"
