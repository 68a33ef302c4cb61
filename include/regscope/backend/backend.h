// The one interface between the vendor-neutral stages and a vendor: each
// vendor is a Backend (src/backends/<vendor>/, its own library), and the
// stages ask it, never a `Vendor` compare, how to run its compiler, read its
// outputs into KernelRecords, model a record on its target, draw the
// occupancy curves, and reach its assembly for explain. The registry below
// (src/backend/registry.cpp) is the one place that lists the backends, the way
// LLVM's InitializeAllTargets lists its targets. docs/design.md says
// what each backend owns and how to add one.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "regscope/backend/measured_figures.h"
#include "regscope/backend/modelled_kernel.h"
#include "regscope/collect/collect.h"
#include "regscope/describe/kernel_section.h"
#include "regscope/driver/driver.h"
#include "regscope/isa/isa.h"
#include "regscope/model/kernel_model.h"
#include "regscope/model/occupancy_curves.h"
#include "regscope/source/compile_command.h"
#include "regscope/source/source.h"
#include "regscope/support/vendor.h"

namespace regscope {

// What reading a kept compile's assembly needs beside the output itself.
struct IsaRequest {
  std::string compiler;     // as the user named it (--compiler), to find the vendor's tools beside it
  int timeout_seconds = 0;  // for a tool the backend runs (nvdisasm)
  // A tool the backend looked for on an earlier arch of the same run, kept
  // for the next (empty optional: not looked for yet).
  std::optional<std::string> *tool = nullptr;
};

// The targets a run asks for: on the command line and in a compile database
// entry. Each backend takes its own (Backend::compileTargets).
struct RequestedTargets {
  std::vector<std::string> archs;         // --arch (AMD), or the default
  bool archs_explicit = false;            // --arch beats a database entry's own
  std::vector<std::string> source_archs;  // the entry's --offload-arch values
  std::vector<std::string> cuda_archs;    // --cuda-arch: compile with nvcc for these
};

// A target one compile could not build while the others could (Backend::refusedTargets).
struct RefusedTarget {
  std::string target;
  std::string message;  // the error for that target alone
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual Vendor vendor() const = 0;

  // ---- driver: one compile of a source for some of this vendor's targets.
  // The compiler to run: `explicit_path` (--compiler) or the one installed.
  virtual std::string findCompiler(const std::string &explicit_path) const = 0;
  virtual CompileOutput compile(const CompileJob &job) const = 0;
  // The flags that make the compile keep line tables for explain and --lines,
  // and whether the driver must keep the device code (a cubin) for the isa stage.
  virtual std::vector<std::string> lineTableFlags() const = 0;
  virtual bool keepsDeviceCode() const = 0;
  // Whether the collect stage needs the compile's dependency list (NVIDIA:
  // ptxas names no source line, so a kernel is looked for in the headers read).
  virtual bool collectReadsDependencies() const = 0;
  // The targets of a failed compile that failed only for themselves, each with
  // why (AMD: the installed ROCm lacks its device library, or its clang does
  // not know the target); they are reported alone and the others compiled
  // again. Empty: none.
  virtual std::vector<RefusedTarget> refusedTargets(const std::string &diagnostics) const = 0;
  // Throws regscope::Error for a requested target of this backend that has no
  // row (checked for every backend before any compile).
  virtual void checkRequested(const RequestedTargets &requested) const = 0;
  // The targets one compile of a source is for, as its compiler is given them.
  virtual std::vector<std::string> compileTargets(const RequestedTargets &requested) const = 0;
  // The compile database entries this backend compiles, and their name in errors.
  virtual DatabaseEntries databaseEntries() const = 0;
  // Why `file`, named on the command line, is not this backend's to compile
  // with `flags` (the config's and the command line's) for `requested` (AMD:
  // a .cu that nothing says is HIP is CUDA); "" when it is.
  virtual std::string refusedSource(const std::string &file, const RequestedTargets &requested,
                                    const std::vector<std::string> &flags) const = 0;
  // Throws regscope::Error when explain on this backend's compiles lacks a
  // tool (NVIDIA: nvdisasm); `compiler` as the user named it.
  virtual void checkExplainTools(const std::string &compiler) const = 0;
  // The flags that compile the reference kernels (`kernels_dir`, HIP syntax)
  // with this backend's compiler (NVIDIA: nvcc through the portability shim).
  virtual std::vector<std::string> referenceKernelFlags(const std::string &kernels_dir) const = 0;
  // The reference runner's "platform" for this backend's GPUs ("hip", "cuda";
  // "" for none), and `targets` set as the targets a run asks of it.
  virtual const char *runnerPlatform() const = 0;
  virtual void requestTargets(RequestedTargets &requested, const std::vector<std::string> &targets) const = 0;
  // kernels run: whether this machine has one of this backend's GPUs (its
  // device files), the CMake flags that build the runner for it, and the arch
  // of a runner's JSON that names none ("" when it cannot say).
  virtual bool runnerGpuPresent() const = 0;
  virtual std::vector<std::string> runnerConfigureFlags() const = 0;
  virtual std::string runnerArch(const nlohmann::json &run) const = 0;
  // regscope wrap: the build's compile command read as this backend's device
  // compile (device false: not one), the words added to make the compiler
  // print its figures, and the compiler's stderr split into what it would have
  // printed without them (returned, byte for byte) and the figures (`remarks`).
  virtual WrappedCompile readWrappedCompile(const std::vector<std::string> &argv) const = 0;
  virtual std::vector<std::string> wrapFlags() const = 0;
  virtual std::string splitWrapOutput(std::string_view diagnostics, std::string &remarks) const = 0;
  // Why explain on artifacts (parse's inputs) gives this vendor's kernels no
  // per-line figures; "" when it reads them.
  virtual std::string noArtifactLineFigures() const = 0;
  // Otherwise: the file a record's per-line figures are read from (AMD: its
  // .s, else its code object), that file through the isa stage (std::nullopt:
  // it has no line info, which noArtifactLines says); throws regscope::Error.
  virtual std::string artifactIsaPath(const KernelRecord &record) const = 0;
  virtual std::optional<IsaReport> readArtifactIsa(const KernelRecord &record, const std::string &path) const = 0;
  virtual std::string noArtifactLines(const KernelRecord &record) const = 0;
  // Whether a compile database entry's own compiler is run (else the run's).
  virtual bool usesEntryCompiler() const = 0;
  // Whether an edited text (advise's candidates, read through a VFS overlay)
  // can be compiled in place of the file.
  virtual bool compilesEditedText() const = 0;
  // The optimisation level a compile by `compiler` with `flags` gives device
  // code, and who chose it; `regscope_compiles`: analyze's own compile (which
  // may add a level), not a build's (collect).
  virtual Optimisation optimisation(const std::string &compiler, const std::vector<std::string> &flags,
                                    bool regscope_compiles) const = 0;
  // Dynamic shared memory found at a kernel's launches, as this vendor's launch
  // override (AMD: dynamic LDS; NVIDIA: dynamic shared memory).
  virtual void setLaunchDynamicShared(LaunchOverrides &launch, int bytes) const = 0;

  // ---- collect: the compile's outputs as records.
  virtual CollectedRun collect(const CompileOutput &output, const std::string &compiled_source,
                               const SourceReader &read) const = 0;
  // A build's own compile under `regscope wrap`: the object it wrote and what
  // it printed (AMD: the kernel-resource-usage remarks; NVIDIA: ptxas -v),
  // for the targets `archs` in the command's order.
  virtual CollectedRun collectObject(std::string_view printed, std::string_view object,
                                     const std::vector<std::string> &archs, const std::string &compiled_source,
                                     const SourceReader &read) const = 0;

  // ---- model
  // The figures a record of this vendor must carry for its model (beside
  // record.missing); see missingFigures below.
  virtual std::vector<Field> requiredFigures(const KernelRecord &record) const = 0;
  // The record on its target; std::nullopt with `warning` set when the
  // target has no row. `compiler_version` is the producer of the records.
  virtual std::optional<ModelledKernel> model(const KernelRecord &record, const LaunchOverrides &launch,
                                              const std::string &compiler_version, std::string &warning) const = 0;
  // parse: the error for a record whose target has no row; "" when it has one.
  virtual std::string unknownTarget(const KernelRecord &record) const = 0;
  // The curves of a kernel this backend modelled (occupancyChart fills the rest).
  virtual void chart(const ModelledKernel &kernel, OccupancyChart &chart) const = 0;
  // "waves/SIMD", "warps/SM", "threads/Xe-core"
  virtual const char *occupancyUnit() const = 0;
  // "spilled registers", "bytes of spill stores", "bytes of spill per thread"
  virtual const char *spillsUnit() const = 0;

  // ---- isa: explain and --lines.
  // Why this vendor's kernels get no per-line figures; "" when they do.
  virtual std::string noLineFigures() const = 0;
  // What the kept output holds: ".s", "cubin" (in explain's notes).
  virtual const char *assemblyName() const = 0;
  // The kept output of one target through the isa stage; throws regscope::Error.
  virtual IsaReport readIsa(const ArchOutput &output, const IsaRequest &request) const = 0;

  // ---- describe: what the views print of this backend's kernels (its
  // describe.cpp, over describe/kernel_section.h). The report stage and the
  // views reach it through the registry below; no view branches on a vendor.
  // Once a report's kernels are modelled: relates this backend's kernels to
  // each other (Intel: the GRF rule over a kernel's small and large GRF records).
  virtual void relateKernels(const std::vector<KernelReport *> &kernels) const = 0;
  // The kernel table's section for this backend's kernels, in report order.
  virtual KernelSection kernelSection(const std::vector<const KernelReport *> &kernels,
                                      const std::string &compiler_version) const = 0;
  // The kernel's object in the JSON report's "kernels" (docs/json-schema.md).
  virtual nlohmann::json kernelJson(const KernelReport &kernel, const std::string &compiler_version) const = 0;
  // The next step in words for a kernel that was judged ("free 6 VGPRs -> 5 waves/SIMD").
  virtual std::string nextStep(const KernelReport &kernel) const = 0;
  // The shared memory (LDS, SLM) one workgroup of the kernel takes, in bytes.
  virtual int sharedMemoryBytes(const KernelReport &kernel) const = 0;
  // "3 more VGPRs lower the occupancy from 5 waves/SIMD" when fewer than
  // `registers` more would lower it; std::nullopt otherwise.
  virtual std::optional<std::string> registerCliff(const KernelReport &kernel, int registers) const = 0;
  // Spills the compiler does not count as spills (AMD: VGPRs parked in AGPRs
  // without MFMA), in words; std::nullopt: none.
  virtual std::optional<std::string> hiddenSpills(const KernelReport &kernel) const = 0;
  // What advise measures of the kernel, where this backend compiles edited
  // text (compilesEditedText); std::nullopt otherwise.
  virtual std::optional<KernelFigures> measuredFigures(const KernelReport &kernel) const = 0;
};

// ---- The registry: every backend, and the one that owns a record or input.
const Backend &backendFor(Vendor vendor);
// The backend that compiles the source at `path`: Intel for what ocloc reads
// (.cl, .spv), else NVIDIA when CUDA targets were named, else AMD.
const Backend &backendForSource(const std::string &path, const RequestedTargets &requested);
// The backend of the sources that are not compiled per GRF mode: NVIDIA when
// CUDA targets were named, else AMD.
const Backend &backendForTargets(const RequestedTargets &requested);
// Every backend's checkRequested, in the registry's order.
void checkRequestedTargets(const RequestedTargets &requested);
// Whether `path` is compiled by ocloc once per GRF mode (the Intel jobs of
// the pipeline) rather than as one CompileJob.
bool compiledPerGrfMode(const std::string &path);
// regscope wrap: the command read by each backend in the registry's order;
// the first that finds a device compile in it (device false: none did).
WrappedCompile readWrappedCompile(const std::vector<std::string> &argv);
// The backend whose GPUs the reference runner names as `platform` ("hip",
// "cuda"); AMD's for any other.
const Backend &backendForRunner(const std::string &platform);
// The backend of this machine's GPU for the runner, by its device files
// (NVIDIA's first); nullptr: none.
const Backend *runnerGpuBackend();
// The targets a run asks for, as a shard run records them among the options
// that change a figure (the database entries' own aside).
nlohmann::json requestedTargetsJson(const RequestedTargets &requested);

// The figures `record` lacks that its backend's model needs; unresolved
// (until link) figures are not missing.
std::vector<Field> missingFigures(const KernelRecord &record);
// The record through its backend's model; std::nullopt with `warning` when
// its target has no row.
std::optional<ModelledKernel> modelRecord(const KernelRecord &record, const LaunchOverrides &launch,
                                          const std::string &compiler_version, std::string &warning);
// Empty (no curves) for kernels without an occupancy: unresolved until link,
// or a launch that cannot run.
OccupancyChart occupancyChart(const ModelledKernel &kernel);
const char *occupancyUnit(Vendor vendor);
const char *spillsUnit(Vendor vendor);

// ---- What the views print of each kernel, through its backend (describe).
// Relates the kernels[first...] of each backend to each other (relateKernels).
void relateKernels(std::vector<KernelReport> &kernels, std::size_t first);
// The kernel table: a section per backend that has kernels, in the table's
// order (NVIDIA, Intel, AMD), each with its kernels in report order.
std::vector<KernelSection> kernelSections(const std::vector<KernelReport> &kernels,
                                          const std::string &compiler_version);
nlohmann::json kernelJson(const KernelReport &kernel, const std::string &compiler_version);
// "unknown: vgprs not read", "cannot launch: ...", else the backend's next step.
std::string kernelNextStep(const KernelReport &kernel);
int sharedMemoryBytes(const KernelReport &kernel);
std::optional<std::string> registerCliff(const KernelReport &kernel, int registers);
std::optional<std::string> hiddenSpills(const KernelReport &kernel);
std::optional<KernelFigures> measuredFigures(const KernelReport &kernel);

}  // namespace regscope
