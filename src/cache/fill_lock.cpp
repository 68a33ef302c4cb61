// Claims on filling a shared cache entry (include/regscope/cache/fill_lock.h).
#include "regscope/cache/fill_lock.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"

namespace regscope {
namespace {

std::string hostName() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown-host";
  return name;
}

// A process's start time (clock ticks since boot), or "" when it does not run.
std::string startTimeOf(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t close = text.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos) return "";
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i)
    if (i == 22) return field;
  return "";
}

}  // namespace

std::string claimText() { return hostName() + " " + std::to_string(getpid()) + " " + startTimeOf(getpid()); }

ClaimState claimState(const std::string &path, long stale_seconds) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) return ClaimState::Free;
  const double age = std::difftime(std::time(nullptr), st.st_mtime);
  std::string host, start;
  long pid = 0;
  if (std::optional<std::string> text = readFileIfExists(path)) {
    std::istringstream in(*text);
    in >> host >> pid >> start;
  }
  if (!host.empty() && host == hostName() && pid > 0) {
    // Ours to check: gone, or the pid reused by a later process, is stale.
    if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return ClaimState::Stale;
    const std::string now = startTimeOf(pid);
    if (!start.empty() && !now.empty() && now != start) return ClaimState::Stale;
    return ClaimState::Alive;
  }
  return age > static_cast<double>(stale_seconds) ? ClaimState::Stale : ClaimState::Alive;
}

long FillClaim::staleSecondsFromEnvironment() {
  if (const char *value = std::getenv("REGSCOPE_CACHE_LOCK_STALE_SECONDS")) {
    char *end = nullptr;
    const long seconds = std::strtol(value, &end, 10);
    if (end && *end == '\0' && seconds > 0) return seconds;
  }
  return 600;
}

FillClaim::FillClaim(const std::string &entry_path, long stale_seconds, long wait_seconds)
    : path_(entry_path + ".lock") {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wait_seconds);
  const std::string text = claimText() + "\n";
  bool made_directory = false;
  // Only in a cache directory regscope trusts (the user's or root's, writable by no one else), as store() writes.
  struct stat dir {};
  const std::string dir_path = std::filesystem::path(entry_path).parent_path().string();
  if (lstat(dir_path.c_str(), &dir) == 0 &&
      (!S_ISDIR(dir.st_mode) || (dir.st_uid != getuid() && dir.st_uid != 0) || (dir.st_mode & (S_IWGRP | S_IWOTH))))
    return;
  for (;;) {
    const int fd = open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd >= 0) {
      const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
      close(fd);
      held_ = written;
      if (!written) unlink(path_.c_str());
      return;
    }
    if (errno == ENOENT && !made_directory) {  // the first use of the cache: made private, as store() makes it
      made_directory = true;
      const std::filesystem::path dir = std::filesystem::path(entry_path).parent_path();
      std::error_code ec;
      std::filesystem::create_directories(dir.parent_path(), ec);
      if (mkdir(dir.c_str(), 0700) == 0) chmod(dir.c_str(), 0700);
      continue;
    }
    if (errno != EEXIST) return;  // an unwritable cache: no claim, the compile goes on
    const ClaimState state = claimState(path_, stale_seconds);
    if (state == ClaimState::Stale) {
      // Take it over: rename the stale claim away first, so that of two takers only one removes it.
      const std::string aside = path_ + ".stale." + std::to_string(getpid());
      if (std::rename(path_.c_str(), aside.c_str()) == 0) {
        // Another taker may have replaced the stale claim with its own between our look and our
        // rename: an alive claim goes back (link fails if a third claim is there already).
        if (claimState(aside, stale_seconds) == ClaimState::Alive) link(aside.c_str(), path_.c_str());
        unlink(aside.c_str());
      }
      continue;
    }
    if (state == ClaimState::Free) continue;
    // Alive: wait for its holder to write the entry (the caller looks it up again).
    waited_ = true;
    struct stat entry {};
    if (lstat(entry_path.c_str(), &entry) == 0 || std::chrono::steady_clock::now() >= deadline) return;
    throwIfInterrupted();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

FillClaim::~FillClaim() {
  if (held_) unlink(path_.c_str());
}

}  // namespace regscope
