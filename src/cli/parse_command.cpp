// regscope parse FILE... [--arch A]: .s files, build logs, code objects.
#include <iostream>

#include "commands.h"
#include "regscope/analyze.h"
#include "regscope/printers.h"

namespace regscope {

Command addParseCommand(CLI::App &root) {
  struct State {
    std::vector<std::string> files;
    std::string arch;
    OutputOptions output;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand(
      "parse", "Report kernels from existing build artifacts: .s, build logs, code objects (no compiler run)");
  app->add_option("files", state->files, ".s files, logs with resource remarks, .hsaco/.o/executables")->required();
  app->add_option("--arch", state->arch, "The arch of a build log's remarks (logs do not say)");
  addOutputOptions(*app, state->output, /*ci_formats=*/true);
  return {app, [state] {
            refuseOverwritingInputs(state->files, state->output.path);
            Report report = parseArtifacts(state->files, state->arch);
            for (const std::string &w : report.warnings) std::cerr << "regscope: warning: " << w << '\n';
            const FindingsView view{&report, analysisFindings(report), "regscope parse"};
            emit(state->output, [&](std::ostream &out, bool color) { printReportText(report, out, {color}); },
                 [&] { return reportToJson(report); }, &view);
            return 0;
          }};
}

}  // namespace regscope
