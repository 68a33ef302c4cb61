// regscope parse FILE... [--arch A]: .s files, build logs, code objects.
#include <iostream>

#include "commands.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/support/error.h"
#include "regscope/views/shard_view.h"
#include "regscope/views/views.h"

namespace regscope {

Command addParseCommand(CLI::App &root) {
  struct State {
    std::vector<std::string> files;
    std::string arch;
    OutputOptions output;
    std::string shard;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand(
      "parse", "Report kernels from existing build artifacts: .s, build logs, code objects (no compiler run)");
  app->add_option("files", state->files, ".s files, logs with resource remarks, .hsaco/.o/executables");
  app->add_option("--arch", state->arch, "The arch of a build log's remarks (logs do not say)");
  addOutputOptions(*app, state->output, /*ci_formats=*/true);
  addShardOption(*app, state->shard);
  return {app, [state] {
            if (state->files.empty()) throw Error("no input files (give .s files, build logs or code objects)");
            refuseOverwritingInputs(state->files, state->output.path);
            if (!state->shard.empty()) {  // this shard's files, each file's part kept for merge
              ShardReport shard;
              std::vector<std::size_t> global;
              std::vector<std::string> keys;
              const std::vector<std::string> files = selectShardFiles(
                  state->files, state->shard, "parse", {{"arch", state->arch}}, shard, global, keys, stderrMessages());
              Report report = parseShardArtifacts(files, global, keys, state->arch, shard.pieces);
              for (const std::string &w : report.warnings) printWarning(w);
              emit(state->output, *withShardJson(kernelTableView(report, "regscope parse", analysisFindings(report)),
                                                 [&shard] { return shardToJson(shard); }));
              return 0;
            }
            Report report = parseArtifacts(state->files, state->arch);
            for (const std::string &w : report.warnings) printWarning(w);
            emit(state->output, *kernelTableView(report, "regscope parse", analysisFindings(report)));
            return 0;
          }};
}

}  // namespace regscope
