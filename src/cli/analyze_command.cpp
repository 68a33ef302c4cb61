// regscope analyze FILE... [--offload-arch A[,B]] [-- compiler flags]
#include <filesystem>
#include <iostream>

#include "commands.h"
#include "regscope/analyze.h"
#include "regscope/error.h"
#include "regscope/printers.h"

namespace regscope {

void addSourceOptions(CLI::App &app, SourceOptions &options, const std::vector<std::string> &compiler_flags) {
  options.analyze.archs = {"gfx90a"};
  options.analyze.extra_flags = compiler_flags;
  app.add_option("files", options.files, "HIP source files")->required();
  options.archs_option = app.add_option("--offload-arch", options.analyze.archs,
                                        "Target(s), comma-separated or repeated")
                             ->delimiter(',')
                             ->capture_default_str();
  app.add_option("--compiler", options.analyze.compiler, "hipcc or clang++ to use (default: $HIPCC, then hipcc)");
  app.footer("Flags after -- go to the compiler unchanged, e.g. -- -DN=64 -I include");
}

void refuseOverwritingInputs(const std::vector<std::string> &files, const std::string &output) {
  std::error_code ec;
  for (const std::string &file : files)
    if (!output.empty() && std::filesystem::equivalent(file, output, ec))
      throw Error(output + " is one of the inputs; refusing to overwrite it");
}

Command addAnalyzeCommand(CLI::App &root, const std::vector<std::string> &compiler_flags) {
  struct State {
    SourceOptions sources;
    OutputOptions output;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand(
      "analyze", "Compile HIP sources and report each kernel's registers, LDS and occupancy");
  addSourceOptions(*app, state->sources, compiler_flags);
  addOutputOptions(*app, state->output);

  return {app, [state] {
            refuseOverwritingInputs(state->sources.files, state->output.path);
            Report report = analyzeFiles(state->sources.files, state->sources.analyze);
            for (const std::string &warning : report.warnings) std::cerr << "regscope: warning: " << warning << '\n';
            emit(state->output,
                 [&](std::ostream &out, bool color) { printReportText(report, out, {color}); },
                 [&] { return reportToJson(report); });
            return 0;
          }};
}

}  // namespace regscope
