// Claims on filling a shared cache entry (include/regscope/cache/fill_lock.h).
#include "regscope/cache/fill_lock.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
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

// What a claim file says: "HOST PID START [heartbeat]".
struct ClaimFields {
  std::string host, start;
  long pid = 0;
  bool heartbeat = false;
};

ClaimFields readClaim(const std::string &path) {
  ClaimFields c;
  if (std::optional<std::string> text = readFileIfExists(path)) {
    std::istringstream in(*text);
    std::string word;
    in >> c.host >> c.pid >> c.start >> word;
    c.heartbeat = word == "heartbeat";
  }
  return c;
}

// Seconds since the claim was made or last renewed (its mtime).
double ageOf(const struct stat &st) { return std::difftime(std::time(nullptr), st.st_mtime); }

}  // namespace

std::string claimText() {
  return hostName() + " " + std::to_string(getpid()) + " " + startTimeOf(getpid()) + " heartbeat";
}

namespace {

// A claim's own staleness by its age: a renewing one after kClaimStaleSeconds
// without renewal, an older regscope's after `stale_seconds`.
bool pastItsLimit(const ClaimFields &c, double age, long stale_seconds) {
  return age > static_cast<double>(c.heartbeat ? kClaimStaleSeconds : stale_seconds);
}

}  // namespace

ClaimState claimState(const std::string &path, long stale_seconds) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) return ClaimState::Free;
  const double age = ageOf(st);
  const ClaimFields claim = readClaim(path);
  const std::string &host = claim.host, &start = claim.start;
  const long pid = claim.pid;
  if (!host.empty() && host == hostName() && pid > 0) {
    // Ours to check: gone, or the pid reused by a later process, is stale.
    if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return ClaimState::Stale;
    const std::string now = startTimeOf(pid);
    if (!start.empty() && !now.empty() && now != start) return ClaimState::Stale;
    return ClaimState::Alive;
  }
  return pastItsLimit(claim, age, stale_seconds) ? ClaimState::Stale : ClaimState::Alive;
}

long FillClaim::staleSecondsFromEnvironment() {
  if (const char *value = std::getenv("REGSCOPE_CACHE_LOCK_STALE_SECONDS")) {
    char *end = nullptr;
    const long seconds = std::strtol(value, &end, 10);
    if (end && *end == '\0' && seconds > 0) return seconds;
  }
  return 600;
}

FillClaim::FillClaim(const std::string &entry_path, long stale_seconds, long wait_seconds,
                     const std::function<void(const std::string &)> &announce)
    : path_(entry_path + ".lock") {
  bool announced = false;
  // A renewing claim whose mtime we watched stand still for kClaimStaleSeconds is
  // stale even where the two hosts' clocks disagree (its age would say otherwise).
  struct timespec seen_mtime {};
  auto seen_since = std::chrono::steady_clock::now();
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
      if (held_) heartbeat_ = std::thread([this] { renewWhileHeld(); });
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
    ClaimState state = claimState(path_, stale_seconds);
    struct stat claim_stat {};
    const ClaimFields claim = readClaim(path_);
    if (state == ClaimState::Alive && lstat(path_.c_str(), &claim_stat) == 0) {
      const auto now = std::chrono::steady_clock::now();
      if (claim_stat.st_mtim.tv_sec != seen_mtime.tv_sec || claim_stat.st_mtim.tv_nsec != seen_mtime.tv_nsec) {
        seen_mtime = claim_stat.st_mtim;
        seen_since = now;
      } else if (claim.heartbeat && claim.host != hostName() &&
                 now - seen_since >= std::chrono::seconds(kClaimStaleSeconds)) {
        state = ClaimState::Stale;  // not renewed while we watched: its holder stopped
      }
      if (announce && !announced) {
        announced = true;
        const long age = std::max(0L, static_cast<long>(ageOf(claim_stat)));
        announce("cache entry " + std::filesystem::path(entry_path).filename().string() + " is being filled by " +
                 (claim.host.empty() ? std::string("an unreadable claim") : claim.host) +
                 (claim.pid > 0 ? " pid " + std::to_string(claim.pid) : "") + " (claim " + std::to_string(age) +
                 " s old" +
                 (claim.heartbeat ? "; stale after " + std::to_string(kClaimStaleSeconds) + " s without renewal"
                                  : "; no heartbeat: stale after " + std::to_string(stale_seconds) + " s") +
                 "): waiting for it, at most " + std::to_string(wait_seconds) + " s");
      }
    }
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

void FillClaim::renewWhileHeld() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_.wait_for(lock, std::chrono::seconds(kClaimHeartbeatSeconds), [this] { return stopping_; }))
    utimensat(AT_FDCWD, path_.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);  // now: the holder still works
}

FillClaim::~FillClaim() {
  if (heartbeat_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    stop_.notify_all();
    heartbeat_.join();
  }
  if (held_) unlink(path_.c_str());
}

}  // namespace regscope
