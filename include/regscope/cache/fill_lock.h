// The result cache shared by many machines (an NFS or Lustre directory;
// docs/sharding.md, "A shared cache"): a claim on filling one entry, so that
// two processes that miss the same entry at once compile it once. The claim
// is a file made with O_CREAT|O_EXCL beside the entry (KEY.lock) holding
// "host pid start-time"; others wait for the entry while the claim is alive.
// A claim whose holder is gone is stale and taken over: on this host when its
// process no longer runs (or the pid now belongs to a later process); from
// another host, whose processes cannot be seen, when it is older than a limit
// ($REGSCOPE_CACHE_LOCK_STALE_SECONDS, default 600). A claim never decides
// what an entry holds: entries are written to a temporary name and renamed,
// so whoever writes last leaves one whole entry, and readers check each one.
#pragma once

#include <optional>
#include <string>

namespace regscope {

enum class ClaimState { Free, Alive, Stale };

// What the claim file at `path` says now: none, alive, or stale (its holder
// is gone on this host; from another host, older than `stale_seconds`). A
// file that cannot be read as a claim is judged by its age alone.
ClaimState claimState(const std::string &path, long stale_seconds);

// This process's claim text: "HOST PID START" (START: the process's start
// time in clock ticks since boot, /proc/self/stat's 22nd field).
std::string claimText();

class FillClaim {
 public:
  // Takes the claim on `entry_path` (its lock file is entry_path + ".lock"),
  // waiting while another's claim is alive, at most `wait_seconds`; a stale
  // claim is removed and taken. Nothing (no claim, no wait) when the
  // directory cannot be written. Returns whether it waited for another holder.
  FillClaim(const std::string &entry_path, long stale_seconds, long wait_seconds);
  ~FillClaim();
  FillClaim(const FillClaim &) = delete;
  FillClaim &operator=(const FillClaim &) = delete;
  bool held() const { return held_; }
  bool waited() const { return waited_; }

  static long staleSecondsFromEnvironment();

 private:
  std::string path_;
  bool held_ = false, waited_ = false;
};

}  // namespace regscope
