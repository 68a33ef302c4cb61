// The AMD backend: hipcc/clang 15 once per source for every arch, the .s,
// optimisation records and remarks read into records, the occupancy on the
// arch's row, and the .s through LLVM's MC layer for explain.
#include "regscope/backends/amd/backend.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "regscope/backend/target_messages.h"
#include "regscope/backends/amd/collect.h"
#include "regscope/backends/amd/describe.h"
#include "regscope/backends/amd/driver.h"
#include "regscope/backends/amd/isa.h"
#include "regscope/source/flags.h"

namespace regscope {
namespace {

class AmdBackend final : public Backend {
 public:
  Vendor vendor() const override { return Vendor::Amd; }

  std::string findCompiler(const std::string &explicit_path) const override { return findHipCompiler(explicit_path); }
  CompileOutput compile(const CompileJob &job) const override { return compileHip(job); }
  std::vector<std::string> lineTableFlags() const override { return {"-gline-tables-only"}; }
  bool keepsDeviceCode() const override { return false; }
  bool collectReadsDependencies() const override { return false; }

  // From clang's diagnostics: "cannot find ROCm device library for gfx1100;
  // provide its path via ..." (the installed ROCm lacks its bitcode) and
  // "invalid target ID 'gfx942'; format is ..." (this clang does not know it).
  std::vector<RefusedTarget> refusedTargets(const std::string &diagnostics) const override {
    std::vector<RefusedTarget> refused;
    auto scan = [&](const std::string &marker, const char *stops, auto message) {
      for (std::size_t at = diagnostics.find(marker); at != std::string::npos; at = diagnostics.find(marker, at + 1)) {
        const std::size_t begin = at + marker.size();
        const std::size_t end = diagnostics.find_first_of(stops, begin);
        const std::string arch = diagnostics.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
        if (std::none_of(refused.begin(), refused.end(), [&](const RefusedTarget &r) { return r.target == arch; }))
          refused.push_back({arch, message(arch)});
      }
    };
    scan("cannot find ROCm device library for ", "; \n", [](const std::string &arch) {
      return "the installed ROCm device libraries have no bitcode for " + arch +
             "; regscope will not build without them, since -nogpulib turns every math call into an external "
             "call and gives wrong figures (install a ROCm whose device libraries know " +
             arch + ")";
    });
    scan("invalid target ID '", "'\n", [](const std::string &arch) {
      return "the compiler does not know the target " + arch +
             " (clang: invalid target ID): install a ROCm whose clang targets it, or leave it out of --offload-arch";
    });
    return refused;
  }
  void checkRequested(const RequestedTargets &requested) const override {
    for (const std::string &arch : requested.archs) canonicalAmdTarget(arch);
  }
  std::vector<std::string> compileTargets(const RequestedTargets &requested) const override {
    std::vector<std::string> targets;
    for (const std::string &arch :
         requested.archs_explicit || requested.source_archs.empty() ? requested.archs : requested.source_archs)
      targets.push_back(canonicalAmdTarget(arch));
    return targets;
  }
  DatabaseEntries databaseEntries() const override {
    return {commandCompilesHip, "HIP", " (for CUDA entries, name the targets with --cuda-arch)"};
  }
  // hipify keeps .cu names: a .cu is HIP when the flags say so, or an AMD target is asked for.
  std::string refusedSource(const std::string &file, const RequestedTargets &requested,
                            const std::vector<std::string> &flags) const override {
    if (std::filesystem::path(file).extension().string() != ".cu" || requested.archs_explicit || flagsSayHip(flags))
      return "";
    return file +
           " is a CUDA source: analyse it with nvcc by naming its targets, e.g. --cuda-arch sm_90 "
           "(if it is HIP, as hipify keeps .cu names, say so: --offload-arch gfx90a, or -- -x hip)";
  }
  void checkExplainTools(const std::string &) const override {}
  std::vector<std::string> referenceKernelFlags(const std::string &) const override { return {}; }
  const char *runnerPlatform() const override { return "hip"; }
  void requestTargets(RequestedTargets &requested, const std::vector<std::string> &targets) const override {
    requested.archs = targets;
  }
  bool runnerGpuPresent() const override {
    std::error_code ec;
    return std::filesystem::exists("/dev/kfd", ec);
  }
  std::vector<std::string> runnerConfigureFlags() const override { return {"-DRUNNER_GPU=hip"}; }
  std::string runnerArch(const nlohmann::json &) const override { return ""; }
  WrappedCompile readWrappedCompile(const std::vector<std::string> &argv) const override {
    return readCompileCommand(argv);
  }
  std::vector<std::string> wrapFlags() const override { return {kResourceRemarkFlag}; }
  std::string splitWrapOutput(std::string_view diagnostics, std::string &remarks) const override {
    return splitResourceRemarks(diagnostics, remarks);
  }
  std::string noArtifactLineFigures() const override { return ""; }
  std::string artifactIsaPath(const KernelRecord &record) const override { return regscope::artifactIsaPath(record); }
  std::optional<IsaReport> readArtifactIsa(const KernelRecord &record, const std::string &path) const override {
    return regscope::readArtifactIsa(record, path);
  }
  std::string noArtifactLines(const KernelRecord &record) const override { return regscope::noArtifactLines(record); }
  bool usesEntryCompiler() const override { return true; }
  bool compilesEditedText() const override { return true; }
  Optimisation optimisation(const std::string &compiler, const std::vector<std::string> &flags,
                            bool regscope_compiles) const override {
    const bool hipcc = std::filesystem::path(compiler).filename().string().rfind("hipcc", 0) == 0;
    if (std::string level = optimizationFlag(flags); !level.empty())
      return {level, OptimisationSource::Flags, hipcc ? "hipcc" : "clang"};
    // hipcc adds -O3 itself; a plain clang compiles device code at -O0, and
    // analyze's driver adds -O3 then (hip_driver.cpp), a build's compile does not.
    if (hipcc) return {"-O3", OptimisationSource::CompilerDefault, "hipcc"};
    if (regscope_compiles) return {"-O3", OptimisationSource::Regscope, "clang"};
    return {"-O0", OptimisationSource::CompilerDefault, "clang"};
  }
  void setLaunchDynamicShared(LaunchOverrides &launch, int bytes) const override { launch.dynamic_lds = bytes; }

  CollectedRun collect(const CompileOutput &output, const std::string &compiled_source,
                       const SourceReader &read) const override {
    return collectAmdRun(output, compiled_source, read);
  }
  CollectedRun collectObject(std::string_view remarks, std::string_view object, const std::vector<std::string> &archs,
                             const std::string &compiled_source, const SourceReader &read) const override {
    return collectAmdObject(remarks, object, archs, compiled_source, read);
  }

  std::vector<Field> requiredFigures(const KernelRecord &record) const override { return amdRequiredFigures(record); }
  std::optional<ModelledKernel> model(const KernelRecord &record, const LaunchOverrides &launch,
                                      const std::string &compiler_version, std::string &warning) const override {
    if (const AmdArch *row = findAmdArch(record.arch))
      return modelAmdKernel(record, *row, launch, compilerModelFor(compiler_version));
    warning = noOccupancyTable(record, knownArchList());
    return std::nullopt;
  }
  std::string unknownTarget(const KernelRecord &record) const override {
    if (findAmdArch(record.arch)) return "";
    return unknownTargetOf(record, "arch", knownArchList());
  }
  void chart(const ModelledKernel &kernel, OccupancyChart &chart) const override {
    amdChart(kernel, std::get<AmdKernelModel>(kernel.model), chart);
  }
  const char *occupancyUnit() const override { return "waves/SIMD"; }
  const char *spillsUnit() const override { return "spilled registers"; }

  std::string noLineFigures() const override { return ""; }
  const char *assemblyName() const override { return ".s"; }
  IsaReport readIsa(const ArchOutput &output, const IsaRequest &) const override {
    return analyzeAmdgpuAssembly(output.assembly, output.arch);
  }

  void relateKernels(const std::vector<KernelReport *> &) const override {}
  KernelSection kernelSection(const std::vector<const KernelReport *> &kernels,
                              const std::string &compiler_version) const override {
    return amdKernelSection(kernels, compiler_version);
  }
  nlohmann::json kernelJson(const KernelReport &kernel, const std::string &compiler_version) const override {
    return amdKernelJson(kernel, compiler_version);
  }
  std::string nextStep(const KernelReport &kernel) const override { return amdNextStep(kernel); }
  int sharedMemoryBytes(const KernelReport &kernel) const override {
    return std::get<AmdKernelModel>(kernel.model).resources.lds_bytes;
  }
  std::optional<std::string> registerCliff(const KernelReport &kernel, int registers) const override {
    return amdRegisterCliff(kernel, registers);
  }
  std::optional<std::string> hiddenSpills(const KernelReport &kernel) const override { return amdHiddenSpills(kernel); }
  std::optional<KernelFigures> measuredFigures(const KernelReport &kernel) const override {
    return amdMeasuredFigures(kernel);
  }
};

}  // namespace

const Backend &amdBackend() {
  static const AmdBackend backend;
  return backend;
}

}  // namespace regscope
