#include "regscope/backends/amd/calculator.h"

#include "regscope/support/error.h"
#include "regscope/target/amdgpu.h"

namespace regscope {
namespace {

void requireRange(const char *what, int value, int low, int high, const AmdArch &arch) {
  if (value < low || value > high)
    throw Error(std::string(what) + " " + std::to_string(value) + " is outside " + std::to_string(low) + ".." +
                std::to_string(high) + " on " + std::string(arch.name));
}

}  // namespace

AmdCalculation calculateAmdOccupancy(const AmdCalculatorInput &input) {
  const AmdArch arch = configureArch(requireAmdArch(input.arch), input.wave_size, input.cu_mode);
  // Summed in 64 bits: two large sizes must be reported as too large, not wrap to a negative one.
  const long long lds = static_cast<long long>(input.resources.lds_bytes) + input.dynamic_lds;
  if (input.dynamic_lds > 0 && lds > arch.max_lds_per_workgroup)
    throw Error("--lds + --dynamic-lds is " + std::to_string(lds) + " bytes, more than the " +
                std::to_string(arch.max_lds_per_workgroup) + " a workgroup may have on " + std::string(arch.name));
  KernelResources r = input.resources;
  r.lds_bytes = static_cast<int>(lds);
  requireRange("--vgprs", r.vgprs, 0, arch.max_arch_vgprs, arch);
  requireRange("--agprs", r.agprs, 0, arch.agprs == AgprMode::None ? 0 : 256, arch);
  requireRange("--sgprs", r.sgprs, 0, arch.max_sgprs, arch);
  requireRange("--lds", r.lds_bytes, 0, arch.max_lds_per_workgroup, arch);
  requireRange("--block-size", r.workgroup_size, 1, 1024, arch);
  const CompilerModel model = input.as_compiler == "llvm15"   ? CompilerModel::Llvm15
                              : input.as_compiler == "llvm19" ? CompilerModel::Llvm19
                                                              : CompilerModel::Hardware;
  // A workgroup the registers can never hold is an error, never an occupancy
  // (the compiler models print their own figure for it, which is the point of them).
  if (model == CompilerModel::Hardware)
    if (std::string why = workgroupNotResident(arch, r); !why.empty()) throw Error(why);
  return {arch, r, computeOccupancyAs(arch, r, model)};
}

}  // namespace regscope
