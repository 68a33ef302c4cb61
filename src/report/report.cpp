// The model stage: applies the occupancy model to each merged record and
// explains where the compiler's own printed figure differs.
#include "regscope/report.h"

#include "regscope/arch.h"

namespace regscope {

constexpr int kDefaultWorkgroupSize = 1024;  // HIP's --gpu-max-threads-per-block

void addKernels(Report &report, const std::vector<KernelRecord> &records) {
  for (const KernelRecord &record : records) {
    const AmdArch *arch = findAmdArch(record.arch);
    if (!arch) {
      report.warnings.push_back("no occupancy table for " + record.arch + " (kernel " +
                                record.demangled + "); known: " + knownArchList());
      continue;
    }
    KernelReport k;
    k.record = record;
    if (record.has(Field::MaxWorkgroupSize)) {
      k.workgroup_size = static_cast<int>(record.value(Field::MaxWorkgroupSize));
      k.workgroup_size_source = "max_flat_workgroup_size";
    } else {
      k.workgroup_size = kDefaultWorkgroupSize;
      k.workgroup_size_source = "default";
    }
    KernelResources resources;
    resources.vgprs = static_cast<int>(record.value(Field::Vgprs));
    resources.agprs = static_cast<int>(record.value(Field::Agprs));
    resources.vgprs_total = static_cast<int>(record.value(Field::VgprsTotal));
    resources.sgprs = static_cast<int>(record.value(Field::Sgprs));
    resources.lds_bytes = static_cast<int>(record.value(Field::LdsBytes));
    resources.workgroup_size = k.workgroup_size;
    k.occupancy = computeOccupancy(*arch, resources);

    if (record.has(Field::CompilerOccupancy)) {
      k.compiler_reported = static_cast<int>(record.value(Field::CompilerOccupancy));
      const int ours = k.occupancy.waves_per_simd;
      if (*k.compiler_reported != ours) {
        const int llvm15 = computeOccupancy(*arch, resources, LdsRule::Llvm15).waves_per_simd;
        const int waves_per_group = (k.workgroup_size + arch->wave_size - 1) / arch->wave_size;
        if (llvm15 == *k.compiler_reported)
          k.explanation = "the compiler printed " + std::to_string(*k.compiler_reported) +
                          " waves/SIMD: LLVM 15 does not spread a workgroup's " +
                          std::to_string(waves_per_group) + " waves over the CU's " +
                          std::to_string(arch->simds_per_cu) +
                          " SIMDs in its LDS/workgroup term, so it overstates occupancy for large "
                          "workgroups and LDS-bound kernels (fixed in LLVM 16, D139468)";
        else
          k.explanation = "the compiler printed " + std::to_string(*k.compiler_reported) +
                          " waves/SIMD, regscope's model gives " + std::to_string(ours) +
                          "; the compiler may know a launch bound or attribute regscope does not";
      }
    }
    report.kernels.push_back(std::move(k));
  }
}

}  // namespace regscope
