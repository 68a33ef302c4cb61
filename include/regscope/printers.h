// Output formats: each is a printer over the same Report (or calculator
// result) and never parses or computes anything itself.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "regscope/arch.h"
#include "regscope/cuda.h"
#include "regscope/gate.h"
#include "regscope/occupancy.h"
#include "regscope/report.h"

namespace regscope {

// A kernel name for one line of text: the demangled signature, with a long
// parameter list elided ("kernel(...)").
std::string shortKernelName(const std::string &demangled);

struct TextStyle {
  bool color = false;
};

void printReportText(const Report &report, std::ostream &out, const TextStyle &style);
nlohmann::json reportToJson(const Report &report);

// `regscope gate`: failures, improvements, added, removed and unchecked kernels.
void printGateText(const GateResult &result, std::ostream &out, const TextStyle &style);
nlohmann::json gateToJson(const GateResult &result);

// `regscope occupancy`: one calculation.
void printOccupancyText(const AmdArch &arch, const KernelResources &resources,
                        const Occupancy &occ, std::ostream &out);
nlohmann::json occupancyCalculationToJson(const AmdArch &arch, const KernelResources &resources,
                                          const Occupancy &occ);

// `regscope table`: the VGPR -> waves/SIMD steps of an arch.
void printVgprTableText(const AmdArch &arch, std::ostream &out);
nlohmann::json vgprTableToJson(const AmdArch &arch);

nlohmann::json occupancyToJson(const Occupancy &occ, std::optional<int> compiler_reported);
nlohmann::json cudaOccupancyToJson(const CudaOccupancy &occ);

// NVIDIA: `regscope occupancy --arch sm_XX` and `regscope table --arch sm_XX`.
void printCudaOccupancyText(const CudaArch &arch, const CudaResources &r, const CudaOccupancy &occ, std::ostream &out);
nlohmann::json cudaOccupancyCalculationToJson(const CudaArch &arch, const CudaResources &r, const CudaOccupancy &occ);
void printCudaTableText(const CudaArch &arch, int block_size, std::ostream &out);
nlohmann::json cudaTableToJson(const CudaArch &arch, int block_size);

}  // namespace regscope
