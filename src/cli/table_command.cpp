// regscope table --arch A
#include "commands.h"
#include "regscope/arch.h"
#include "regscope/printers.h"

namespace regscope {

Command addTableCommand(CLI::App &root) {
  struct State {
    std::string arch = "gfx90a";
    OutputOptions output;
  };
  auto state = std::make_shared<State>();
  CLI::App *app = root.add_subcommand("table", "Print an arch's VGPR -> waves/SIMD table");
  app->add_option("--arch", state->arch, "Target or product name")->capture_default_str();
  addOutputOptions(*app, state->output);
  return {app, [state] {
            const AmdArch &arch = requireArch(state->arch);
            emit(state->output, [&](std::ostream &out, bool) { printVgprTableText(arch, out); },
                 [&] { return vgprTableToJson(arch); });
            return 0;
          }};
}

}  // namespace regscope
