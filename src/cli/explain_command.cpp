// regscope explain FILE [--kernel NAME] [--offload-arch A] [--format F] [-- compiler flags]
#include <algorithm>
#include <iostream>

#include "commands.h"
#include "regscope/backends/nvidia/driver.h"
#include "regscope/driver/driver.h"
#include "regscope/pipeline/explain.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"
#include "regscope/support/symbols.h"
#include "regscope/views/views.h"

namespace regscope {
namespace {

// The kernels --kernel names (all without it); bad input is one line, exit 2.
ExplainedReport select(ExplainedReport explained, const std::string &wanted, const std::vector<std::string> &files) {
  std::string inputs;
  for (const std::string &file : files) inputs += (inputs.empty() ? "" : ", ") + file;
  if (explained.report.kernels.empty()) {
    if (!explained.report.errors.empty()) return explained;  // the compile failed: reportErrors says why
    throw Error(inputs + ": no GPU kernels (no __global__ function was compiled)");
  }
  if (wanted.empty()) return explained;
  ExplainedReport picked;
  picked.report = explained.report;
  picked.report.kernels.clear();
  std::string known;
  for (std::size_t k = 0; k < explained.report.kernels.size(); ++k) {
    const KernelReport &kernel = explained.report.kernels[k];
    if (known.find(kernel.record.demangled) == std::string::npos)
      known += (known.empty() ? "" : "; ") + kernel.record.demangled;
    if (!namesKernel(wanted, kernel.record.name)) continue;
    picked.report.kernels.push_back(kernel);
    picked.kernels.push_back(explained.kernels[k]);
  }
  if (picked.report.kernels.empty())
    throw Error("no kernel '" + wanted + "' in " + inputs + " (kernels: " + known + ")");
  return picked;
}

// Every input is NVIDIA device code that exists (a cubin, a fatbin, a host
// object or executable with .nv_fatbin): explained from nvdisasm, nothing compiled.
bool explainsNvidiaArtifacts(const std::vector<std::string> &files) {
  if (files.empty()) return false;
  for (const std::string &file : files)
    if (!isNvidiaArtifact(file)) return false;
  return true;
}

}  // namespace

Command addExplainCommand(CLI::App &root, const std::vector<std::string> &compiler_flags) {
  struct State {
    SourceOptions sources;
    OutputOptions output;
    std::string kernel;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand(
      "explain",
      "Where a kernel's registers go: per source line the peak live VGPRs/AGPRs/SGPRs, the point of "
      "maximum pressure and what is live across it, the instruction mix and a static cycle estimate");
  addSourceOptions(*app, state->sources, compiler_flags);
  app->add_option("--kernel", state->kernel,
                  "Only this kernel: its name (laplacian_k5<double>, laplacian_k5), signature or mangled symbol");
  addOutputOptions(*app, state->output);

  return {app, [state] {
            refuseOverwritingInputs(inputPaths(state->sources), state->output.path);
            if (explainsNvidiaArtifacts(state->sources.files)) {  // a cubin, fatbin or host object: no compile
              LaunchOverrides launch;
              if (state->sources.block_size > 0) launch.block_size = state->sources.block_size;
              std::string nvcc;  // nvdisasm is looked for beside it too; a machine with nvdisasm alone needs none
              try {
                nvcc = findNvcc(state->sources.analyze.compiler);
              } catch (const Error &) {
                if (!state->sources.analyze.compiler.empty()) throw;
              }
              ExplainedReport explained = explainNvidiaArtifacts(state->sources.files, findNvdisasm(nvcc), launch,
                                                                 state->sources.analyze.timeout_seconds);
              const ExplainedReport picked = select(std::move(explained), state->kernel, state->sources.files);
              emit(state->output, *explainView(picked.report, picked.kernels));
              return reportErrors(picked.report);
            }
            // Built artifacts (a Triton cache, its .amdgcn, a directory): read, not compiled.
            const std::vector<std::string> &files = state->sources.files;
            if (!files.empty() && state->sources.database.empty() &&
                std::all_of(files.begin(), files.end(), isArtifactInput)) {
              ParseOptions options;
              options.parallel = state->sources.analyze.parallel;
              ExplainedReport explained = explainArtifacts(files, options);
              for (const std::string &w : explained.report.warnings) printWarning(w);
              const ExplainedReport picked = select(std::move(explained), state->kernel, files);
              emit(state->output, *explainView(picked.report, picked.kernels));
              return reportErrors(picked.report);
            }
            prepareSources(state->sources);
            if (!state->sources.analyze.cuda_archs.empty() &&
                findNvdisasm(findNvcc(state->sources.analyze.compiler)).empty())
              throw Error(
                  "explain --cuda-arch needs nvdisasm (CUDA's full toolkit), which is not on PATH, beside "
                  "nvcc or in /usr/local/cuda/bin; AMD targets need nothing more");
            ExplainedReport explained = explainSources(state->sources);
            if (explained.report.inputs.empty() && explained.report.errors.empty())
              throw Error("no source to explain (headers are explained through their sources)");
            const ExplainedReport picked = select(std::move(explained), state->kernel, state->sources.files);
            emit(state->output, *explainView(picked.report, picked.kernels));
            return reportErrors(picked.report);
          }};
}

}  // namespace regscope
