// regscope collect BUILD_DIR: the sidecars regscope wrap wrote during a
// build, as one report in any format, with no compiler run.
#include "commands.h"
#include "regscope/pipeline/sidecar.h"
#include "regscope/views/views.h"

namespace regscope {

Command addCollectCommand(CLI::App &root) {
  struct State {
    SourceOptions sources;
    std::string build_dir;
    OutputOptions output;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand(
      "collect", "Report the kernels of a build made with regscope wrap as its compiler launcher (no compiler run)");
  app->add_option("BUILD_DIR", state->build_dir, "The build directory (searched for *.regscope.json)")->required();
  addCollectOptions(*app, state->sources);
  addOutputOptions(*app, state->output, /*ci_formats=*/true);
  addShardOption(*app, state->sources.shard);
  return {app, [state] {
            refuseOverwritingInputs(inputPaths(state->sources, workingDirectory()), state->output.path);
            prepareSources(state->sources);
            Report report = state->sources.shard.empty()
                                ? collectSources(state->build_dir, state->sources, stderrMessages())
                                : collectShardSources(state->build_dir, state->sources, stderrMessages());
            emit(state->output,
                 *shardedView(kernelTableView(report, "regscope collect", analysisFindings(report)), state->sources));
            return reportErrors(report);
          }};
}

}  // namespace regscope
