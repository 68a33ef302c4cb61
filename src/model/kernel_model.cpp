// The model stage for one kernel record. Each vendor has its function; the
// summary is what the gate and baselines compare across vendors.
#include "regscope/model/kernel_model.h"

#include <algorithm>
#include <climits>

#include "model_figures.h"
#include "regscope/target/amdgpu.h"

namespace regscope {
namespace {

constexpr int kDefaultAmdWorkgroupSize = 1024;  // HIP's --gpu-max-threads-per-block
constexpr int kDefaultCudaBlockSize = 256;      // no launch bounds, no --block-size

// The workgroup/block size the model assumes: --block-size, else what the
// kernel was compiled for (`field`), else the vendor's default.
LaunchAssumption chooseLaunch(const KernelRecord &record, const Figures &value, const LaunchOverrides &launch,
                              Field field, BlockSizeSource field_source, int fallback, int dynamic_shared) {
  LaunchAssumption a;
  a.dynamic_shared = dynamic_shared;
  a.dynamic_source = dynamic_shared ? launch.dynamic_source : DynamicSharedSource::None;
  a.max_block_size = record.has(field) ? value(field) : 0;
  if (launch.block_size) {
    a.block_size = *launch.block_size;
    a.source = launch.block_size_source;
  } else if (record.has(field)) {
    a.block_size = value(field);
    a.source = field_source;
  } else {
    a.block_size = fallback;
    a.source = BlockSizeSource::Default;
  }
  return a;
}

bool anyUnresolved(const KernelRecord &record) {
  for (Field f : {Field::Vgprs, Field::VgprsTotal, Field::Agprs, Field::Sgprs, Field::LdsBytes})
    if (record.isUnresolved(f)) return true;
  return false;
}

// The figures that feed a vendor's occupancy: one unknown, no occupancy.
bool feedsOccupancy(Field f) {
  switch (f) {
    case Field::Vgprs:
    case Field::Agprs:
    case Field::VgprsTotal:
    case Field::Sgprs:
    case Field::LdsBytes:
    case Field::Registers:
    case Field::GrfCount:
    case Field::SimdSize:
    case Field::MaxWorkgroupSize:  // the workgroup the model assumes when the launch does not say
    case Field::WaveSize:
      return true;
    default:
      return false;
  }
}

bool occupancyUnknown(const std::vector<Field> &unknown) {
  return std::any_of(unknown.begin(), unknown.end(), feedsOccupancy);
}

std::int64_t figure(const KernelRecord &record, Field f) { return *record.values[static_cast<std::size_t>(f)]; }

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

const char *dynamicSharedSourceName(DynamicSharedSource source) {
  switch (source) {
    case DynamicSharedSource::None:
      return "none";
    case DynamicSharedSource::Flag:
      return "flag";
    case DynamicSharedSource::Config:
      return "config";
    case DynamicSharedSource::LaunchSite:
      return "launch_site";
    case DynamicSharedSource::FuncAttribute:
      return "func_attribute";
    case DynamicSharedSource::TritonMetadata:
      return "triton_metadata";
  }
  return "?";
}

std::string figureOutOfRange(const KernelRecord &record) {
  for (const FieldInfo &info : fieldTable()) {
    if (!record.has(info.field)) continue;
    const std::int64_t v = figure(record, info.field);
    if (v < 0 || v > kMaxModelFigure)
      return std::string(info.key) + " " + std::to_string(v) + " is outside what any target allows";
  }
  return "";
}

std::vector<Field> missingFigures(const KernelRecord &record) {
  std::vector<Field> missing;
  auto need = [&](Field f) {
    if (!record.has(f) && !record.isUnresolved(f) && std::find(missing.begin(), missing.end(), f) == missing.end())
      missing.push_back(f);
  };
  for (Field f : record.missing) need(f);  // a source's format always carries it
  switch (record.vendor) {
    case Vendor::Amd:
      // The allocation (.vgpr_count, NumVGPRsForWavesPerEU) stands for both
      // counts; without it the model adds VGPRs and, where the target has
      // them, AGPRs.
      if (!record.has(Field::VgprsTotal) && !record.isUnresolved(Field::VgprsTotal)) {
        need(Field::Vgprs);
        const AmdArch *arch = findAmdArch(record.arch);
        if (arch && arch->agprs != AgprMode::None) need(Field::Agprs);
      }
      for (Field f : {Field::Sgprs, Field::LdsBytes, Field::ScratchBytes, Field::VgprSpills, Field::SgprSpills})
        need(f);
      break;
    case Vendor::Nvidia:
      // ptxas leaves out "bytes smem" when there is none: shared memory is not required.
      for (Field f : {Field::Registers, Field::StackBytes, Field::SpillStoreBytes, Field::SpillLoadBytes}) need(f);
      break;
    case Vendor::Intel:
      for (Field f : {Field::GrfCount, Field::SimdSize}) need(f);
      break;
  }
  return missing;
}

const char *blockSizeSourceName(BlockSizeSource source) {
  switch (source) {
    case BlockSizeSource::Flag:
      return "--block-size";
    case BlockSizeSource::Config:
      return "config";
    case BlockSizeSource::LaunchSite:
      return "launch_site";
    case BlockSizeSource::MaxFlatWorkgroupSize:
      return "max_flat_workgroup_size";
    case BlockSizeSource::LaunchBounds:
      return "launch_bounds";
    case BlockSizeSource::Default:
      return "default";
    case BlockSizeSource::RequiredWorkGroupSize:
      return "reqd_work_group_size";
    case BlockSizeSource::TritonMetadata:
      return "triton_metadata";
  }
  return "?";
}

const char *occupancyUnit(Vendor vendor) {
  switch (vendor) {
    case Vendor::Amd:
      return "waves/SIMD";
    case Vendor::Nvidia:
      return "warps/SM";
    case Vendor::Intel:
      return "threads/Xe-core";
  }
  return "?";
}

const char *spillsUnit(Vendor vendor) {
  switch (vendor) {
    case Vendor::Amd:
      return "spilled registers";
    case Vendor::Nvidia:
      return "bytes of spill stores";
    case Vendor::Intel:
      return "bytes of spill per thread";
  }
  return "?";
}

ModelledKernel modelAmdKernel(const KernelRecord &record, const AmdArch &row, const LaunchOverrides &launch,
                              CompilerModel compiler) {
  ModelledKernel m;
  const Figures value(record);
  m.unknown = missingFigures(record);
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
  KernelResources resources;
  resources.vgprs = value(Field::Vgprs);
  resources.agprs = value(Field::Agprs);
  resources.vgprs_total = value(Field::VgprsTotal);
  resources.sgprs = value(Field::Sgprs);
  resources.lds_bytes = addBytes(value(Field::LdsBytes), m.launch.dynamic_shared);
  resources.workgroup_size = m.launch.block_size;
  amd.occupancy = computeOccupancy(arch, resources);
  amd.resources = resources;
  if (record.has(Field::CompilerOccupancy)) {
    KernelResources compiled = resources;  // what the compiler saw
    compiled.workgroup_size = m.launch.max_block_size > 0 ? m.launch.max_block_size : kDefaultAmdWorkgroupSize;
    compiled.lds_bytes = value(Field::LdsBytes);
    CompilerFigure figure;
    figure.printed = value(Field::CompilerOccupancy);
    figure.model = compiler;
    figure.expected = compiler == CompilerModel::Hardware ? figure.printed
                                                          : computeOccupancyAs(arch, compiled, compiler).waves_per_simd;
    figure.compile_block_size = compiled.workgroup_size;
    figure.waves_per_workgroup =
        compiled.workgroup_size / arch.wave_size + (compiled.workgroup_size % arch.wave_size != 0);
    figure.launch_differs =
        compiled.workgroup_size != resources.workgroup_size || compiled.lds_bytes != resources.lds_bytes;
    figure.hardware_at_compile = computeOccupancy(arch, compiled).waves_per_simd;
    amd.compiler = figure;
  }
  amd.hidden_agpr_spills = arch.agprs == AgprMode::Separate && record.value(Field::Agprs) > 0 &&
                           record.has(Field::MfmaInstructions) && record.value(Field::MfmaInstructions) == 0;
  m.summary.level = amd.occupancy.waves_per_simd;
  m.summary.level_by_registers = amd.occupancy.by_vgpr;
  m.summary.registers = amd.occupancy.vgprs_total;
  m.summary.spills = value(Field::VgprSpills) + value(Field::SgprSpills);
  m.summary.scratch_bytes = value(Field::ScratchBytes);
  m.summary.limiter = amd.occupancy.limiter;
  m.model = std::move(amd);
  return m;
}

ModelledKernel modelCudaKernel(const KernelRecord &record, const CudaArch &arch, const LaunchOverrides &launch) {
  ModelledKernel m;
  const Figures value(record);
  m.unknown = missingFigures(record);
  m.impossible = figureOutOfRange(record);
  m.launch = chooseLaunch(record, value, launch, Field::MaxThreadsPerBlock, BlockSizeSource::LaunchBounds,
                          kDefaultCudaBlockSize, launch.dynamic_shared);
  if (m.impossible.empty() && record.has(Field::Registers) &&
      record.value(Field::Registers) > arch.max_registers_per_thread)
    m.impossible = std::to_string(record.value(Field::Registers)) + " registers per thread, more than the " +
                   std::to_string(arch.max_registers_per_thread) + " a thread can have";
  if (m.impossible.empty() && launch.dynamic_shared < 0)
    m.impossible = "dynamic shared memory of " + std::to_string(launch.dynamic_shared) + " bytes";
  if (!m.impossible.empty() || occupancyUnknown(m.unknown)) {
    CudaKernelModel cuda{arch, {}, {}};
    cuda.occupancy.max_warps_per_sm = arch.max_warps_per_sm;
    cuda.occupancy.limiter = m.impossible.empty() ? Limiter::Unknown : Limiter::Invalid;
    cuda.resources.block_size = m.launch.block_size;
    m.summary.vendor = Vendor::Nvidia;
    m.summary.max_level = arch.max_warps_per_sm;
    m.summary.limiter = cuda.occupancy.limiter;
    m.model = std::move(cuda);
    return m;
  }
  CudaResources resources;
  resources.registers = value(Field::Registers);
  resources.static_shared = value(Field::SharedBytes);
  resources.dynamic_shared = m.launch.dynamic_shared;
  resources.block_size = m.launch.block_size;
  resources.carveout_percent = launch.carveout_percent;
  CudaKernelModel cuda{arch, resources, computeCudaOccupancy(arch, resources)};
  if (m.launch.exceeds_bound()) {  // __launch_bounds__ refuses a larger block
    cuda.occupancy = CudaOccupancy{};
    cuda.occupancy.max_warps_per_sm = arch.max_warps_per_sm;
    cuda.occupancy.limiter = Limiter::Invalid;
    cuda.occupancy.invalid = CudaOccupancy::Invalid::LaunchBounds;
  }
  const int warps_per_block = m.launch.block_size / 32 + (m.launch.block_size % 32 != 0);
  m.summary = {Vendor::Nvidia,
               cuda.occupancy.warps_per_sm,
               cuda.occupancy.max_warps_per_sm,
               std::min(cuda.occupancy.by_registers, cuda.occupancy.by_warps) * warps_per_block,
               resources.registers,
               value(Field::SpillStoreBytes),
               value(Field::StackBytes),
               cuda.occupancy.limiter};
  m.model = std::move(cuda);
  return m;
}

}  // namespace regscope
