// regscope analyze FILE... [--offload-arch A[,B]] [-- compiler flags]
#include <filesystem>
#include <iostream>

#include "commands.h"
#include "regscope/analyze.h"
#include "regscope/error.h"
#include "regscope/printers.h"

namespace regscope {

Command addAnalyzeCommand(CLI::App &root, const std::vector<std::string> &compiler_flags) {
  struct State {
    std::vector<std::string> files;
    AnalyzeOptions options;
    OutputOptions output;
  };
  auto state = std::make_shared<State>();
  state->options.archs = {"gfx90a"};
  state->options.extra_flags = compiler_flags;

  CLI::App *app = root.add_subcommand(
      "analyze", "Compile HIP sources and report each kernel's registers, LDS and occupancy");
  app->add_option("files", state->files, "HIP source files")->required();
  app->add_option("--offload-arch", state->options.archs, "Target(s), comma-separated or repeated")
      ->delimiter(',')
      ->capture_default_str();
  app->add_option("--compiler", state->options.compiler, "hipcc or clang++ to use (default: $HIPCC, then hipcc)");
  addOutputOptions(*app, state->output);
  app->footer("Flags after -- go to the compiler unchanged, e.g. -- -DN=64 -I include");

  return {app, [state] {
            // Refuse to overwrite an input with the report.
            namespace fs = std::filesystem;
            std::error_code ec;
            for (const std::string &file : state->files)
              if (!state->output.path.empty() && fs::equivalent(file, state->output.path, ec))
                throw Error("-o " + state->output.path + " is one of the inputs; refusing to overwrite it");
            Report report = analyzeFiles(state->files, state->options);
            for (const std::string &warning : report.warnings) std::cerr << "regscope: warning: " << warning << '\n';
            emit(state->output,
                 [&](std::ostream &out, bool color) { printReportText(report, out, {color}); },
                 [&] { return reportToJson(report); });
            return 0;
          }};
}

}  // namespace regscope
