// The result cache shared by many machines (an NFS or Lustre directory;
// docs/sharding.md, "A shared cache"): a claim on filling one entry, so that
// two processes that miss the same entry at once compile it once. The claim
// is a file made with O_CREAT|O_EXCL beside the entry (KEY.lock) holding
// "host pid start-time heartbeat"; others wait for the entry while the claim
// is alive. Its holder renews the claim (its mtime) every kClaimHeartbeatSeconds.
// A claim whose holder is gone is stale and taken over: on this host when its
// process no longer runs (or the pid now belongs to a later process); from
// another host, whose processes cannot be seen, when it was not renewed for
// kClaimStaleSeconds (issue 30: a claim left by a dead host held others for up
// to 10 minutes). A claim without the heartbeat word (an older regscope's) is
// stale when older than $REGSCOPE_CACHE_LOCK_STALE_SECONDS (default 600).
// A waiter says once, on stderr, whose claim it waits for (host, pid, age). A claim never decides
// what an entry holds: entries are written to a temporary name and renamed,
// so whoever writes last leaves one whole entry, and readers check each one.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace regscope {

// The holder renews its claim this often; a renewing claim not renewed for
// kClaimStaleSeconds (five heartbeats) is stale.
inline constexpr long kClaimHeartbeatSeconds = 2;
inline constexpr long kClaimStaleSeconds = 10;

enum class ClaimState { Free, Alive, Stale };

// What the claim file at `path` says now: none, alive, or stale (its holder
// is gone on this host; from another host, not renewed for kClaimStaleSeconds
// when it renews, else older than `stale_seconds`). A file that cannot be read
// as a claim is judged by its age against `stale_seconds`.
ClaimState claimState(const std::string &path, long stale_seconds);

// This process's claim text: "HOST PID START heartbeat" (START: the process's
// start time in clock ticks since boot, /proc/self/stat's 22nd field;
// "heartbeat": the holder renews it).
std::string claimText();

class FillClaim {
 public:
  // Takes the claim on `entry_path` (its lock file is entry_path + ".lock"),
  // waiting while another's claim is alive, at most `wait_seconds`; a stale
  // claim is removed and taken. Nothing (no claim, no wait) when the
  // directory cannot be written. Returns whether it waited for another holder.
  // `announce`, when given, is told once that this process waits for another's
  // claim ("... HOST pid PID, 12 s old ...").
  FillClaim(const std::string &entry_path, long stale_seconds, long wait_seconds,
            const std::function<void(const std::string &)> &announce = {});
  ~FillClaim();
  FillClaim(const FillClaim &) = delete;
  FillClaim &operator=(const FillClaim &) = delete;
  bool held() const { return held_; }
  bool waited() const { return waited_; }

  static long staleSecondsFromEnvironment();

 private:
  void renewWhileHeld();

  std::string path_;
  bool held_ = false, waited_ = false;
  // The heartbeat: a thread that renews the claim until the destructor stops it.
  std::thread heartbeat_;
  std::mutex mutex_;
  std::condition_variable stop_;
  bool stopping_ = false;
};

}  // namespace regscope
