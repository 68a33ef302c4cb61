// The NVIDIA backend's collectors: ptxas/nvlink resource lines and the PTX's
// launch bounds, as KernelFacts.
#pragma once

#include <string>
#include <string_view>

#include "regscope/collect/collect.h"
#include "regscope/collect/kernel_record.h"
#include "regscope/driver/driver.h"

namespace regscope {

// ptxas -v (and -warn-spills) text from nvcc, CUDA 11 and 13 forms, and the
// nvlink "Function properties" form of an -rdc device link. The arch comes
// from "Compiling entry function 'f' for 'sm_80'"; nvlink lines carry none,
// so `default_arch` is used. Non-entry functions are marked not kernels.
FactSet parsePtxas(std::string_view text, const std::string &default_arch);

// Launch bounds from PTX: .maxntid and .minnctapersm of each .entry.
FactSet parsePtxLaunchBounds(std::string_view ptx, const std::string &arch);

// nvcc: ptxas (or, with -rdc, nvlink) figures and the PTX's launch bounds, per
// arch, in source order.
CollectedRun collectCudaRun(const CompileOutput &output, const std::string &compiled_source, const SourceReader &read);

}  // namespace regscope
