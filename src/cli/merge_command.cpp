// regscope merge SHARD.json...: the shard reports of one run (--shard K/N
// --format json) as the one report the run would have given in one process.
#include "commands.h"
#include "regscope/views/shard_view.h"
#include "regscope/views/views.h"

namespace regscope {

Command addMergeCommand(CLI::App &root) {
  struct State {
    std::vector<std::string> files;
    OutputOptions output;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand(
      "merge", "Merge the JSON reports of a run's shards (--shard K/N) into the one-process report (no compiler run)");
  app->add_option("files", state->files, "Every shard's JSON report (or merges of some of them)")->required();
  addOutputOptions(*app, state->output, /*ci_formats=*/true);
  return {app, [state] {
            refuseOverwritingInputs(state->files, state->output.path);
            ShardReport merged;
            const Report report = reportFromShardFiles(state->files, &merged);
            for (const std::string &w : saidOnce(report.warnings)) printWarning(w);
            emit(state->output,
                 *withShardJson(kernelTableView(report, "regscope " + merged.run.command, analysisFindings(report)),
                                [&merged] { return shardToJson(merged); }));
            return reportErrors(report);
          }};
}

}  // namespace regscope
