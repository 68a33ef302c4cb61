// The NVIDIA backend: nvcc once per source for every arch, ptxas/nvlink and
// the PTX's launch bounds read into records, the CUDA occupancy calculator's
// rules, and nvdisasm's liveness for explain.
#include "regscope/backends/nvidia/backend.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "regscope/backend/target_messages.h"
#include "regscope/backends/nvidia/collect.h"
#include "regscope/backends/nvidia/describe.h"
#include "regscope/backends/nvidia/driver.h"
#include "regscope/backends/nvidia/isa.h"
#include "regscope/backends/nvidia/nvcc_wrap.h"
#include "regscope/source/flags.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"

namespace regscope {
namespace {

class NvidiaBackend final : public Backend {
 public:
  Vendor vendor() const override { return Vendor::Nvidia; }

  std::string findCompiler(const std::string &explicit_path) const override { return findNvcc(explicit_path); }
  CompileOutput compile(const CompileJob &job) const override { return compileCuda(job); }
  std::vector<std::string> lineTableFlags() const override { return {"-lineinfo"}; }
  bool keepsDeviceCode() const override { return true; }
  // ptxas names no source line, so a kernel defined in a header is looked for
  // in the headers read.
  bool collectReadsDependencies() const override { return true; }
  std::vector<RefusedTarget> refusedTargets(const std::string &) const override { return {}; }
  void checkRequested(const RequestedTargets &requested) const override {
    for (const std::string &arch : requested.cuda_archs)
      if (!findCudaArch(arch)) throw Error("unknown CUDA arch '" + arch + "'; known: " + knownCudaArchList());
  }
  std::vector<std::string> compileTargets(const RequestedTargets &requested) const override {
    return requested.cuda_archs;
  }
  DatabaseEntries databaseEntries() const override { return {commandCompilesCuda, "CUDA", ""}; }
  std::string refusedSource(const std::string &, const RequestedTargets &,
                            const std::vector<std::string> &) const override {
    return "";
  }
  void checkExplainTools(const std::string &compiler) const override {
    if (findNvdisasm(findNvcc(compiler)).empty())
      throw Error(
          "explain --cuda-arch needs nvdisasm (CUDA's full toolkit), which is not on PATH, beside "
          "nvcc or in /usr/local/cuda/bin; AMD targets need nothing more");
  }
  // HIP syntax under nvcc: the portability shim.
  std::vector<std::string> referenceKernelFlags(const std::string &kernels_dir) const override {
    return {"-x", "cu", "-I", (std::filesystem::path(kernels_dir) / "common" / "cuda_shim").string()};
  }
  const char *runnerPlatform() const override { return "cuda"; }
  void requestTargets(RequestedTargets &requested, const std::vector<std::string> &targets) const override {
    requested.cuda_archs = targets;
  }
  bool runnerGpuPresent() const override {
    std::error_code ec;
    return std::filesystem::exists("/dev/nvidiactl", ec) || std::filesystem::exists("/dev/nvidia0", ec);
  }
  std::vector<std::string> runnerConfigureFlags() const override {
    std::vector<std::string> flags = {"-DRUNNER_GPU=cuda", "-DCMAKE_CUDA_ARCHITECTURES=native"};
    if (std::string nvcc = searchPath("nvcc"); nvcc.empty() && std::filesystem::exists("/usr/local/cuda/bin/nvcc"))
      flags.push_back("-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc");
    return flags;
  }
  // The compute capability the runner names ("9.0" -> sm_90).
  std::string runnerArch(const nlohmann::json &run) const override {
    std::string cc = run.value("compute_capability", "");
    cc.erase(std::remove(cc.begin(), cc.end(), '.'), cc.end());
    return "sm_" + cc;
  }
  WrappedCompile readWrappedCompile(const std::vector<std::string> &argv) const override {
    return readNvccCompileCommand(argv);
  }
  std::vector<std::string> wrapFlags() const override { return kPtxasVerboseFlags; }
  std::string splitWrapOutput(std::string_view diagnostics, std::string &ptxas) const override {
    return splitPtxasInfo(diagnostics, ptxas);
  }
  std::string noArtifactLineFigures() const override {
    return "per-line registers of a cubin come through nvdisasm, which explain runs on cubins that the cubin reader "
           "reads (not in this build)";
  }
  std::string artifactIsaPath(const KernelRecord &record) const override { return record.file; }
  std::optional<IsaReport> readArtifactIsa(const KernelRecord &, const std::string &) const override {
    throw Error(noArtifactLineFigures());
  }
  std::string noArtifactLines(const KernelRecord &) const override { return noArtifactLineFigures(); }
  bool usesEntryCompiler() const override { return false; }
  bool compilesEditedText() const override { return false; }
  Optimisation optimisation(const std::string &, const std::vector<std::string> &flags, bool) const override {
    // nvcc's -O is the host's; device code is ptxas's -O3 unless -G (device
    // debug) or a ptxas -O says otherwise.
    std::string level;
    for (std::size_t i = 0; i < flags.size(); ++i) {
      const std::string &f = flags[i];
      if (f == "-G" || f == "--device-debug") level = "-O0";
      for (const std::string prefix : {"-Xptxas=", "--ptxas-options="})
        if (f.rfind(prefix, 0) == 0 && f.size() > prefix.size() + 1 && f.compare(prefix.size(), 2, "-O") == 0)
          level = f.substr(prefix.size());
      if ((f == "-Xptxas" || f == "--ptxas-options") && i + 1 < flags.size() && flags[i + 1].rfind("-O", 0) == 0)
        level = flags[i + 1];
    }
    if (!level.empty()) return {level, OptimisationSource::Flags, "nvcc"};
    return {"-O3", OptimisationSource::CompilerDefault, "nvcc"};
  }
  void setLaunchDynamicShared(LaunchOverrides &launch, int bytes) const override { launch.dynamic_shared = bytes; }

  CollectedRun collect(const CompileOutput &output, const std::string &compiled_source,
                       const SourceReader &read) const override {
    return collectCudaRun(output, compiled_source, read);
  }
  CollectedRun collectObject(std::string_view ptxas, std::string_view object, const std::vector<std::string> &archs,
                             const std::string &compiled_source, const SourceReader &read) const override {
    return collectNvccObject(ptxas, object, archs, compiled_source, read);
  }

  std::vector<Field> requiredFigures(const KernelRecord &) const override { return nvidiaRequiredFigures(); }
  std::optional<ModelledKernel> model(const KernelRecord &record, const LaunchOverrides &launch, const std::string &,
                                      std::string &warning) const override {
    if (const CudaArch *arch = findCudaArch(record.arch)) return modelCudaKernel(record, *arch, launch);
    warning = noOccupancyTable(record, knownCudaArchList());
    return std::nullopt;
  }
  std::string unknownTarget(const KernelRecord &record) const override {
    if (findCudaArch(record.arch)) return "";
    return unknownTargetOf(record, "arch", knownCudaArchList());
  }
  void chart(const ModelledKernel &kernel, OccupancyChart &chart) const override {
    cudaChart(kernel, std::get<CudaKernelModel>(kernel.model), chart);
  }
  const char *occupancyUnit() const override { return "warps/SM"; }
  const char *spillsUnit() const override { return "bytes of spill stores"; }

  std::string noLineFigures() const override { return ""; }
  const char *assemblyName() const override { return "cubin"; }
  // nvdisasm is looked for on the first NVIDIA arch and kept for the others.
  IsaReport readIsa(const ArchOutput &output, const IsaRequest &request) const override {
    std::optional<std::string> found;
    std::optional<std::string> &nvdisasm = request.tool ? *request.tool : found;
    if (!nvdisasm) nvdisasm = findNvdisasm(findNvcc(request.compiler));
    if (nvdisasm->empty()) throw Error("nvdisasm (CUDA's full toolkit) is not installed here");
    if (output.device_code.empty()) throw Error("the compile kept no cubin");
    return readCubinListing(disassembleCubin(*nvdisasm, output.device_code, request.timeout_seconds));
  }

  void relateKernels(const std::vector<KernelReport *> &) const override {}
  KernelSection kernelSection(const std::vector<const KernelReport *> &kernels, const std::string &) const override {
    return cudaKernelSection(kernels);
  }
  nlohmann::json kernelJson(const KernelReport &kernel, const std::string &) const override {
    return cudaKernelJson(kernel);
  }
  std::string nextStep(const KernelReport &kernel) const override { return cudaNextStep(kernel); }
  int sharedMemoryBytes(const KernelReport &kernel) const override {
    const CudaResources &r = std::get<CudaKernelModel>(kernel.model).resources;
    return cudaSharedBytesSaturated(r);
  }
  std::optional<std::string> registerCliff(const KernelReport &kernel, int registers) const override {
    return cudaRegisterCliff(kernel, registers);
  }
  std::optional<std::string> hiddenSpills(const KernelReport &) const override { return std::nullopt; }
  std::optional<KernelFigures> measuredFigures(const KernelReport &) const override { return std::nullopt; }
};

}  // namespace

const Backend &nvidiaBackend() {
  static const NvidiaBackend backend;
  return backend;
}

}  // namespace regscope
