// The views regscope has, one per output. Each returns a View over data the
// caller keeps alive while it renders.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "regscope/advise/advise.h"
#include "regscope/gate/gate.h"
#include "regscope/model/amdgpu_occupancy.h"
#include "regscope/model/cuda_occupancy.h"
#include "regscope/model/intel_occupancy.h"
#include "regscope/report/report.h"
#include "regscope/source/reference_kernels.h"
#include "regscope/views/view.h"

namespace regscope {

// analyze, parse, kernels analyze: a row per (kernel, arch), notes, findings.
std::unique_ptr<View> kernelTableView(const Report &report, std::string title);
// gate: verdicts and the pass/fail line; findings are the verdicts.
std::unique_ptr<View> gateView(const Report &report, const GateResult &result);
// occupancy: one calculation.
std::unique_ptr<View> amdCalculatorView(const AmdArch &arch, const KernelResources &resources, const Occupancy &occ);
std::unique_ptr<View> cudaCalculatorView(const CudaArch &arch, const CudaResources &resources,
                                         const CudaOccupancy &occ);
std::unique_ptr<View> intelCalculatorView(const IntelDevice &device, const IntelResources &resources,
                                          const IntelOccupancy &occ);
// table: an arch's register -> occupancy steps.
std::unique_ptr<View> amdArchTableView(const AmdArch &arch);
std::unique_ptr<View> cudaArchTableView(const CudaArch &arch, int block_size);
std::unique_ptr<View> intelArchTableView(const IntelDevice &device, int work_group_size);
// kernels list: the reference cases.
std::unique_ptr<View> referenceCasesView(const std::vector<ReferenceCase> &cases, std::string kernels_dir);
// kernels run: the runner's results joined with regscope's figures.
std::unique_ptr<View> runnerView(const nlohmann::json &run);
// advise: the candidates tried, their measured figures and diffs, the combination.
std::unique_ptr<View> adviseView(const AdviseResult &result);

}  // namespace regscope
