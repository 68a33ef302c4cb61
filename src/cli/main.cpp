// regscope: why a GPU kernel runs at the occupancy it does.
// main only wires the subcommands and maps failures to exit codes.
#include <llvm/Config/llvm-config.h>

#include <algorithm>
#include <iostream>

#include "commands.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"
#include "regscope/support/version.h"

int main(int argc, char **argv) {
  using namespace regscope;
  CLI::App app{"regscope: why GPU kernels run at the occupancy they do", "regscope"};
  app.set_version_flag("--version", std::string("regscope ") + kRegscopeVersion + " (LLVM " +
                                        LLVM_VERSION_STRING + ")");
  app.require_subcommand(1);
  // Everything after the first "--" is for the compiler.
  std::vector<std::string> args(argv + 1, argv + argc), compiler_flags;
  if (auto dashes = std::find(args.begin(), args.end(), "--"); dashes != args.end()) {
    compiler_flags.assign(dashes + 1, args.end());
    args.erase(dashes, args.end());
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes a reversed vector
  const Command commands[] = {addAnalyzeCommand(app, compiler_flags), addGateCommand(app, compiler_flags),
                              addBaselineCommand(app, compiler_flags), addOccupancyCommand(app),
                              addTableCommand(app), addKernelsCommand(app), addParseCommand(app)};
  try {
    app.parse(args);
  } catch (const CLI::ParseError &e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << "regscope: error: " << e.what() << " (see regscope --help)\n";
    return kExitError;
  }
  try {
    for (const Command &command : commands)
      if (command.app->parsed()) return command.run();
  } catch (const Error &e) {
    std::cerr << "regscope: error: " << e.what() << '\n';
    return kExitError;
  } catch (const InterruptedError &) {
    std::cerr << "regscope: interrupted\n";
    return kExitInterrupted;
  } catch (const std::exception &e) {
    std::cerr << "regscope: internal error: " << e.what() << '\n';
    return kExitError;
  }
  return kExitError;
}
