// regscope wrap [--show-remarks] -- [LAUNCHER...] COMPILER ARGS...
// A compiler launcher (CMAKE_HIP_COMPILER_LAUNCHER and the like): runs the
// build's own compile with the resource remarks added, passes the compiler's
// output and exit status through as they would be without regscope, and
// writes the translation unit's kernel records next to the object
// (OBJ.regscope.json) for `regscope collect`. Anything that is not a device
// compile is exec'd as it is. nvcc compiles get -Xptxas -v instead of the
// remark flag, and its info lines are what is taken back out of stderr.
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "commands.h"
#include "regscope/backends/nvidia/nvcc_wrap.h"
#include "regscope/collect/collect.h"
#include "regscope/pipeline/sidecar.h"
#include "regscope/source/compile_command.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// Replaces regscope with the command: its status, signals and output are the build's own.
[[noreturn]] void execAsIs(const std::vector<std::string> &command) {
  std::vector<char *> args;
  for (const std::string &a : command) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  execvp(args[0], args.data());
  const int error = errno;
  printError("wrap: cannot run " + command.front() + ": " + std::strerror(error));
  std::_Exit(error == ENOENT ? 127 : 126);
}

void writeAll(int fd, const std::string &text) {
  for (std::size_t at = 0; at < text.size();) {
    const ssize_t n = write(fd, text.data() + at, text.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    at += static_cast<std::size_t>(n);
  }
}

// A sidecar from an earlier build of this object would describe code that no longer exists.
// Only a file: a directory of that name is not regscope's to remove.
void removeStale(const std::string &path) {
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(path, ec))) fs::remove(path, ec);
}

bool truthy(const char *value) { return value && *value && std::string(value) != "0"; }

int wrap(const std::vector<std::string> &command, bool show_remarks) {
  if (command.empty()) throw Error("wrap needs the compile after --: regscope wrap -- hipcc -c a.hip -o a.o");
  WrappedCompile compile = readCompileCommand(command);
  if (!compile.device) compile = readNvccCompileCommand(command);  // nvcc: ptxas -v, the object's cubins
  if (!compile.device) execAsIs(command);
  const bool nvcc = compile.vendor == Vendor::Nvidia;

  std::vector<std::string> argv = command;
  if (!compile.remarks_asked && nvcc) argv.insert(argv.end(), kPtxasVerboseFlags.begin(), kPtxasVerboseFlags.end());
  if (!compile.remarks_asked && !nvcc) argv.push_back(kResourceRemarkFlag);
  std::error_code ec;
  const std::string cwd = fs::current_path(ec).string();
  const std::string sidecar = sidecarPath((fs::path(cwd) / compile.object).lexically_normal().string());
  ForwardedRun run;
  try {
    run = runCapturingStderr(argv);
  } catch (const Error &e) {
    printWarning(std::string("wrap: ") + e.what() + "; running the compile without regscope");
    execAsIs(command);
  }
  std::string remarks;
  const std::string kept = nvcc ? splitPtxasInfo(run.err, remarks) : splitResourceRemarks(run.err, remarks);
  writeAll(STDERR_FILENO, compile.remarks_asked || show_remarks ? run.err : kept);

  if (WIFSIGNALED(run.status)) {
    removeStale(sidecar);
    const int signal = WTERMSIG(run.status);
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return 128 + signal;
  }
  const int status = WIFEXITED(run.status) ? WEXITSTATUS(run.status) : 1;
  if (status != 0) {
    removeStale(sidecar);
    return status;
  }
  try {
    writeSidecar(sidecarFor(compile, command, remarks, cwd));
  } catch (const std::exception &e) {  // regscope's failure never fails the build
    removeStale(sidecar);
    printWarning("wrap: no sidecar for " + compile.object + ": " + e.what());
  }
  return 0;
}

}  // namespace

Command addWrapCommand(CLI::App &root, const std::vector<std::string> &command) {
  auto show_remarks = std::make_shared<bool>(false);
  CLI::App *app = root.add_subcommand(
      "wrap",
      "Compiler launcher: run the build's compile, and write its kernels' figures next to the object "
      "(OBJ.regscope.json) for regscope collect");
  app->add_flag("--show-remarks", *show_remarks,
                "Also print the resource remarks regscope adds into the build log (or set REGSCOPE_SHOW_REMARKS=1)");
  app->footer(
      "Usage: regscope wrap -- [ccache] hipcc ARGS...   e.g. cmake -DCMAKE_HIP_COMPILER_LAUNCHER='regscope;wrap;--'");
  return {app, [show_remarks, &command] {
            return wrap(command, *show_remarks || truthy(std::getenv("REGSCOPE_SHOW_REMARKS")));
          }};
}

}  // namespace regscope
