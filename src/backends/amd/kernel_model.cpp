// The AMD backend's model of one kernel record: the launch, the occupancy on
// the record's row (its wave size and WGP/CU mode applied), the compiler's
// printed figure against regscope's model of that compiler, and the summary
// in waves per SIMD.
#include <algorithm>
#include <climits>

#include "regscope/backends/amd/backend.h"
#include "regscope/model/model_figures.h"
#include "regscope/target/amdgpu.h"

namespace regscope {
namespace {

constexpr int kDefaultAmdWorkgroupSize = 1024;  // HIP's --gpu-max-threads-per-block

bool anyUnresolved(const KernelRecord &record) {
  for (Field f : {Field::Vgprs, Field::VgprsTotal, Field::VgprsUsed, Field::Agprs, Field::Sgprs, Field::LdsBytes})
    if (record.isUnresolved(f)) return true;
  return false;
}

// Why the AMD record cannot run on `arch` with `launch`: a figure over what
// the target has. Checked before any occupancy, so that an impossible figure
// is never modelled. Empty when every figure fits.
std::string impossibleAmd(const KernelRecord &r, const AmdArch &arch, const LaunchAssumption &launch) {
  const std::string target(arch.name);
  auto over = [&](Field f, std::int64_t most) { return r.has(f) && figure(r, f) > most; };
  if (over(Field::Vgprs, arch.max_arch_vgprs))
    return std::to_string(figure(r, Field::Vgprs)) + " VGPRs, more than the " + std::to_string(arch.max_arch_vgprs) +
           " a kernel can address on " + target;
  const int agprs = arch.agprs == AgprMode::None ? 0 : arch.max_arch_vgprs;
  if (over(Field::Agprs, agprs))
    return std::to_string(figure(r, Field::Agprs)) + " AGPRs, more than the " + std::to_string(agprs) + " " + target +
           " has";
  if (over(Field::VgprsTotal, arch.vgpr_file))
    return std::to_string(figure(r, Field::VgprsTotal)) + " VGPRs allocated, more than " + target + "'s file of " +
           std::to_string(arch.vgpr_file);
  if (over(Field::Sgprs, arch.max_sgprs))
    return std::to_string(figure(r, Field::Sgprs)) + " SGPRs, more than the " + std::to_string(arch.max_sgprs) +
           " a kernel can use on " + target;
  // gfx9 allocates whole granules: the most a kernel can use, rounded up.
  if (const int most = allocatedSgprsOf(arch, arch.max_sgprs); arch.sgprs.granule && over(Field::SgprsAllocated, most))
    return std::to_string(figure(r, Field::SgprsAllocated)) + " SGPRs allocated, more than the " +
           std::to_string(most) + " a wave can have on " + target;
  if (launch.dynamic_shared < 0) return "dynamic LDS of " + std::to_string(launch.dynamic_shared) + " bytes";
  const std::int64_t lds = (r.has(Field::LdsBytes) ? figure(r, Field::LdsBytes) : 0) + launch.dynamic_shared;
  if (lds > arch.max_lds_per_workgroup)
    return std::to_string(lds) + " bytes of LDS per workgroup" +
           (launch.dynamic_shared ? " (" + std::to_string(lds - launch.dynamic_shared) + " static + " +
                                        std::to_string(launch.dynamic_shared) + " dynamic)"
                                  : std::string()) +
           ", more than " + target + "'s " + std::to_string(arch.max_lds_per_workgroup);
  if (r.has(Field::MaxWorkgroupSize) &&
      (figure(r, Field::MaxWorkgroupSize) < 1 || figure(r, Field::MaxWorkgroupSize) > kDefaultAmdWorkgroupSize))
    return "a maximum workgroup size of " + std::to_string(figure(r, Field::MaxWorkgroupSize)) + " (1 to " +
           std::to_string(kDefaultAmdWorkgroupSize) + " on " + target + ")";
  if (launch.block_size < 1 || launch.block_size > kDefaultAmdWorkgroupSize)
    return "a workgroup of " + std::to_string(launch.block_size) + " threads (1 to " +
           std::to_string(kDefaultAmdWorkgroupSize) + " on " + target + ")";
  return "";
}

}  // namespace

std::vector<Field> amdRequiredFigures(const KernelRecord &record) {
  std::vector<Field> required;
  // The allocation (the kernel descriptor's) stands for both counts; without
  // it, what the code uses (.vgpr_count) does, and without that the model adds
  // VGPRs and, where the target has them, AGPRs. An allocation a source gave
  // but that was found unreadable or contradictory is in record.missing.
  if (!record.has(Field::VgprsTotal) && !record.isUnresolved(Field::VgprsTotal) && !record.has(Field::VgprsUsed)) {
    required.push_back(Field::Vgprs);
    const AmdArch *arch = findAmdArch(record.arch);
    if (arch && arch->agprs != AgprMode::None) required.push_back(Field::Agprs);
  }
  for (Field f : {Field::Sgprs, Field::LdsBytes, Field::ScratchBytes, Field::VgprSpills, Field::SgprSpills})
    required.push_back(f);
  return required;
}

ModelledKernel modelAmdKernel(const KernelRecord &record, const AmdArch &row, const LaunchOverrides &launch,
                              CompilerModel compiler) {
  ModelledKernel m;
  const Figures value(record);
  m.unknown = missingFigures(record, amdRequiredFigures(record));
  m.impossible = figureOutOfRange(record);
  // An expression that no link can resolve (a .set cycle, an overflow, one
  // regscope cannot read) is damage, not "until link".
  if (m.impossible.empty() && !record.notes.empty()) m.impossible = record.notes.front();
  // The row as the kernel was compiled: its wave size and WGP/CU mode.
  const AmdArch arch =
      m.impossible.empty()
          ? configureArch(row, value(Field::WaveSize), record.has(Field::WgpMode) && record.value(Field::WgpMode) == 0)
          : row;
  m.launch = chooseLaunch(record, value, launch, Field::MaxWorkgroupSize, BlockSizeSource::MaxFlatWorkgroupSize,
                          kDefaultAmdWorkgroupSize, launch.dynamic_lds);
  AmdKernelModel amd{arch, {}, std::nullopt, false, anyUnresolved(record) && m.impossible.empty()};
  m.summary.vendor = Vendor::Amd;
  m.summary.max_level = arch.max_waves_per_simd;
  // Spills and scratch are the record's, whether or not an occupancy follows
  // (a kernel that cannot launch as assumed still spills what it spills).
  auto read = [&](Field f) { return m.knows(f) && !record.isUnresolved(f); };
  m.summary.spills = value(Field::VgprSpills) + value(Field::SgprSpills);
  m.summary.spills_known = read(Field::VgprSpills) && read(Field::SgprSpills);
  m.summary.scratch_bytes = value(Field::ScratchBytes);
  m.summary.scratch_known = read(Field::ScratchBytes);
  auto noOccupancy = [&](Limiter limiter) {
    amd.occupancy.max_waves_per_simd = arch.max_waves_per_simd;
    amd.occupancy.max_waves_per_cu = arch.max_waves_per_simd * arch.simds_per_cu;
    amd.occupancy.limiter = limiter;
    m.summary.limiter = limiter;
    m.model = std::move(amd);
    return m;
  };
  if (amd.unresolved) return noOccupancy(Limiter::Unresolved);
  if (m.impossible.empty()) m.impossible = impossibleAmd(record, arch, m.launch);
  // Cannot launch: no occupancy to speak of.
  if (!m.impossible.empty() || m.launch.exceeds_bound()) return noOccupancy(Limiter::Invalid);
  if (occupancyUnknown(m.unknown)) return noOccupancy(Limiter::Unknown);
  // Dynamic LDS a launch passes that regscope could not evaluate: counting it
  // as 0 would be a confident wrong occupancy. Unknown until it is given.
  if (!m.launch.dynamic_unread_at.empty()) return noOccupancy(Limiter::Unknown);
  KernelResources resources;
  resources.vgprs = value(Field::Vgprs);
  resources.agprs = value(Field::Agprs);
  resources.vgprs_total = record.has(Field::VgprsTotal) ? value(Field::VgprsTotal) : value(Field::VgprsUsed);
  resources.sgprs = value(Field::Sgprs);
  // The exact count where a .s gave it: the step and the headroom are then exact too.
  resources.sgprs_allocated =
      record.has(Field::SgprsRequested) ? value(Field::SgprsRequested) : value(Field::SgprsAllocated);
  resources.lds_bytes = addBytes(value(Field::LdsBytes), m.launch.dynamic_shared);
  resources.workgroup_size = m.launch.block_size;
  // A launch whose workgroup the registers can never hold (a --block-size over
  // what the kernel was compiled for, or LLVM 15 counting AGPRs apart from the
  // flat workgroup size on gfx90a): it cannot run; the figures are possible.
  // The record's own: whatever the launch.
  amd.hidden_agpr_spills = arch.agprs == AgprMode::Separate && record.value(Field::Agprs) > 0 &&
                           record.has(Field::MfmaInstructions) && record.value(Field::MfmaInstructions) == 0;
  amd.not_resident = workgroupNotResident(arch, resources);
  if (!amd.not_resident.empty()) {
    amd.occupancy.vgprs_total = allocatedVgprs(arch, resources);
    m.summary.registers = amd.occupancy.vgprs_total;
    m.summary.registers_known = true;
    return noOccupancy(Limiter::Invalid);
  }
  amd.occupancy = computeOccupancy(arch, resources);
  amd.resources = resources;
  if (record.has(Field::CompilerOccupancy)) {
    KernelResources compiled = resources;  // what the compiler saw
    compiled.workgroup_size = m.launch.max_block_size > 0 ? m.launch.max_block_size : kDefaultAmdWorkgroupSize;
    compiled.lds_bytes = value(Field::LdsBytes);
    CompilerFigure figure;
    figure.printed = value(Field::CompilerOccupancy);
    figure.model = compiler;
    figure.compiler_terms = computeOccupancyAs(arch, compiled, compiler);
    figure.expected = compiler == CompilerModel::Hardware ? figure.printed : figure.compiler_terms.waves_per_simd;
    figure.compile_block_size = compiled.workgroup_size;
    figure.waves_per_workgroup =
        compiled.workgroup_size / arch.wave_size + (compiled.workgroup_size % arch.wave_size != 0);
    figure.launch_differs =
        compiled.workgroup_size != resources.workgroup_size || compiled.lds_bytes != resources.lds_bytes;
    figure.hardware_terms = computeOccupancy(arch, compiled);
    figure.hardware_at_compile = figure.hardware_terms.waves_per_simd;
    amd.compiler = figure;
  }
  m.summary.level = amd.occupancy.waves_per_simd;
  // Baselines before 1.5 counted gfx9 SGPRs by LLVM's table, without the allocation.
  AmdArch by_table = arch;
  by_table.sgprs.per_simd = 0;
  KernelResources used = resources;
  used.sgprs_allocated = 0;
  if (const int before = computeOccupancy(by_table, used).waves_per_simd; before != m.summary.level)
    m.summary.level_before_baseline_1_5 = before;
  m.summary.level_by_registers = amd.occupancy.by_vgpr;
  m.summary.registers = amd.occupancy.vgprs_total;
  m.summary.limiter = amd.occupancy.limiter;
  m.summary.registers_known = true;
  m.model = std::move(amd);
  return m;
}

}  // namespace regscope
