// regscope analyze FILE... [--offload-arch A[,B]] [--lines[=N]] [-- compiler flags]
#include "commands.h"
#include "regscope/pipeline/explain.h"
#include "regscope/support/error.h"
#include "regscope/views/views.h"

namespace regscope {

Command addAnalyzeCommand(CLI::App &root, const std::vector<std::string> &compiler_flags) {
  struct State {
    SourceOptions sources;
    OutputOptions output;
    int lines = 0;  // --lines: hottest source lines per kernel; 0: none
    KernelSelection selection;
  };
  auto state = std::make_shared<State>();
  CLI::App *app =
      root.add_subcommand("analyze", "Compile HIP sources and report each kernel's registers, LDS and occupancy");
  addSourceOptions(*app, state->sources, compiler_flags);
  addOutputOptions(*app, state->output, /*ci_formats=*/true);
  addShardOption(*app, state->sources.shard);
  // A flag with an optional =N, so that `--lines a.hip` keeps a.hip a file.
  app->add_flag("--lines{5}", state->lines,
                "Then, per kernel, its N hottest source lines by peak live registers (--lines=N; default 5)")
      ->check(wholeNumber(1));
  addSelectionOptions(*app, state->selection);

  return {app, [state] {
            checkSelection(state->selection);  // a bad regex is said before anything is compiled
            if (state->selection.any() && (state->lines || !state->sources.shard.empty()))
              throw Error("--kernel, --exclude and --top cannot be given with --lines or --shard");
            refuseOverwritingInputs(inputPaths(state->sources, workingDirectory()), state->output.path);
            prepareSources(state->sources);
            if (state->lines && !state->sources.shard.empty())
              throw Error(
                  "--lines reads each kernel's assembly, which a shard report does not keep: run "
                  "--lines without --shard");
            if (state->lines) {
              const ExplainedReport explained = explainSources(state->sources, stderrMessages());
              emit(state->output,
                   *kernelLinesView(explained.report, explained.kernels, "regscope analyze",
                                    static_cast<std::size_t>(state->lines), analysisFindings(explained.report)));
              return reportErrors(explained.report);
            }
            Report report = analyzeSources(state->sources, stderrMessages());
            selectAndSay(report, state->selection, state->output);
            emit(state->output,
                 *shardedView(kernelTableView(report, "regscope analyze", analysisFindings(report)), state->sources));
            return reportErrors(report);
          }};
}

}  // namespace regscope
