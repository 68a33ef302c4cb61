// The registry: the one place that lists the backends (as LLVM's
// InitializeAllTargets lists its targets), and the vendor-neutral functions
// that reach a record's or a source's backend through it.
#include <nlohmann/json.hpp>
#include <variant>

#include "regscope/backend/backend.h"
#include "regscope/backends/amd/backend.h"
#include "regscope/backends/intel/backend.h"
#include "regscope/backends/intel/ocloc.h"
#include "regscope/backends/nvidia/backend.h"

namespace regscope {
namespace {

// In the order of KernelModel's alternatives (backend/modelled_kernel.h).
const Backend &backendOfModel(const ModelledKernel &kernel) {
  static const Backend *const kByModel[] = {&amdBackend(), &nvidiaBackend(), &intelBackend()};
  static_assert(std::variant_size_v<KernelModel> == 3, "one backend per KernelModel alternative");
  return *kByModel[kernel.model.index()];
}

}  // namespace

const Backend &backendFor(Vendor vendor) {
  switch (vendor) {
    case Vendor::Amd:
      return amdBackend();
    case Vendor::Nvidia:
      return nvidiaBackend();
    case Vendor::Intel:
      return intelBackend();
  }
  return amdBackend();
}

bool compiledPerGrfMode(const std::string &path) { return isOclocInput(path); }

WrappedCompile readWrappedCompile(const std::vector<std::string> &argv) {
  WrappedCompile compile;
  for (const Backend *backend : {&amdBackend(), &nvidiaBackend()}) {  // ocloc's compiles are not wrapped
    compile = backend->readWrappedCompile(argv);
    if (compile.device) break;
  }
  return compile;
}

const Backend &backendForRunner(const std::string &platform) {
  for (const Backend *backend : {&amdBackend(), &nvidiaBackend(), &intelBackend()})
    if (*backend->runnerPlatform() && platform == backend->runnerPlatform()) return *backend;
  return amdBackend();
}

const Backend *runnerGpuBackend() {
  for (const Backend *backend : {&nvidiaBackend(), &amdBackend()})
    if (backend->runnerGpuPresent()) return backend;
  return nullptr;
}

nlohmann::json requestedTargetsJson(const RequestedTargets &requested) {
  return {
      {"archs", requested.archs}, {"archs_explicit", requested.archs_explicit}, {"cuda_archs", requested.cuda_archs}};
}

const Backend &backendForTargets(const RequestedTargets &requested) {
  return requested.cuda_archs.empty() ? amdBackend() : nvidiaBackend();
}

const Backend &backendForSource(const std::string &path, const RequestedTargets &requested) {
  return compiledPerGrfMode(path) ? intelBackend() : backendForTargets(requested);
}

void checkRequestedTargets(const RequestedTargets &requested) {
  for (const Backend *backend : {&amdBackend(), &nvidiaBackend(), &intelBackend()}) backend->checkRequested(requested);
}

std::vector<Field> missingFigures(const KernelRecord &record) {
  return missingFigures(record, backendFor(record.vendor).requiredFigures(record));
}

std::optional<ModelledKernel> modelRecord(const KernelRecord &record, const LaunchOverrides &launch,
                                          const std::string &compiler_version, std::string &warning) {
  return backendFor(record.vendor).model(record, launch, compiler_version, warning);
}

OccupancyChart occupancyChart(const ModelledKernel &kernel) {
  OccupancyChart chart = chartFrame(kernel);
  if (!chartHasCurves(chart)) return chart;
  backendOfModel(kernel).chart(kernel, chart);
  limitingCurveFirst(chart);
  return chart;
}

const char *occupancyUnit(Vendor vendor) { return backendFor(vendor).occupancyUnit(); }
const char *spillsUnit(Vendor vendor) { return backendFor(vendor).spillsUnit(); }

void relateKernels(std::vector<KernelReport> &kernels, std::size_t first) {
  for (const Backend *backend : {&amdBackend(), &nvidiaBackend(), &intelBackend()}) {
    std::vector<KernelReport *> own;
    for (std::size_t k = first; k < kernels.size(); ++k)
      if (&backendOfModel(kernels[k]) == backend) own.push_back(&kernels[k]);
    if (!own.empty()) backend->relateKernels(own);
  }
}

std::vector<KernelSection> kernelSections(const std::vector<KernelReport> &kernels,
                                          const std::string &compiler_version) {
  std::vector<KernelSection> sections;
  for (const Backend *backend : {&nvidiaBackend(), &intelBackend(), &amdBackend()}) {
    std::vector<const KernelReport *> own;
    for (const KernelReport &k : kernels)
      if (&backendOfModel(k) == backend) own.push_back(&k);
    if (!own.empty()) sections.push_back(backend->kernelSection(own, compiler_version));
  }
  return sections;
}

nlohmann::json kernelJson(const KernelReport &kernel, const std::string &compiler_version) {
  return backendOfModel(kernel).kernelJson(kernel, compiler_version);
}

std::string kernelNextStep(const KernelReport &kernel) {
  if (kernel.summary.limiter == Limiter::Unknown) return unknownText(kernel);
  if (!kernel.impossible.empty()) return "cannot launch: " + kernel.impossible;
  return backendOfModel(kernel).nextStep(kernel);
}

int sharedMemoryBytes(const KernelReport &kernel) { return backendOfModel(kernel).sharedMemoryBytes(kernel); }

std::optional<std::string> registerCliff(const KernelReport &kernel, int registers) {
  return backendOfModel(kernel).registerCliff(kernel, registers);
}

std::optional<std::string> hiddenSpills(const KernelReport &kernel) {
  return backendOfModel(kernel).hiddenSpills(kernel);
}

std::optional<KernelFigures> measuredFigures(const KernelReport &kernel) {
  return backendOfModel(kernel).measuredFigures(kernel);
}

}  // namespace regscope
