// The model stage: applies the occupancy model to each merged record and
// explains where the compiler's own printed figure differs.
#include "regscope/report.h"

#include "regscope/arch.h"

#include <algorithm>
#include <map>

namespace regscope {

constexpr int kDefaultWorkgroupSize = 1024;  // HIP's --gpu-max-threads-per-block

namespace {

constexpr int kDefaultCudaBlockSize = 256;  // no launch bounds, no --block-size

int value(const KernelRecord &r, Field f) { return static_cast<int>(r.value(f)); }

// The workgroup/block size the model assumes: --block-size, else what the
// kernel was compiled for (`field`), else the vendor's default.
void chooseWorkgroupSize(KernelReport &k, const LaunchOverrides &launch, Field field, const char *field_source,
                         int fallback) {
  if (launch.block_size) {
    k.workgroup_size = *launch.block_size;
    k.workgroup_size_source = "--block-size";
  } else if (k.record.has(field)) {
    k.workgroup_size = value(k.record, field);
    k.workgroup_size_source = field_source;
  } else {
    k.workgroup_size = fallback;
    k.workgroup_size_source = "default";
  }
}

KernelReport nvidiaKernel(const KernelRecord &record, const CudaArch &arch, const LaunchOverrides &launch) {
  KernelReport k;
  k.record = record;
  chooseWorkgroupSize(k, launch, Field::MaxThreadsPerBlock, "launch_bounds", kDefaultCudaBlockSize);
  k.dynamic_shared = launch.dynamic_shared;
  CudaResources resources;
  resources.registers = value(record, Field::Registers);
  resources.static_shared = value(record, Field::SharedBytes);
  resources.dynamic_shared = launch.dynamic_shared;
  resources.block_size = k.workgroup_size;
  resources.carveout_percent = launch.carveout_percent;
  k.cuda = computeCudaOccupancy(arch, resources);
  const int warps_per_block = (k.workgroup_size + 31) / 32;
  k.summary = {k.cuda->warps_per_sm,
               k.cuda->max_warps_per_sm,
               "warps/SM",
               std::min(k.cuda->by_registers, k.cuda->by_warps) * warps_per_block,
               resources.registers,
               value(record, Field::SpillStoreBytes),
               "bytes of spill stores",
               value(record, Field::StackBytes),
               k.cuda->limiter};
  return k;
}

}  // namespace

void addKernels(Report &report, const std::vector<KernelRecord> &records, const LaunchOverrides &launch) {
  for (const KernelRecord &record : records)
    for (const std::string &w : record.warnings)
      report.warnings.push_back(record.demangled + " [" + record.arch + "]: sources disagree on " + w);
  const std::size_t first = report.kernels.size();
  for (const KernelRecord &record : records) {
    if (record.vendor == "nvidia") {
      const CudaArch *cuda = findCudaArch(record.arch);
      if (!cuda) {
        report.warnings.push_back("no occupancy table for " + record.arch + " (kernel " + record.demangled +
                                  "); known: " + knownCudaArchList());
        continue;
      }
      report.kernels.push_back(nvidiaKernel(record, *cuda, launch));
      continue;
    }
    const AmdArch *row = findAmdArch(record.arch);
    if (!row) {
      report.warnings.push_back("no occupancy table for " + record.arch + " (kernel " +
                                record.demangled + "); known: " + knownArchList());
      continue;
    }
    // The row as the kernel was compiled: its wave size and WGP/CU mode.
    const AmdArch configured = configureArch(*row, value(record, Field::WaveSize),
                                             record.has(Field::WgpMode) && record.value(Field::WgpMode) == 0);
    const AmdArch *arch = &configured;
    KernelReport k;
    k.record = record;
    chooseWorkgroupSize(k, launch, Field::MaxWorkgroupSize, "max_flat_workgroup_size", kDefaultWorkgroupSize);
    for (Field f : {Field::Vgprs, Field::VgprsTotal, Field::Agprs, Field::Sgprs, Field::LdsBytes})
      if (std::find(record.unresolved.begin(), record.unresolved.end(), f) != record.unresolved.end())
        k.unresolved = true;
    if (k.unresolved) {
      k.occupancy.max_waves_per_simd = arch->max_waves_per_simd;
      k.occupancy.limiter = "unresolved";
      k.summary = {0, arch->max_waves_per_simd, "waves/SIMD", 0, 0, 0, "spilled registers", 0, "unresolved"};
      report.kernels.push_back(std::move(k));
      continue;
    }
    KernelResources resources;
    resources.vgprs = value(record, Field::Vgprs);
    resources.agprs = value(record, Field::Agprs);
    resources.vgprs_total = value(record, Field::VgprsTotal);
    resources.sgprs = value(record, Field::Sgprs);
    resources.lds_bytes = value(record, Field::LdsBytes) + launch.dynamic_lds;
    resources.workgroup_size = k.workgroup_size;
    k.occupancy = computeOccupancy(*arch, resources);

    if (record.has(Field::CompilerOccupancy)) {
      k.compiler_reported = static_cast<int>(record.value(Field::CompilerOccupancy));
      const int ours = k.occupancy.waves_per_simd;
      const CompilerModel model = compilerModelFor(report.compiler_version);
      const int expected = model == CompilerModel::Hardware ? *k.compiler_reported
                                                            : computeOccupancyAs(*arch, resources, model).waves_per_simd;
      const int waves_per_group = (k.workgroup_size + arch->wave_size - 1) / arch->wave_size;
      if (expected != *k.compiler_reported) {
        k.explanation = "the compiler printed " + std::to_string(*k.compiler_reported) + " waves/SIMD where regscope's "
                        "model of " + report.compiler_version + " gives " + std::to_string(expected) +
                        "; the compiler may know a launch bound or attribute regscope does not";
      } else if (*k.compiler_reported != ours && model == CompilerModel::Llvm15) {
        k.explanation = "the compiler printed " + std::to_string(*k.compiler_reported) +
                        " waves/SIMD: LLVM 15 does not spread a workgroup's " + std::to_string(waves_per_group) +
                        " waves over the CU's " + std::to_string(arch->simds_per_cu) +
                        " SIMDs in its LDS/workgroup term" +
                        (arch->vgpr_file_1_5x ? " and does not know this target's 1.5x register file" : "") +
                        ", so it overstates occupancy (fixed in LLVM 16, D139468)";
      }
    }
    k.hidden_agpr_spills = arch->agprs == AgprMode::Separate && record.value(Field::Agprs) > 0 &&
                           record.has(Field::MfmaInstructions) && record.value(Field::MfmaInstructions) == 0;
    k.summary = {k.occupancy.waves_per_simd,
                 k.occupancy.max_waves_per_simd,
                 "waves/SIMD",
                 k.occupancy.by_vgpr,
                 k.occupancy.vgprs_total,
                 value(record, Field::VgprSpills) + value(record, Field::SgprSpills),
                 "spilled registers",
                 value(record, Field::ScratchBytes),
                 k.occupancy.limiter};
    report.kernels.push_back(std::move(k));
  }
  // Each kernel's archs side by side, kernels in the order first seen.
  std::map<std::string, std::size_t> rank;
  for (std::size_t k = first; k < report.kernels.size(); ++k)
    rank.try_emplace(report.kernels[k].record.name, rank.size());
  std::stable_sort(report.kernels.begin() + first, report.kernels.end(),
                   [&](const KernelReport &a, const KernelReport &b) {
                     return rank[a.record.name] < rank[b.record.name];
                   });
}

}  // namespace regscope
