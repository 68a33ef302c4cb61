// The driver: runs the compiler in a private temporary directory and hands
// back its outputs as text. It never parses them and never writes anywhere
// else; the directory is gone when compileHip returns or throws.
#pragma once

#include <string>
#include <vector>

namespace regscope {

// Where the compiler is: --compiler, then $HIPCC, then `hipcc` on PATH.
// Throws regscope::Error naming where it looked.
std::string findHipCompiler(const std::string &explicit_path);

struct CompileJob {
  std::string compiler;                 // resolved path
  std::string source;                   // absolute path of the HIP file
  std::vector<std::string> archs;       // one compiler run covers them all
  std::vector<std::string> extra_flags; // the user's, after `--`
};

struct ArchOutput {
  std::string arch;         // as in the file name, features included ("gfx90a:xnack+")
  std::string assembly;     // the device .s (AMD) or .ptx (NVIDIA)
  std::string remarks_yaml; // the .opt.yaml, empty if the compiler wrote none
  std::string link_report;  // NVIDIA -rdc: nvlink's resource report
};

struct CompileOutput {
  std::vector<std::string> argv;  // the command that ran
  int exit_code = 0;
  std::string diagnostics;        // stderr: remarks, warnings, errors
  std::vector<ArchOutput> archs;
  std::vector<std::string> dependencies;  // files the compile read (source and headers)
};

CompileOutput compileHip(const CompileJob &job);

// Where nvcc is: --compiler, then nvcc on PATH, then $CUDA_PATH/bin, then
// /usr/local/cuda/bin. Throws regscope::Error naming every place it looked.
std::string findNvcc(const std::string &explicit_path);

// nvcc once for every arch (-gencode per arch, -Xptxas -v,-warn-spills, --keep
// for the PTX). With -rdc=true among the flags, one device link per arch
// (--resource-usage) gives the final figures. In CompileOutput, each
// ArchOutput holds the PTX as `assembly` and that link's report as
// `link_report`.
CompileOutput compileCuda(const CompileJob &job);

// ---- building blocks, exposed for tests ----

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

// Thrown when a signal arrived while a child ran; main exits 130.
struct InterruptedError {
  int signal;
};

// Runs argv (no shell) in `cwd`; stdout and stderr go to the given files.
// Returns the exit status; throws regscope::Error if it cannot start.
int runProcess(const std::vector<std::string> &argv, const std::string &cwd,
               const std::string &stdout_path, const std::string &stderr_path);

// The path of `name` as execvp would find it (PATH search), or empty.
std::string searchPath(const std::string &name);

// searchPath, or regscope::Error "compiler not found: <how> is not an executable".
std::string requireExecutable(const std::string &name, const std::string &how);

// The whole file as text; empty if it cannot be read.
std::string readFile(const std::string &path);

// Replaces `path` with `content` via a temporary file and rename, so readers
// see the old file or the new one, never half of one. Keeps the replaced
// file's mode, else honours the umask. Throws regscope::Error.
void writeFileAtomically(const std::string &path, const std::string &content);

// runProcess with both outputs captured as text, through files in a private
// temporary directory. An empty `cwd` runs the program in that directory.
struct ProcessOutput {
  int exit_code = 0;
  std::string out, err;
};
ProcessOutput runCaptured(const std::vector<std::string> &argv, const std::string &cwd = "");

// Raises InterruptedError if a caught signal is pending.
void throwIfInterrupted();

}  // namespace regscope
