// The one report every view reads: the merged kernel records with the
// model's result for each, plus what produced them.
#pragma once

#include <string>
#include <vector>

#include "regscope/collect/kernel_record.h"
#include "regscope/model/kernel_model.h"

namespace regscope {

struct KernelReport : ModelledKernel {
  KernelRecord record;
  std::string display_file;  // path as the user should read it

  const AmdKernelModel *amd() const { return std::get_if<AmdKernelModel>(&model); }
  const CudaKernelModel *cuda() const { return std::get_if<CudaKernelModel>(&model); }
  const IntelKernelModel *intel() const { return std::get_if<IntelKernelModel>(&model); }
  // LLVM 20+ figures open until link: no occupancy to judge.
  bool unresolved() const { return summary.limiter == Limiter::Unresolved; }
};

struct Report {
  std::string compiler_path;
  std::string compiler_version;
  std::vector<std::string> inputs;
  std::vector<KernelReport> kernels;
  std::vector<std::string> warnings;
  std::vector<std::string> errors;  // files that could not be analysed; exit 2
};

// The model stage over merged records: one KernelReport per record, each
// kernel's archs side by side. Records for archs regscope has no table for,
// and figures the sources disagreed on, become report warnings.
void addKernels(Report &report, const std::vector<KernelRecord> &records, const LaunchOverrides &launch = {});

}  // namespace regscope
