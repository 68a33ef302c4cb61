// regscope collect BUILD_DIR: the sidecars regscope wrap wrote during a
// build, as one report in any format, with no compiler run.
#include "commands.h"
#include "regscope/pipeline/sidecar.h"
#include "regscope/support/error.h"
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
  return {app, [state]() -> int {
            refuseOverwritingInputs(inputPaths(state->sources, workingDirectory()), state->output.path);
            prepareSources(state->sources);
            Report report = state->sources.shard.empty()
                                ? collectSources(state->build_dir, state->sources, stderrMessages())
                                : collectShardSources(state->build_dir, state->sources, stderrMessages());
            emit(state->output,
                 *shardedView(kernelTableView(report, "regscope collect", analysisFindings(report)), state->sources));
            const int status = reportErrors(report);
            // Kernels read and none modelled (mixbench built for gfx803): never "no kernels found", exit 0.
            if (report.kernels.empty() && !report.kernels_without_table.empty()) {
              int read = 0;
              for (const auto &[arch, n] : report.kernels_without_table) read += n;
              printError(state->build_dir + ": " + std::to_string(read) +
                         " kernels read, none modelled: their arch has no occupancy table (see the warning)");
              return kExitError;
            }
            return status;
          }};
}

}  // namespace regscope
