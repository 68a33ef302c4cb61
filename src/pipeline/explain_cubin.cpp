// explain on NVIDIA binaries that already exist: a cubin, a fatbin, or a host
// object/executable with .nv_fatbin (include/regscope/pipeline/explain.h).
// The figures are parse's; per line, nvdisasm's liveness (-c -plr) joined with
// its line table (-c -gi) of each cubin, as explain --cuda-arch reads the
// cubin of its own compile. Without nvdisasm: one line, exit 2.
#include <filesystem>

#include "jobs.h"
#include "regscope/backends/nvidia/cubin.h"
#include "regscope/backends/nvidia/driver.h"
#include "regscope/backends/nvidia/isa.h"
#include "regscope/pipeline/explain.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"

namespace regscope {

bool isNvidiaArtifact(const std::string &file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return false;
  try {
    const MappedFile mapped(file);
    return isNvidiaBinary(mapped.bytes());
  } catch (const Error &) {
    return false;
  }
}

ExplainedReport explainNvidiaArtifacts(const std::vector<std::string> &files, const std::string &nvdisasm,
                                       const LaunchOverrides &launch, int timeout_seconds) {
  if (nvdisasm.empty())
    throw Error(
        "explain on a cubin needs nvdisasm (CUDA's full toolkit), which is not on PATH, beside nvcc or in "
        "/usr/local/cuda/bin; `regscope parse` gives the figures without it");
  ExplainedReport out;
  out.report = parseArtifacts(files, "", launch);
  // Each file's cubins through nvdisasm once; a kernel takes the listing of its arch's cubin.
  std::map<std::pair<std::string, std::string>, std::shared_ptr<const IsaReport>> listings;  // (file, arch)
  std::map<std::pair<std::string, std::string>, std::string> failures;
  for (const std::string &file : files) {
    const MappedFile mapped(file);
    const NvidiaBinary binary = readNvidiaBinary(mapped.bytes(), /*keep_images=*/true);
    for (const Cubin &cubin : binary.cubins) {
      const auto key = std::make_pair(file, cubin.arch);
      if (listings.count(key) || failures.count(key)) continue;
      try {
        const CubinListing listing = disassembleCubin(nvdisasm, std::string(cubin.image), timeout_seconds);
        listings[key] = std::make_shared<const IsaReport>(joinNvdisasm(listing.life_ranges, listing.line_info));
      } catch (const Error &e) {
        failures[key] = e.what();
        // CUDA 13's nvdisasm does no flow analysis on CUDA 12's cubins (ELF ABI v1: Triton 3.x's).
        const std::string said = e.what();
        if (cubin.abi_version == 7 &&
            (said.find("Old format") != std::string::npos || said.find("flow analysis") != std::string::npos))
          failures[key] +=
              "; the cubin was written by CUDA 12 or older (ELF ABI v1), which CUDA 13's nvdisasm "
              "cannot analyse: put that toolkit's nvdisasm first on PATH (Triton ships one in "
              "triton/backends/nvidia/bin)";
      }
    }
  }
  for (KernelReport &kernel_report : out.report.kernels) {
    const KernelRecord &record = kernel_report.record;
    KernelIsa kernel;
    const auto key = std::make_pair(record.file, record.arch);
    if (auto it = listings.find(key); it != listings.end()) {
      kernel.isa = it->second;
      for (std::size_t f = 0; f < kernel.isa->functions.size(); ++f)
        if (kernel.isa->functions[f].name == record.name) kernel.function = static_cast<int>(f);
    }
    if (kernel.get())
      readSources(kernel, kernel_report);
    else if (auto it = failures.find(key); it != failures.end())
      kernel.missing = "its cubin could not be read by nvdisasm: " + it->second;
    else
      kernel.missing = "nvdisasm's listing of its cubin has no function " + record.name;
    out.kernels.push_back(std::move(kernel));
  }
  return out;
}

}  // namespace regscope
