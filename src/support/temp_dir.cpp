// Private temporary directories, and the signal handling that lets a Ctrl-C
// unwind through their destructors instead of killing the process mid-way.
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <system_error>

#include "regscope/support/error.h"
#include "regscope/support/process.h"

namespace regscope {
namespace {

volatile std::sig_atomic_t g_pending_signal = 0;
int g_guards = 0;  // guarded by g_guards_mutex: jobs run on several threads
std::mutex g_guards_mutex;
struct sigaction g_previous[3];
const int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void onSignal(int sig) { g_pending_signal = sig; }

void installHandlers() {
  struct sigaction action {};
  action.sa_handler = onSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: waitpid returns EINTR
  for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &action, &g_previous[i]);
}

void restoreHandlers() {
  for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &g_previous[i], nullptr);
}

}  // namespace

void throwIfInterrupted() {
  if (g_pending_signal) throw InterruptedError{static_cast<int>(g_pending_signal)};
}

bool signalPending() { return g_pending_signal != 0; }

int pendingSignal() { return static_cast<int>(g_pending_signal); }

SignalGuard::SignalGuard() {
  std::lock_guard<std::mutex> lock(g_guards_mutex);
  if (g_guards++ == 0) installHandlers();
}

SignalGuard::~SignalGuard() {
  std::lock_guard<std::mutex> lock(g_guards_mutex);
  if (--g_guards == 0) restoreHandlers();
}

TempDir::TempDir() {
  std::error_code ec;
  std::filesystem::path base = std::filesystem::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string pattern = (base / "regscope-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw Error("cannot create a temporary directory in " + base.string());
  path_ = pattern;
  // mkdtemp makes it 0700 whatever the umask: nobody else may plant files in it.
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace regscope
