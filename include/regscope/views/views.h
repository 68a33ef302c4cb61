// The views regscope has, one per output. Each returns a View over data the
// caller keeps alive while it renders.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "regscope/advise/advise.h"
#include "regscope/backends/amd/amdgpu_occupancy.h"
#include "regscope/backends/intel/intel_occupancy.h"
#include "regscope/backends/nvidia/cuda_occupancy.h"
#include "regscope/gate/gate.h"
#include "regscope/isa/kernel_isa.h"
#include "regscope/report/report.h"
#include "regscope/source/reference_kernels.h"
#include "regscope/views/view.h"

namespace regscope {

// analyze, parse, kernels analyze: a row per (kernel, arch), notes, and the
// findings the CI formats print (analysisFindings, gate/findings.h: built
// before the view, which never calls back into the gate).
std::unique_ptr<View> kernelTableView(const Report &report, std::string title, std::vector<Verdict> findings);
// gate: verdicts and the pass/fail line; findings are the verdicts. With the
// baseline the run compared against (--baseline), the HTML page shows each
// kernel before and after.
// `findings`: gateFindings(result) (gate/findings.h), for the CI formats.
std::unique_ptr<View> gateView(const Report &report, const GateResult &result, std::vector<Verdict> findings,
                               const Baseline *baseline = nullptr, std::string baseline_root = {});
// occupancy: one calculation.
std::unique_ptr<View> amdCalculatorView(const AmdArch &arch, const KernelResources &resources, const Occupancy &occ);
std::unique_ptr<View> cudaCalculatorView(const CudaArch &arch, const CudaResources &resources,
                                         const CudaOccupancy &occ);
std::unique_ptr<View> intelCalculatorView(const IntelDevice &device, const IntelResources &resources,
                                          const IntelOccupancy &occ);
// table: an arch's register -> occupancy steps.
std::unique_ptr<View> amdArchTableView(const AmdArch &arch);
// NVIDIA and Intel: the rows (cudaRegisterTable, intelOccupancyTable without a
// barrier) are the model's, computed before the view.
std::unique_ptr<View> cudaArchTableView(const CudaArch &arch, int block_size, std::vector<CudaTableRow> rows);
std::unique_ptr<View> intelArchTableView(const IntelDevice &device, int work_group_size,
                                         std::vector<IntelTableRow> rows);
// kernels list: the reference cases.
std::unique_ptr<View> referenceCasesView(const std::vector<ReferenceCase> &cases, std::string kernels_dir);
// kernels run: the runner's results joined with regscope's figures; with the
// report of the cases (optional, kept alive by the caller), the HTML page also
// charts each kernel's occupancy.
std::unique_ptr<View> runnerView(const nlohmann::json &run, const Report *report = nullptr);
// advise: the candidates tried, their measured figures and diffs, the combination.
std::unique_ptr<View> adviseView(const AdviseResult &result);

// explain: per kernel (kernels[i] goes with report.kernels[i]) its source
// listing with each line's peak live VGPRs/AGPRs/SGPRs, the point of maximum
// pressure, what is live across it, the instruction mix and the static estimate.
std::unique_ptr<View> explainView(const Report &report, const std::vector<KernelIsa> &kernels);
// analyze --lines: the kernel table, then each kernel's `lines` hottest source
// lines; the JSON is analyze's with a `lines` array per kernel.
std::unique_ptr<View> kernelLinesView(const Report &report, const std::vector<KernelIsa> &kernels, std::string title,
                                      std::size_t lines, std::vector<Verdict> findings);

}  // namespace regscope
