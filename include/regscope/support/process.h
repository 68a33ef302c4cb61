// Running programs: by argv (never through a shell), in private temporary
// directories, with Ctrl-C unwinding through the destructors that remove them.
#pragma once

#include <string>
#include <vector>

namespace regscope {

// A private directory under $TMPDIR, removed with everything in it on
// destruction. While any exists, SIGINT/SIGTERM/SIGHUP are caught so that a
// Ctrl-C still runs the destructors (see InterruptedError).
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return path_; }

 private:
  std::string path_;
};

// Thrown when a signal arrived while a child ran; main exits 128 + signal.
struct InterruptedError {
  int signal;
};

// Raises InterruptedError if a caught signal is pending.
void throwIfInterrupted();

// Runs argv (no shell) in `cwd`; stdout and stderr go to the given files.
// Returns the exit status; throws regscope::Error if it cannot start.
int runProcess(const std::vector<std::string> &argv, const std::string &cwd,
               const std::string &stdout_path, const std::string &stderr_path);

// runProcess with both outputs captured as text, through files in a private
// temporary directory. An empty `cwd` runs the program in that directory.
struct ProcessOutput {
  int exit_code = 0;
  std::string out, err;
};
ProcessOutput runCaptured(const std::vector<std::string> &argv, const std::string &cwd = "");

// The path of `name` as execvp would find it (PATH search), or empty.
std::string searchPath(const std::string &name);

// searchPath, or regscope::Error "compiler not found: <how> is not an executable".
std::string requireExecutable(const std::string &name, const std::string &how);

}  // namespace regscope
