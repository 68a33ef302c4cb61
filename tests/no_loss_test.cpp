// Issue 21, items 7-10: nothing the user has is lost or left half-written.
// Baseline updates under a lock, baseline keys, output that cannot be
// written, signals.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <thread>

#include "regscope/gate/gate.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

BaselineEntry entry(const std::string &source, const std::string &name, int registers) {
  BaselineEntry e;
  e.file = e.source = source;
  e.name = e.demangled = name;
  e.arch = "gfx90a";
  e.occupancy = e.occupancy_by_registers = 8;
  e.registers = registers;
  return e;
}

// Eight processes update one baseline at once, each adding its own source's
// entry. Each waits 50 ms between its read and its write, so without the lock
// every one would read the file before any wrote it, and all but one entry
// would be lost (as eight `gate kN.hip --update-baseline` did: 2 to 4 of 8 kept).
TEST(BaselineLock, EightConcurrentUpdatesKeepEightEntries) {
  TempDir dir;
  const std::string path = dir.path() + "/b.json";
  writeFileAtomically(path, baselineToText({entry("old.hip", "old", 10)}));
  std::vector<pid_t> children;
  for (int i = 0; i < 8; ++i) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int status = 0;
      try {
        updateBaselineFile(path, [i](const Baseline &now) {
          Baseline updated = now;
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
          updated.push_back(entry("k" + std::to_string(i) + ".hip", "k" + std::to_string(i), 20 + i));
          return updated;
        });
      } catch (...) {
        status = 1;
      }
      _exit(status);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  const Baseline after = baselineFromText(readFile(path), path);
  ASSERT_EQ(after.size(), 9u);  // the old entry and the eight new ones
  std::set<std::string> names;
  for (const BaselineEntry &e : after) names.insert(e.name);
  EXPECT_EQ(names, (std::set<std::string>{"old", "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"}));
  EXPECT_FALSE(fs::exists(path + ".lock"));                                // the lock file leaves with the last holder
  for (const fs::directory_entry &e : fs::directory_iterator(dir.path()))  // no temporary file either
    EXPECT_EQ(e.path().filename(), "b.json");
}

// Through a symbolic link the lock is the target's: a process naming the
// link and one naming the file wait for each other.
TEST(BaselineLock, ALinkAndItsTargetTakeOneLock) {
  TempDir dir;
  fs::create_directory(dir.path() + "/real");
  fs::create_directory_symlink(dir.path() + "/real", dir.path() + "/link");
  const FileLock held(dir.path() + "/link/b.json");
  EXPECT_EQ(held.path(), dir.path() + "/real/b.json.lock");
}

TEST(BaselineLock, AnUnwritableDirectoryIsAnError) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes anywhere";
  TempDir dir;
  fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec);
  try {
    FileLock lock(dir.path() + "/b.json");
    ADD_FAILURE() << "locked in a read-only directory";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("cannot lock " + dir.path() + "/b.json"), std::string::npos) << e.what();
  }
  fs::permissions(dir.path(), fs::perms::owner_all);
}

TEST(Baseline, TwoEntriesForOneKeyAreAnErrorNamingIt) {
  // The second entry's 128 registers would have hidden the first's regression.
  const std::string text = baselineToText({entry("k.hip", "_Z4heavyPf", 64), entry("k.hip", "_Z4heavyPf", 128)});
  try {
    baselineFromText(text, "b.json");
    ADD_FAILURE() << "a baseline with a duplicate entry was read";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()),
              "b.json: two entries for kernel _Z4heavyPf (gfx90a) of k.hip; keep one (regenerate it with regscope "
              "baseline)");
  }
  // One name on two archs, or in two sources, is two keys.
  Baseline two_archs = {entry("k.hip", "_Z4heavyPf", 64), entry("k.hip", "_Z4heavyPf", 64)};
  two_archs[1].arch = "gfx942";
  EXPECT_NO_THROW(baselineFromText(baselineToText(two_archs), "b.json"));
  EXPECT_NO_THROW(baselineFromText(baselineToText({entry("a.hip", "k", 1), entry("b.hip", "k", 1)}), "b.json"));
}

TEST(AtomicWrite, AFullDeviceIsAnErrorAndTheOldFileStays) {
  // /dev/full is written through (it is a device); every write fails with ENOSPC.
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  try {
    writeFileAtomically("/dev/full", "report\n");
    ADD_FAILURE() << "a write to /dev/full succeeded";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()), "cannot write /dev/full: No space left on device");
  }
}

}  // namespace
}  // namespace regscope
