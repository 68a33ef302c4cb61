// regscope analyze FILE... [--offload-arch A[,B]] [-- compiler flags]
#include "commands.h"
#include "regscope/views/views.h"

namespace regscope {

Command addAnalyzeCommand(CLI::App &root, const std::vector<std::string> &compiler_flags) {
  struct State {
    SourceOptions sources;
    OutputOptions output;
  };
  auto state = std::make_shared<State>();
  CLI::App *app =
      root.add_subcommand("analyze", "Compile HIP sources and report each kernel's registers, LDS and occupancy");
  addSourceOptions(*app, state->sources, compiler_flags);
  addOutputOptions(*app, state->output, /*ci_formats=*/true);

  return {app, [state] {
            refuseOverwritingInputs(inputPaths(state->sources), state->output.path);
            prepareSources(state->sources);
            Report report = analyzeSources(state->sources);
            emit(state->output, *kernelTableView(report, "regscope analyze"));
            return reportErrors(report);
          }};
}

}  // namespace regscope
