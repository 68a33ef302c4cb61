// The Intel backend: ocloc per GRF mode (the pipeline's Intel jobs,
// src/pipeline/intel_job.cpp), the zebin's .ze_info, ocloc's log and IGC's
// shader dump read into records, and the Xe occupancy model.
#include "regscope/backends/intel/backend.h"

#include "regscope/backend/target_messages.h"
#include "regscope/backends/intel/describe.h"
#include "regscope/backends/intel/ocloc.h"
#include "regscope/support/error.h"

namespace regscope {
namespace {

class IntelBackend final : public Backend {
 public:
  Vendor vendor() const override { return Vendor::Intel; }

  std::string findCompiler(const std::string &explicit_path) const override { return findOcloc(explicit_path); }
  // ocloc runs once per GRF mode, as an OclocJob, not as one CompileJob.
  CompileOutput compile(const CompileJob &job) const override {
    throw Error(job.source + ": compiled by ocloc, once per GRF mode, not as one job");
  }
  std::vector<std::string> lineTableFlags() const override { return {}; }
  bool keepsDeviceCode() const override { return false; }
  bool collectReadsDependencies() const override { return false; }
  std::vector<RefusedTarget> refusedTargets(const std::string &) const override { return {}; }
  void checkRequested(const RequestedTargets &) const override {}  // the device: requireIntelDevice, with the jobs
  std::vector<std::string> compileTargets(const RequestedTargets &) const override { return {}; }
  // ocloc's inputs are named on the command line (.cl, .spv), not read from a compile database.
  DatabaseEntries databaseEntries() const override {
    return {[](const std::string &, const std::vector<std::string> &) { return false; }, "OpenCL C", ""};
  }
  std::string refusedSource(const std::string &, const RequestedTargets &,
                            const std::vector<std::string> &) const override {
    return "";
  }
  void checkExplainTools(const std::string &) const override {}
  std::vector<std::string> referenceKernelFlags(const std::string &) const override { return {}; }
  const char *runnerPlatform() const override { return ""; }  // the runner runs no Intel GPU
  void requestTargets(RequestedTargets &, const std::vector<std::string> &) const override {}  // --intel-device
  bool runnerGpuPresent() const override { return false; }
  std::vector<std::string> runnerConfigureFlags() const override { return {}; }
  std::string runnerArch(const nlohmann::json &) const override { return ""; }
  // regscope wrap reads hipcc/clang and nvcc compiles, not ocloc's.
  WrappedCompile readWrappedCompile(const std::vector<std::string> &) const override { return {}; }
  std::vector<std::string> wrapFlags() const override { return {}; }
  std::string splitWrapOutput(std::string_view diagnostics, std::string &) const override {
    return std::string(diagnostics);
  }
  std::string noArtifactLineFigures() const override {
    return "per-line registers are read for AMD (the .s) and NVIDIA (nvdisasm) kernels";
  }
  std::string artifactIsaPath(const KernelRecord &record) const override { return record.file; }
  std::optional<IsaReport> readArtifactIsa(const KernelRecord &, const std::string &) const override {
    throw Error(noArtifactLineFigures());
  }
  std::string noArtifactLines(const KernelRecord &) const override { return noArtifactLineFigures(); }
  bool usesEntryCompiler() const override { return false; }
  bool compilesEditedText() const override { return false; }
  Optimisation optimisation(const std::string &, const std::vector<std::string> &flags, bool) const override {
    // ocloc optimises unless the OpenCL options disable it.
    for (const std::string &f : flags)
      if (f.find("-cl-opt-disable") != std::string::npos) return {"-O0", OptimisationSource::Flags, "ocloc"};
    return {"optimised", OptimisationSource::CompilerDefault, "ocloc"};  // OpenCL has no -O level
  }
  void setLaunchDynamicShared(LaunchOverrides &launch, int bytes) const override { launch.dynamic_lds = bytes; }

  CollectedRun collect(const CompileOutput &, const std::string &compiled_source, const SourceReader &) const override {
    throw Error(compiled_source + ": compiled by ocloc, once per GRF mode, not as one job");
  }
  CollectedRun collectObject(std::string_view, std::string_view, const std::vector<std::string> &,
                             const std::string &compiled_source, const SourceReader &) const override {
    throw Error(compiled_source + ": regscope wrap reads hipcc/clang and nvcc objects, not ocloc's");
  }

  std::vector<Field> requiredFigures(const KernelRecord &) const override { return intelRequiredFigures(); }
  std::optional<ModelledKernel> model(const KernelRecord &record, const LaunchOverrides &launch, const std::string &,
                                      std::string &warning) const override {
    const IntelTarget target = parseIntelTarget(record.arch);
    if (const IntelDevice *device = findIntelDevice(target.device))
      return modelIntelKernel(record, *device, target, launch);
    warning = noOccupancyTable(record, knownIntelDeviceList());
    return std::nullopt;
  }
  std::string unknownTarget(const KernelRecord &record) const override {
    // The device of the record's target ("pvc:large-grf" is pvc's), as model() looks it up.
    if (findIntelDevice(parseIntelTarget(record.arch).device)) return "";
    return unknownTargetOf(record, "Intel device", knownIntelDeviceList());
  }
  void chart(const ModelledKernel &kernel, OccupancyChart &chart) const override {
    intelChart(kernel, std::get<IntelKernelModel>(kernel.model), chart);
  }
  const char *occupancyUnit() const override { return "threads/Xe-core"; }
  const char *spillsUnit() const override { return "bytes of spill per thread"; }

  std::string noLineFigures() const override {
    return "per-line registers are read for AMD (the .s) and NVIDIA (nvdisasm) kernels; Intel's "
           "would come from IGC's shader dump (docs/explain.md)";
  }
  const char *assemblyName() const override { return "zebin"; }
  IsaReport readIsa(const ArchOutput &, const IsaRequest &) const override { throw Error(noLineFigures()); }

  void relateKernels(const std::vector<KernelReport *> &kernels) const override { recommendGrfModes(kernels); }
  KernelSection kernelSection(const std::vector<const KernelReport *> &kernels, const std::string &) const override {
    return intelKernelSection(kernels);
  }
  nlohmann::json kernelJson(const KernelReport &kernel, const std::string &) const override {
    return intelKernelJson(kernel);
  }
  std::string nextStep(const KernelReport &kernel) const override { return intelNextStep(kernel); }
  int sharedMemoryBytes(const KernelReport &kernel) const override {
    return std::get<IntelKernelModel>(kernel.model).resources.slm_bytes;
  }
  // Intel's step is the GRF mode and SLM, not a register count.
  std::optional<std::string> registerCliff(const KernelReport &, int) const override { return std::nullopt; }
  std::optional<std::string> hiddenSpills(const KernelReport &) const override { return std::nullopt; }
  std::optional<KernelFigures> measuredFigures(const KernelReport &) const override { return std::nullopt; }
};

}  // namespace

const Backend &intelBackend() {
  static const IntelBackend backend;
  return backend;
}

}  // namespace regscope
