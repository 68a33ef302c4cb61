// Runs a program by argv (never through a shell), waiting for it while
// watching for the signals TempDir catches.
#include <fcntl.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>

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

namespace {

using Clock = std::chrono::steady_clock;

// This thread's call's stop request (CancelScope), or null.
thread_local const std::atomic<bool> *call_cancelled = nullptr;

// Ends the child's process group: SIGTERM, then SIGKILL for what is left
// after a grace period, and waits until none of it runs, so the caller may
// remove the directory it worked in.
void endGroup(pid_t pid, int &status) {
  kill(-pid, SIGTERM);
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(2);
  bool reaped = false;
  while (Clock::now() < deadline) {
    if (!reaped && waitpid(pid, &status, WNOHANG) == pid) reaped = true;
    if (reaped && kill(-pid, 0) != 0) return;  // the whole group is gone
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(-pid, SIGKILL);
  if (!reaped)
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  for (int i = 0; i < 400 && kill(-pid, 0) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

}  // namespace

CancelScope::CancelScope(const std::atomic<bool> *flag) : previous_(call_cancelled) { call_cancelled = flag; }
CancelScope::~CancelScope() { call_cancelled = previous_; }

int runProcess(const std::vector<std::string> &argv, const std::string &cwd, const std::string &stdout_path,
               const std::string &stderr_path, int timeout_seconds, const std::vector<std::string> &environment) {
  const SignalGuard guard;  // a signal now is pending, not fatal: the group is ended below
  throwIfInterrupted();     // once interrupted, nothing new starts
  if (call_cancelled && call_cancelled->load()) throw CancelledError{};
  std::vector<char *> args;
  for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);

  int out = open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  int err = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (out < 0 || err < 0) throw Error("cannot create output files in " + cwd);
  int exec_pipe[2];  // reports an exec failure back to the parent
  if (pipe2(exec_pipe, O_CLOEXEC) != 0) throw Error("pipe failed: " + std::string(strerror(errno)));

  // The child inherits regscope's handlers until it resets them: a signal
  // to its group in that window would be swallowed and the compiler run on.
  // Blocked across the fork, it waits and then ends the child by default.
  sigset_t caught, before;
  sigemptyset(&caught);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&caught, s);
  pthread_sigmask(SIG_BLOCK, &caught, &before);
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid != 0) pthread_sigmask(SIG_SETMASK, &before, nullptr);
  if (pid < 0) throw Error("fork failed: " + std::string(strerror(errno)));
  if (pid == 0) {
    // Child: its own process group (so a wrapper's children can be ended with
    // it), killed when regscope dies (even by SIGKILL, which leaves no time to
    // end the group), default signal dispositions, the temp dir as cwd,
    // redirected output.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(128 + SIGKILL);  // regscope died before prctl took effect
    for (const std::string &entry : environment) putenv(const_cast<char *>(entry.c_str()));
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
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
  setpgid(pid, pid);  // as the child does: whichever runs first
  close(out);
  close(err);
  close(exec_pipe[1]);
  int exec_errno = 0;
  ssize_t got;
  do got = read(exec_pipe[0], &exec_errno, sizeof exec_errno);
  while (got < 0 && errno == EINTR);
  close(exec_pipe[0]);

  // Poll, so a signal (the child's group no longer gets the terminal's) or the
  // timeout is acted on within milliseconds.
  const Clock::time_point start = Clock::now();
  int status = 0;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) throw Error("waitpid failed: " + std::string(strerror(errno)));
    try {
      throwIfInterrupted();
    } catch (const InterruptedError &) {
      endGroup(pid, status);
      throw;
    }
    if (call_cancelled && call_cancelled->load()) {
      endGroup(pid, status);
      throw CancelledError{};
    }
    if (timeout_seconds > 0 && Clock::now() - start > std::chrono::seconds(timeout_seconds)) {
      endGroup(pid, status);
      throw Error(argv[0] + " did not finish within --timeout " + std::to_string(timeout_seconds) + " s; ended it");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (got > 0) throw Error("cannot run " + argv[0] + ": " + strerror(exec_errno));
  throwIfInterrupted();
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

ProcessOutput runCaptured(const std::vector<std::string> &argv, const std::string &cwd, int timeout_seconds,
                          const std::vector<std::string> &environment) {
  TempDir capture;
  const std::string out = capture.path() + "/stdout", err = capture.path() + "/stderr";
  ProcessOutput result;
  result.exit_code = runProcess(argv, cwd.empty() ? capture.path() : cwd, out, err, timeout_seconds, environment);
  result.out = readFile(out);
  result.err = readFile(err);
  return result;
}

}  // namespace regscope

namespace regscope {
namespace {

volatile sig_atomic_t forward_to = 0;

extern "C" void forwardSignal(int signal) {
  if (forward_to > 0) kill(static_cast<pid_t>(forward_to), signal);
}

}  // namespace

ForwardedRun runCapturingStderr(const std::vector<std::string> &argv) {
  ForwardedRun run;
  if (argv.empty()) throw Error("no command to run");
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  std::vector<char *> args;
  for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    throw Error(std::string("cannot start ") + argv.front() + ": " + std::strerror(errno));
  }
  if (pid == 0) {
    dup2(fds[1], STDERR_FILENO);
    execvp(args[0], args.data());
    const std::string message = argv.front() + ": " + std::strerror(errno) + "\n";
    (void)!write(STDERR_FILENO, message.data(), message.size());
    _exit(127);
  }
  close(fds[1]);
  // While the child runs, SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to
  // regscope alone reach it too; the caller re-raises the child's signal.
  forward_to = pid;
  struct sigaction forward {
  }, saved[4];
  forward.sa_handler = forwardSignal;
  sigemptyset(&forward.sa_mask);
  forward.sa_flags = SA_RESTART;
  const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
  for (int i = 0; i < 4; ++i) sigaction(signals[i], &forward, &saved[i]);
  char buffer[65536];
  for (;;) {
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n > 0)
      run.err.append(buffer, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR)
      break;
  }
  close(fds[0]);
  while (waitpid(pid, &run.status, 0) < 0 && errno == EINTR) {
  }
  forward_to = 0;
  for (int i = 0; i < 4; ++i) sigaction(signals[i], &saved[i], nullptr);
  return run;
}

}  // namespace regscope
