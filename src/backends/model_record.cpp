#include "regscope/backends/model_record.h"

#include "regscope/target/amdgpu.h"
#include "regscope/target/cuda.h"
#include "regscope/target/intel.h"

namespace regscope {

std::optional<ModelledKernel> modelRecord(const KernelRecord &record, const LaunchOverrides &launch,
                                          const std::string &compiler_version, std::string &warning) {
  switch (record.vendor) {
    case Vendor::Amd:
      if (const AmdArch *row = findAmdArch(record.arch))
        return modelAmdKernel(record, *row, launch, compilerModelFor(compiler_version));
      warning =
          "no occupancy table for " + record.arch + " (kernel " + record.demangled + "); known: " + knownArchList();
      return std::nullopt;
    case Vendor::Nvidia:
      if (const CudaArch *arch = findCudaArch(record.arch)) return modelCudaKernel(record, *arch, launch);
      warning =
          "no occupancy table for " + record.arch + " (kernel " + record.demangled + "); known: " + knownCudaArchList();
      return std::nullopt;
    case Vendor::Intel: {
      const IntelTarget target = parseIntelTarget(record.arch);
      if (const IntelDevice *device = findIntelDevice(target.device))
        return modelIntelKernel(record, *device, target, launch);
      warning = "no occupancy table for " + record.arch + " (kernel " + record.demangled +
                "); known: " + knownIntelDeviceList();
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace regscope
