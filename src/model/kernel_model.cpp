// The model stage for one kernel record. Each vendor has its function; the
// summary is what the gate and baselines compare across vendors.
#include "regscope/model/kernel_model.h"

#include <algorithm>
#include <climits>

#include "model_figures.h"

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
  }
  return "?";
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
  // The row as the kernel was compiled: its wave size and WGP/CU mode.
  ModelledKernel m;
  const Figures value(record, m.clamped);
  const AmdArch arch = configureArch(row, value(Field::WaveSize),
                                     record.has(Field::WgpMode) && record.value(Field::WgpMode) == 0);
  m.launch = chooseLaunch(record, value, launch, Field::MaxWorkgroupSize, BlockSizeSource::MaxFlatWorkgroupSize,
                          kDefaultAmdWorkgroupSize, launch.dynamic_lds);
  AmdKernelModel amd{arch, {}, std::nullopt, false, anyUnresolved(record)};
  m.summary.vendor = Vendor::Amd;
  m.summary.max_level = arch.max_waves_per_simd;
  if (amd.unresolved) {
    amd.occupancy.max_waves_per_simd = arch.max_waves_per_simd;
    amd.occupancy.limiter = Limiter::Unresolved;
    m.summary.limiter = Limiter::Unresolved;
    m.model = std::move(amd);
    return m;
  }
  if (m.launch.exceeds_bound()) {  // cannot launch: no occupancy to speak of
    amd.occupancy.max_waves_per_simd = arch.max_waves_per_simd;
    amd.occupancy.max_waves_per_cu = arch.max_waves_per_simd * arch.simds_per_cu;
    amd.occupancy.limiter = Limiter::Invalid;
    m.summary.limiter = Limiter::Invalid;
    m.model = std::move(amd);
    return m;
  }
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
    figure.expected = compiler == CompilerModel::Hardware
                          ? figure.printed
                          : computeOccupancyAs(arch, compiled, compiler).waves_per_simd;
    figure.compile_block_size = compiled.workgroup_size;
    figure.waves_per_workgroup = compiled.workgroup_size / arch.wave_size + (compiled.workgroup_size % arch.wave_size != 0);
    figure.launch_differs = compiled.workgroup_size != resources.workgroup_size || compiled.lds_bytes != resources.lds_bytes;
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
  const Figures value(record, m.clamped);
  m.launch = chooseLaunch(record, value, launch, Field::MaxThreadsPerBlock, BlockSizeSource::LaunchBounds,
                          kDefaultCudaBlockSize, launch.dynamic_shared);
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
