// regscope wrap: the build's own compile with the flags its backend adds to
// print the figures (Backend::wrapFlags: hipcc/clang's resource remarks,
// nvcc's -Xptxas -v), its output and exit status passed through as they would
// be without regscope (the lines those flags added taken back out of stderr:
// Backend::splitWrapOutput), and the translation unit's kernel records
// written next to the object (OBJ.regscope.json) for `regscope collect`.
#include "regscope/pipeline/wrap.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "regscope/backend/backend.h"
#include "regscope/collect/collect.h"
#include "regscope/pipeline/sidecar.h"
#include "regscope/source/compile_command.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// Replaces regscope with the command: its status, signals and output are the build's own.
[[noreturn]] void execAsIs(const std::vector<std::string> &command, const Messages &say) {
  std::vector<char *> args;
  for (const std::string &a : command) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  execvp(args[0], args.data());
  const int error = errno;
  say.error("wrap: cannot run " + command.front() + ": " + std::strerror(error));
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

}  // namespace

int runWrappedCompile(const std::vector<std::string> &command, bool show_remarks, const Messages &say) {
  if (command.empty()) throw Error("wrap needs the compile after --: regscope wrap -- hipcc -c a.hip -o a.o");
  const WrappedCompile compile = readWrappedCompile(command);  // hipcc/clang: the remarks; nvcc: ptxas -v
  if (!compile.device) execAsIs(command, say);
  const Backend &backend = backendFor(compile.vendor);

  std::vector<std::string> argv = command;
  if (!compile.remarks_asked) {
    const std::vector<std::string> flags = backend.wrapFlags();
    argv.insert(argv.end(), flags.begin(), flags.end());
  }
  std::error_code ec;
  const std::string cwd = fs::current_path(ec).string();
  const std::string sidecar = sidecarPath((fs::path(cwd) / compile.object).lexically_normal().string());
  ForwardedRun run;
  try {
    run = runCapturingStderr(argv);
  } catch (const Error &e) {
    say.warning(std::string("wrap: ") + e.what() + "; running the compile without regscope");
    execAsIs(command, say);
  }
  std::string remarks;
  const std::string kept = backend.splitWrapOutput(run.err, remarks);
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
    say.warning("wrap: no sidecar for " + compile.object + ": " + e.what());
  }
  return 0;
}

bool truthy(const char *value) { return value && *value && std::string(value) != "0"; }

}  // namespace regscope
