// regscope explain FILE [--kernel NAME] [--offload-arch A] [--format F] [-- compiler flags]
#include <algorithm>

#include "commands.h"
#include "regscope/support/error.h"
#include "regscope/views/views.h"

namespace regscope {
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
            refuseOverwritingInputs(inputPaths(state->sources, workingDirectory()), state->output.path);
            if (explainsNvidiaArtifacts(state->sources.files)) {  // a cubin, fatbin or host object: no compile
              const ExplainedReport picked =
                  selectKernels(explainNvidiaBinaries(state->sources), state->kernel, state->sources.files);
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
              const ExplainedReport picked = selectKernels(std::move(explained), state->kernel, files);
              emit(state->output, *explainView(picked.report, picked.kernels));
              return reportErrors(picked.report);
            }
            prepareSources(state->sources);
            requireExplainTools(state->sources);
            ExplainedReport explained = explainSources(state->sources, stderrMessages());
            if (explained.report.inputs.empty() && explained.report.errors.empty())
              throw Error("no source to explain (headers are explained through their sources)");
            const ExplainedReport picked = selectKernels(std::move(explained), state->kernel, state->sources.files);
            emit(state->output, *explainView(picked.report, picked.kernels));
            return reportErrors(picked.report);
          }};
}

}  // namespace regscope
