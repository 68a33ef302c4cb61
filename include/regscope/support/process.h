// Running programs: by argv (never through a shell), in private temporary
// directories, with Ctrl-C unwinding through the destructors that remove them.
#pragma once

#include <atomic>
#include <string>
#include <vector>

namespace regscope {

// While any exists, SIGINT, SIGTERM and SIGHUP are caught rather than ending
// the process, so the run can unwind (temporary directories removed, no
// half-written output) and end with InterruptedError at the next check.
class SignalGuard {
 public:
  SignalGuard();
  ~SignalGuard();
  SignalGuard(const SignalGuard &) = delete;
  SignalGuard &operator=(const SignalGuard &) = delete;
};

// A private directory (0700) under $TMPDIR, removed with everything in it on
// destruction; it holds a SignalGuard, so a Ctrl-C still runs the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return path_; }
  // TMPDIR pointing here, for a child whose own temporary files (a compiler's
  // crash reproducer, say) should leave with the directory.
  std::vector<std::string> asTmpdir() const { return {"TMPDIR=" + path_}; }

 private:
  SignalGuard guard_;
  std::string path_;
};

// Thrown when a caught signal is pending; main exits 128 + signal (130 for
// SIGINT, 143 for SIGTERM), as shells and CI runners expect.
struct InterruptedError {
  int signal;
};

// One call's own stop request, for a server that runs calls on threads of
// their own (regscope mcp): while a CancelScope lives on a thread, runProcess
// on that thread polls its flag as it polls for signals and, once the flag is
// true, ends the program's group and throws CancelledError. A flag, not a
// signal, so that cancelling one call stops no other.
struct CancelledError {};
class CancelScope {
 public:
  explicit CancelScope(const std::atomic<bool> *flag);
  ~CancelScope();
  CancelScope(const CancelScope &) = delete;
  CancelScope &operator=(const CancelScope &) = delete;

 private:
  const std::atomic<bool> *previous_;
};

// Raises InterruptedError if a caught signal is pending.
void throwIfInterrupted();
// Whether a caught signal is pending (a job queue stops taking jobs).
bool signalPending();

// The caught signal not yet acted on (SIGINT, SIGTERM, SIGHUP), or 0.
int pendingSignal();

// Runs argv (no shell) in `cwd`, in a process group of its own, with
// PR_SET_PDEATHSIG (SIGKILL), so it does not outlive regscope even when
// regscope itself is killed; stdout and stderr go to the given files. No
// program starts once a signal is pending (InterruptedError). A caught signal or `timeout_seconds` (0: none)
// ends the whole group (a wrapper's children too) and is waited for before
// this returns: InterruptedError, or regscope::Error naming the timeout.
// Returns the exit status; throws regscope::Error if it cannot start.
// `environment` ("NAME=value") is set in the child on top of ours.
int runProcess(const std::vector<std::string> &argv, const std::string &cwd, const std::string &stdout_path,
               const std::string &stderr_path, int timeout_seconds = 0,
               const std::vector<std::string> &environment = {});

// runProcess with both outputs captured as text, through files in a private
// temporary directory. An empty `cwd` runs the program in that directory.
struct ProcessOutput {
  int exit_code = 0;
  std::string out, err;
};
ProcessOutput runCaptured(const std::vector<std::string> &argv, const std::string &cwd = "", int timeout_seconds = 0,
                          const std::vector<std::string> &environment = {});

// Runs argv (PATH searched, no shell) as a build tool's compiler runs: in
// this process group, stdin and stdout inherited, stderr captured. A signal
// sent to regscope alone is passed on to the child. `status` is waitpid's raw
// status; a program that cannot be started gives 127, as a shell does.
struct ForwardedRun {
  int status = 0;
  std::string err;
};
ForwardedRun runCapturingStderr(const std::vector<std::string> &argv);

// The path of `name` as execvp would find it (PATH search), or empty.
std::string searchPath(const std::string &name);

// searchPath, or regscope::Error "compiler not found: <how> is not an executable".
std::string requireExecutable(const std::string &name, const std::string &how);

}  // namespace regscope
