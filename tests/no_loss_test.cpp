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

#include "regscope/cache/cache.h"
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
  if (geteuid() == 0) GTEST_SKIP() << "runs as root, which writes anywhere: needs a user that is not root";
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
              "b.json: two entries for kernel _Z4heavyPf (gfx90a) of k.hip; keep one of them, or delete the file and "
              "record it again with regscope baseline");
  }
  // One name on two archs, or in two sources, is two keys.
  Baseline two_archs = {entry("k.hip", "_Z4heavyPf", 64), entry("k.hip", "_Z4heavyPf", 64)};
  two_archs[1].arch = "gfx942";
  EXPECT_NO_THROW(baselineFromText(baselineToText(two_archs), "b.json"));
  EXPECT_NO_THROW(baselineFromText(baselineToText({entry("a.hip", "k", 1), entry("b.hip", "k", 1)}), "b.json"));
}

// A file named twice is one translation unit: its kernels are recorded once,
// so the baseline regscope writes is one it can read back.
TEST(Baseline, AFileNamedTwiceIsRecordedOnce) {
  Report report;
  KernelReport k;
  k.record.name = k.record.demangled = "_Z1kPi";
  k.record.arch = "gfx90a";
  k.source = k.display_file = "k.hip";
  report.kernels = {k, k};
  report.input_paths = {"k.hip", "k.hip"};
  const Baseline written = updatedBaseline({}, report, "");
  ASSERT_EQ(written.size(), 1u);
  EXPECT_NO_THROW(baselineFromText(baselineToText(written), "b.json"));
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

// Sets an environment variable for a scope, then puts back what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_)
      setenv(name_, old_->c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char *name_;
  std::optional<std::string> old_;
};

CompileJob jobIn(const TempDir &dir) {
  CompileJob job;
  job.compiler = "/bin/sh";
  job.source = dir.path() + "/k.hip";
  job.archs = {"gfx90a"};
  return job;
}

// Each of these changed what hipcc, clang or nvcc compiled while the cache
// served the old figures (15 VGPRs from the cache, 99 from a recompile).
TEST(CacheKey, TheCompilersEnvironmentIsPartOfTheKey) {
  TempDir dir, cache_dir;
  const ResultCache cache(cache_dir.path());
  const CompileJob job = jobIn(dir);
  for (const char *name : {"HIPCC_COMPILE_FLAGS_APPEND", "CPATH", "CPLUS_INCLUDE_PATH", "C_INCLUDE_PATH",
                           "HIP_PLATFORM", "ROCM_PATH", "HIP_PATH", "HIP_CLANG_PATH", "CUDA_PATH", "NVCC_PREPEND_FLAGS",
                           "NVCC_APPEND_FLAGS", "CCC_OVERRIDE_OPTIONS", "IGC_ShaderDumpEnable"}) {
    std::string before, during;
    {
      const ScopedEnv unset(name, "");  // set but empty is a value too; compare with another value
      before = cache.keyFor(job);
      const ScopedEnv set(name, "-DROWS=96");
      during = cache.keyFor(job);
    }
    EXPECT_NE(before, during) << name;
  }
  const std::string a = cache.keyFor(job);
  const ScopedEnv unrelated("REGSCOPE_TEST_UNRELATED", "1");  // an unrelated variable keeps the key
  EXPECT_EQ(cache.keyFor(job), a);
}

// hipcc is a Perl script: the clang++ it runs (beside it, or from
// $HIP_CLANG_PATH) is the compiler whose upgrade changes the figures.
TEST(CacheKey, TheCompilerADriverRunsIsPartOfTheKey) {
  TempDir dir, tools, cache_dir;
  const ResultCache cache(cache_dir.path());
  std::ofstream(tools.path() + "/hipcc") << "#!/bin/sh\n";
  std::ofstream(tools.path() + "/clang++") << "clang 15\n";
  fs::permissions(tools.path() + "/hipcc", fs::perms::owner_all);
  fs::permissions(tools.path() + "/clang++", fs::perms::owner_all);
  CompileJob job = jobIn(dir);
  job.compiler = tools.path() + "/hipcc";
  const std::string before = cache.keyFor(job);
  EXPECT_EQ(cache.keyFor(job), before);
  std::ofstream(tools.path() + "/clang++") << "clang 15, rebuilt\n";
  EXPECT_NE(cache.keyFor(job), before);
}

// ccache's direct mode misses this: a header created in an -I directory
// searched before the one the compile read it from would now be read instead.
TEST(CacheKey, AHeaderThatNowShadowsTheOneReadIsAMiss) {
  TempDir dir, cache_dir;
  const ResultCache cache(cache_dir.path());
  fs::create_directories(dir.path() + "/inc1");
  fs::create_directories(dir.path() + "/inc2/sub");
  std::ofstream(dir.path() + "/k.hip") << "#include \"sub/cfg.h\"\n";
  std::ofstream(dir.path() + "/inc2/sub/cfg.h") << "#define ROWS 2\n";
  CompileJob job = jobIn(dir);
  job.extra_flags = {"-I" + dir.path() + "/inc1", "-I", dir.path() + "/inc2"};
  EXPECT_EQ(ResultCache::includeSearch(job),
            (std::vector<std::string>{dir.path(), dir.path() + "/inc1", dir.path() + "/inc2"}));
  CachedResult result;
  result.producer = "clang 15";
  result.records.emplace_back();
  result.records.back().name = "_Z1kPf";
  const std::string key = cache.keyFor(job);
  cache.store(key, result, {dir.path() + "/k.hip", dir.path() + "/inc2/sub/cfg.h"}, ResultCache::includeSearch(job));
  ASSERT_TRUE(cache.lookup(key));
  fs::create_directories(dir.path() + "/inc1/sub");
  EXPECT_TRUE(cache.lookup(key));  // a directory alone shadows nothing
  std::ofstream(dir.path() + "/inc1/sub/cfg.h") << "#define ROWS 96\n";
  EXPECT_FALSE(cache.lookup(key)) << "served the figures of inc2/sub/cfg.h, which inc1/sub/cfg.h now shadows";
  fs::remove(dir.path() + "/inc1/sub/cfg.h");
  EXPECT_TRUE(cache.lookup(key));
  // The source's own directory comes first for quoted includes.
  std::ofstream(dir.path() + "/sub_cfg_unrelated.h") << "\n";
  EXPECT_TRUE(cache.lookup(key));
  fs::create_directories(dir.path() + "/sub");
  std::ofstream(dir.path() + "/sub/cfg.h") << "#define ROWS 96\n";
  EXPECT_FALSE(cache.lookup(key));
}

}  // namespace
}  // namespace regscope
