// Where reports go: stdout or a file written atomically (a crash or Ctrl-C
// never leaves a half-written report where the old one was).
#include "regscope/views/output.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// The width a text table fits when neither a terminal nor $COLUMNS gives one
// (a pipe, a CI log): what a reader of a log or a pull request sees unwrapped.
constexpr int kDefaultTextWidth = 100;

bool g_stdout_closed = false;

// The report to stdout, every byte or an error: a full disk, /dev/full or a
// closed stdout must not end in exit 0 with the report lost. (A reader that
// went away, as `| head` does, ends the run by SIGPIPE, quietly, as usual.)
void writeStdout(const StreamWriter &write) {
  if (g_stdout_closed) throw Error(std::string("cannot write the report to stdout: ") + std::strerror(EBADF));
  std::cout.flush();  // whatever went before, in order
  if (!std::cout) throw Error("cannot write the report to stdout");
  writeToDescriptor(STDOUT_FILENO, "the report to stdout", write);
  // A regular file's blocks may be allocated only now (NFS, quotas): ask, so a late failure is not lost.
  struct stat st {};
  if (fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode) && fsync(STDOUT_FILENO) != 0 && errno != EINVAL &&
      errno != EINTR)
    throw Error(std::string("cannot write the report to stdout: ") + std::strerror(errno));
}

}  // namespace

bool useColor(const std::string &mode, bool to_terminal) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  if (const char *no = std::getenv("NO_COLOR"); no && *no) return false;
  const char *term = std::getenv("TERM");
  return to_terminal && !(term && std::string(term) == "dumb");
}

void guardStdout() {
  if (fcntl(STDOUT_FILENO, F_GETFD) != -1 || errno != EBADF) return;
  g_stdout_closed = true;
  const int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (fd >= 0 && fd != STDOUT_FILENO) {  // open takes the lowest free descriptor: 1 unless 0 is closed too
    dup2(fd, STDOUT_FILENO);
    close(fd);
  }
}

RenderOptions renderOptionsFor(const OutputOptions &options, Format format, bool to_terminal) {
  RenderOptions render_options;
  // A page of HTML is no use on a terminal; say so before any work is wasted on rendering.
  if (format == Format::Html && to_terminal)
    throw Error("--format html writes a file: give -o FILE, or redirect stdout (regscope ... > report.html)");
  render_options.color = useColor(options.color, to_terminal);
  render_options.name_width = options.name_width;
  struct winsize size {};
  if (options.wide)
    render_options.terminal_width = 0;
  else if (to_terminal && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    render_options.terminal_width = size.ws_col;
  else if (const char *columns = std::getenv("COLUMNS"); columns && std::atoi(columns) > 0)
    render_options.terminal_width = std::atoi(columns);
  else
    render_options.terminal_width = kDefaultTextWidth;
  std::error_code ec;
  render_options.working_directory = fs::current_path(ec).string();
  render_options.source_root =
      repositoryRoot(render_options.working_directory).value_or(render_options.working_directory);
  return render_options;
}

void emit(const OutputOptions &options, const View &view) {
  const std::optional<Format> format = formatByName(options.format);
  if (!format) throw Error("unknown format '" + options.format + "'");
  const bool to_terminal = options.path.empty() && isatty(STDOUT_FILENO);
  const RenderOptions render_options = renderOptionsFor(options, *format, to_terminal);
  throwIfInterrupted();  // a signal before the output is written ends the run
  // Written as it is rendered: a JSON report of a whole library is never held
  // as one string. A failed -o write removes its temporary file: no half report.
  const StreamWriter write = [&](std::ostream &out) { render(view, *format, render_options, out); };
  if (options.path.empty())
    writeStdout(write);
  else
    writeFileAtomically(options.path, write);
}

void refuseOverwritingInputs(const std::vector<std::string> &files, const std::string &output) {
  if (output.empty()) return;
  std::error_code ec;
  for (const std::string &file : files)
    if (fs::equivalent(file, output, ec)) throw Error(output + " is one of the inputs; refusing to overwrite it");
  // Before minutes of compiling, not after: an -o that can never be written.
  const fs::path dir = fs::path(output).has_parent_path() ? fs::path(output).parent_path() : fs::path(".");
  if (fs::is_directory(output, ec)) throw Error("cannot write " + output + ": is a directory");
  if (!fs::is_directory(dir, ec)) throw Error("cannot write " + output + ": no directory " + dir.string());
}

}  // namespace regscope
