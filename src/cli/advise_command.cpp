// regscope advise FILE [--offload-arch A] [--kernel NAME] [--patch F] [-- compiler flags]
#include <filesystem>
#include <iostream>

#include "commands.h"
#include "regscope/advise/advise.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/views/views.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// --patch never replaces a file: an old patch, or a file that only looks like
// one, is the user's to remove. Checked before any compile.
void refusePatchPath(const std::string &patch, const std::string &output) {
  if (patch.empty()) return;
  std::error_code ec;
  if (fs::exists(fs::symlink_status(patch, ec)))
    throw Error(patch + " exists; refusing to overwrite it with --patch (remove it or name another file)");
  if (!output.empty() && fs::absolute(patch).lexically_normal() == fs::absolute(output).lexically_normal())
    throw Error("--patch and -o name the same file");
}

}  // namespace

Command addAdviseCommand(CLI::App &root, const std::vector<std::string> &compiler_flags) {
  struct State {
    SourceOptions sources;
    OutputOptions output;
    std::vector<std::string> kernels;
    std::string patch;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand(
      "advise", "Find candidate edits that cut register pressure, compile each on a private copy, report what helps");
  addSourceOptions(*app, state->sources, compiler_flags);
  addOutputOptions(*app, state->output);
  app->add_option("--kernel", state->kernels, "Only this kernel's candidates (name, signature or symbol; repeatable)");
  app->add_option("--patch", state->patch,
                  "Write the confirmed edits, combined, as one unified diff to FILE (git apply FILE); the source "
                  "itself is never modified");

  return {app, [state] {
            refuseOverwritingInputs(inputPaths(state->sources, workingDirectory()), state->output.path);
            refuseOverwritingInputs(inputPaths(state->sources, workingDirectory()), state->patch);
            refusePatchPath(state->patch, state->output.path);
            prepareSources(state->sources);
            AdviseInput input;
            input.job = adviseJob(state->sources, stderrMessages());
            input.options = state->sources.analyze;
            input.kernels = state->kernels;
            const AdviseResult result = advise(input);
            emit(state->output, *adviseView(result));
            if (!state->patch.empty()) {
              if (result.combined_diff.empty())
                std::cerr << "regscope: no confirmed edit; " << state->patch << " not written\n";
              else
                writeFileAtomically(state->patch, result.combined_diff);
            }
            return kExitOk;
          }};
}

}  // namespace regscope
