// regscope parse FILE|DIR... [--arch A]: .s files, build logs, code objects, Triton caches.
#include <algorithm>
#include <iostream>
#include <thread>

#include "commands.h"
#include "regscope/cache/cache.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/support/error.h"
#include "regscope/views/shard_view.h"
#include "regscope/views/views.h"

namespace regscope {

Command addParseCommand(CLI::App &root) {
  struct State {
    std::vector<std::string> files;
    std::string arch;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    std::string progress = "auto";
    bool no_cache = false;
    OutputOptions output;
    KernelSelection selection;
    std::string shard;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand("parse",
                                      "Report kernels from existing build artifacts: .s, build logs, code objects, "
                                      "cubins, zebins, Triton caches; directories are "
                                      "searched (no compiler run)");
  app->add_option("files", state->files,
                  ".s files, logs with resource remarks, .hsaco/.o/executables, directories (searched recursively: "
                  "every artifact in them, Triton cache entries included)");
  app->add_option("--arch", state->arch, "The arch of a build log's remarks (logs do not say)");
  app->add_option("-j,--jobs", state->jobs, "Artifacts read at once (default: cores)")->check(wholeNumber(1));
  app->add_option("--progress", state->progress,
                  "Progress line on stderr while a large tree is read: auto (a terminal, not under CI or "
                  "pre-commit), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app->add_flag("--no-cache", state->no_cache,
                "Always read a Triton entry's code; neither read nor write the result cache");
  addOutputOptions(*app, state->output, /*ci_formats=*/true);
  addShardOption(*app, state->shard);
  addSelectionOptions(*app, state->selection);
  return {app, [state] {
            if (state->files.empty())
              throw Error("no input files (give .s files, build logs, code objects or directories)");
            refuseOverwritingInputs(state->files, state->output.path);
            checkSelection(state->selection);  // a bad regex is said before anything is read
            if (!state->shard.empty() && state->selection.any())
              throw Error(
                  "--kernel, --exclude and --top select from a whole report: give them to merge's output, "
                  "not to a --shard run");
            if (!state->shard.empty()) {  // this shard's files, each file's part kept for merge
              ShardReport shard;
              std::vector<std::size_t> global;
              std::vector<std::string> keys;
              const std::vector<std::string> files = selectShardFiles(
                  state->files, state->shard, "parse", {{"arch", state->arch}}, shard, global, keys, stderrMessages());
              Report report = parseShardArtifacts(files, global, keys, state->arch, shard.pieces);
              for (const std::string &w : saidOnce(report.warnings)) printWarning(w);
              emit(state->output, *withShardJson(kernelTableView(report, "regscope parse", analysisFindings(report)),
                                                 [&shard] { return shardToJson(shard); }));
              return report.errors.empty() ? 0 : reportErrors(report);
            }
            ParseOptions options;
            options.log_arch = state->arch;
            options.parallel = state->jobs;
            options.progress = progressWanted(state->progress);
            options.cache_dir = state->no_cache ? "" : ResultCache::defaultDirectory();
            Report report =
                readArtifactInputs(state->files, options, /*unread_is_error=*/false, stderrMessages()).report;
            for (const std::string &w : saidOnce(report.warnings)) printWarning(w);
            addLibrarySummaries(report);  // of the whole libraries, before a selection hides some
            selectAndSay(report, state->selection, state->output);
            emit(state->output, *kernelTableView(report, "regscope parse", analysisFindings(report)));
            return report.errors.empty() ? 0 : reportErrors(report);
          }};
}

}  // namespace regscope
