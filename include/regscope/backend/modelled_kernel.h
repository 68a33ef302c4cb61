// One modelled kernel: the vendor-neutral facts (model/kernel_model.h) and
// its backend's own model. This variant and the registry (backend.h,
// src/backend/registry.cpp) are the places that list the backends.
#pragma once

#include <string>
#include <variant>

#include "regscope/backends/amd/kernel_model.h"
#include "regscope/backends/intel/kernel_model.h"
#include "regscope/backends/nvidia/kernel_model.h"
#include "regscope/collect/kernel_record.h"
#include "regscope/model/kernel_model.h"

namespace regscope {

using KernelModel = std::variant<AmdKernelModel, CudaKernelModel, IntelKernelModel>;

struct ModelledKernel : ModelFacts {
  KernelModel model;
};

// A modelled kernel as the report holds it and the views print it: its record,
// and where it came from. (report/report.h builds them; each backend describes
// its own: Backend::kernelSection, kernelJson.)
struct KernelReport : ModelledKernel {
  KernelRecord record;
  std::string display_file;  // path as the user should read it
  std::string source;        // the translation unit compiled (absolute); empty for parsed artifacts
  // What tells it from kernels of the same name and arch shown at the same
  // place ("@6E3LAV": a Triton entry's cache directory; the file's name; the
  // compile database's entry): set by tellTwinsApart, empty when none is alike.
  std::string twin;

  // LLVM 20+ figures open until link: no occupancy to judge.
  bool unresolved() const { return summary.limiter == Limiter::Unresolved; }
};

}  // namespace regscope
