// Runs a program by argv (never through a shell), waiting for it while
// watching for the signals TempDir catches.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"

namespace regscope {
namespace {

bool isExecutableFile(const std::string &path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::string searchPath(const std::string &name) {
  if (name.find('/') != std::string::npos) return isExecutableFile(name) ? name : "";
  const char *path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (isExecutableFile(candidate)) return candidate;
  }
  return "";
}

std::string requireExecutable(const std::string &name, const std::string &how) {
  std::string found = searchPath(name);
  if (found.empty()) throw Error("compiler not found: " + how + " is not an executable");
  return found;
}

int runProcess(const std::vector<std::string> &argv, const std::string &cwd,
               const std::string &stdout_path, const std::string &stderr_path) {
  std::vector<char *> args;
  for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);

  int out = open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  int err = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (out < 0 || err < 0) throw Error("cannot create output files in " + cwd);
  int exec_pipe[2];  // reports an exec failure back to the parent
  if (pipe2(exec_pipe, O_CLOEXEC) != 0) throw Error("pipe failed: " + std::string(strerror(errno)));

  pid_t pid = fork();
  if (pid < 0) throw Error("fork failed: " + std::string(strerror(errno)));
  if (pid == 0) {
    // Child: default signal dispositions, the temp dir as cwd, redirected output.
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    int devnull = open("/dev/null", O_RDONLY);
    if (chdir(cwd.c_str()) != 0 || dup2(devnull, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) {
      int e = errno;
      (void)!write(exec_pipe[1], &e, sizeof e);
      _exit(127);
    }
    execvp(args[0], args.data());
    int e = errno;
    (void)!write(exec_pipe[1], &e, sizeof e);
    _exit(127);
  }
  close(out);
  close(err);
  close(exec_pipe[1]);
  int exec_errno = 0;
  ssize_t got;
  do got = read(exec_pipe[0], &exec_errno, sizeof exec_errno);
  while (got < 0 && errno == EINTR);
  close(exec_pipe[0]);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw Error("waitpid failed: " + std::string(strerror(errno)));
    try {
      throwIfInterrupted();
    } catch (const InterruptedError &) {
      kill(pid, SIGTERM);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
      throw;
    }
  }
  if (got > 0) throw Error("cannot run " + argv[0] + ": " + strerror(exec_errno));
  throwIfInterrupted();
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

ProcessOutput runCaptured(const std::vector<std::string> &argv, const std::string &cwd) {
  TempDir capture;
  const std::string out = capture.path() + "/stdout", err = capture.path() + "/stderr";
  ProcessOutput result;
  result.exit_code = runProcess(argv, cwd.empty() ? capture.path() : cwd, out, err);
  result.out = readFile(out);
  result.err = readFile(err);
  return result;
}

}  // namespace regscope
