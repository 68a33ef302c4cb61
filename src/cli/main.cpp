// regscope: why a GPU kernel runs at the occupancy it does.
// main only wires the subcommands and maps failures to exit codes.
#include <llvm/Config/llvm-config.h>

#include <algorithm>
#include <iostream>

#include "commands.h"
#include "regscope/cache/cache.h"
#include "regscope/support/error.h"
#include "regscope/support/escape.h"
#include "regscope/support/process.h"
#include "regscope/support/version.h"

namespace {

// The subcommand within two edits of what was typed ("analyse" -> "analyze"), or "".
std::string closestName(const std::string &typed, CLI::App &app) {
  std::string best;
  std::size_t best_distance = 3;
  for (const CLI::App *sub : app.get_subcommands({})) {
    const std::string &name = sub->get_name();
    std::vector<std::size_t> row(name.size() + 1);
    for (std::size_t j = 0; j <= name.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= typed.size(); ++i) {
      std::size_t diagonal = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= name.size(); ++j) {
        const std::size_t above = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (typed[i - 1] == name[j - 1] ? 0 : 1)});
        diagonal = above;
      }
    }
    if (row[name.size()] < best_distance) {
      best_distance = row[name.size()];
      best = name;
    }
  }
  return best;
}

// CLI11's message in regscope's words: which command lacks a subcommand,
// which are known, and what was not expected.
std::string parseErrorText(const CLI::App &app, const CLI::ParseError &e) {
  const std::string what = e.what();
  const CLI::App *at = &app;
  for (bool deeper = true; deeper;) {
    deeper = false;
    for (const CLI::App *sub : at->get_subcommands({}))
      if (sub->parsed() && !sub->get_subcommands({}).empty()) {
        at = sub;
        deeper = true;
        break;
      }
  }
  if (what.rfind("A subcommand is required", 0) == 0 || what.rfind("The following argument was not expected", 0) == 0) {
    std::string known;
    for (const CLI::App *sub : at->get_subcommands({})) known += (known.empty() ? "" : ", ") + sub->get_name();
    const std::string command = at == &app ? "regscope" : "regscope " + at->get_name();
    if (const std::vector<std::string> extra = at->remaining(); !extra.empty()) {
      if (extra.front().rfind('-', 0) == 0)
        return command + ": unknown option '" + extra.front() + "' (commands: " + known + ")";
      return command + ": unknown subcommand '" + extra.front() + "' (" + known + ")";
    }
    if (what.rfind("A subcommand", 0) == 0) return command + " needs a subcommand: " + known;
  }
  // CLI11's ExcludesError: "files excludes --collect".
  if (const std::size_t at = what.find(" excludes "); at != std::string::npos && what.find(' ') == at)
    return what.substr(0, at) + " and " + what.substr(at + 10) + " cannot be given together (see regscope --help)";
  static const std::string kUnexpected = "The following argument was not expected: ";
  if (what.rfind(kUnexpected, 0) == 0)
    return "unexpected argument '" + what.substr(kUnexpected.size()) + "' (see regscope --help)";
  return what + " (see regscope --help)";
}

}  // namespace

// Runs the one parsed subcommand, turning its exceptions into the documented exit codes.
template <std::size_t N>
static int runParsed(const regscope::Command (&commands)[N]) {
  using namespace regscope;
  try {
    for (const Command &command : commands)
      if (command.app->parsed()) return command.run();
  } catch (const Error &e) {
    printError(e.what());
    return kExitError;
  } catch (const InterruptedError &interrupted) {
    std::cerr << "regscope: interrupted\n";
    return 128 + interrupted.signal;  // 130 for SIGINT, 143 for SIGTERM
  } catch (const std::exception &e) {
    std::cerr << "regscope: internal error: " << escape::terminalMessage(e.what()) << '\n';
    return kExitError;
  }
  return kExitError;
}

int main(int argc, char **argv) {
  using namespace regscope;
  guardStdout();
  CLI::App app{"regscope: why GPU kernels run at the occupancy they do", "regscope"};
  app.set_version_flag("--version",
                       std::string("regscope ") + kRegscopeVersion + " (LLVM " + LLVM_VERSION_STRING + ")");
  app.require_subcommand(1);
  // Everything after the first "--" is for the compiler.
  std::vector<std::string> args(argv + 1, argv + argc), compiler_flags;
  if (auto dashes = std::find(args.begin(), args.end(), "--"); dashes != args.end()) {
    compiler_flags.assign(dashes + 1, args.end());
    args.erase(dashes, args.end());
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes a reversed vector
  const Command commands[] = {addAnalyzeCommand(app, compiler_flags),
                              addGateCommand(app, compiler_flags),
                              addBaselineCommand(app, compiler_flags),
                              addOccupancyCommand(app),
                              addTableCommand(app),
                              addKernelsCommand(app),
                              addParseCommand(app),
                              addAdviseCommand(app, compiler_flags),
                              addExplainCommand(app, compiler_flags),
                              addCollectCommand(app),
                              addMergeCommand(app),
                              addMcpCommand(app)};
  const Command wrap = addWrapCommand(app, compiler_flags);
  if (!args.empty()) {
    const std::string &first = args.back();  // reversed: the subcommand is last
    bool known_command = false;
    for (const CLI::App *sub : app.get_subcommands({})) known_command |= sub->get_name() == first;
    if (!first.empty() && first[0] != '-' && !known_command) {
      std::string known;
      for (const CLI::App *sub : app.get_subcommands({})) known += (known.empty() ? "" : ", ") + sub->get_name();
      const std::string suggestion = closestName(first, app);
      std::cerr << "regscope: error: unknown command '" << escape::terminal(first) << "'"
                << (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?") << " (commands: " << known
                << ")\n";
      return kExitError;
    }
  }
  try {
    app.parse(args);
  } catch (const CLI::ParseError &e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // The message quotes the arguments: file names from a repository, escaped as every error is.
    printError(parseErrorText(app, e));
    return kExitError;
  }
  // wrap runs a build's compile: its signals and status are the compiler's, so before the guard below.
  if (wrap.app->parsed()) {
    try {
      return wrap.run();
    } catch (const std::exception &e) {
      printError(e.what());
      return kExitError;
    }
  }
  // Signals are caught for the whole run: one that arrives before the output
  // is written ends it (InterruptedError), with temporary directories removed.
  int status = kExitError;
  {
    const SignalGuard guard;
    status = runParsed(commands);
  }
  // Once per run, with the count: an edited cache entry is never served, only recompiled.
  if (const std::size_t edited = ResultCache::editedEntriesSeen())
    printWarning(std::to_string(edited) + " result-cache " + (edited == 1 ? "entry" : "entries") + " did not match " +
                 (edited == 1 ? "its" : "their") + " digest (edited after regscope wrote " +
                 (edited == 1 ? "it" : "them") + "): not used, recompiled or re-read");
  // A signal caught after the last check (while the output was written) still ends the run 128+N:
  // the handlers are the default ones again here, so one that comes later kills the process itself.
  if (const int signal = pendingSignal(); signal != 0 && status < 128) {
    std::cerr << "regscope: interrupted\n";
    return 128 + signal;
  }
  return status;
}
