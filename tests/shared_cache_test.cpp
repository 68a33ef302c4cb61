// The result cache shared by many processes and machines
// (include/regscope/cache/fill_lock.h, docs/sharding.md "A shared cache"):
// concurrent fills leave one whole entry and compile once; claims whose
// holder is gone are recognised as stale.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utime.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "binary_test.h"
#include "regscope/cache/fill_lock.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

std::string host() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

void writeClaim(const std::string &path, const std::string &text) { std::ofstream(path) << text << "\n"; }

// A pid that ran and is gone.
long deadPid() {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  return child;
}

TEST(FillClaim, AClaimOfAProcessGoneOnThisHostIsStale) {
  TempDir dir;
  const std::string lock = dir.path() + "/entry.json.lock";
  writeClaim(lock, host() + " " + std::to_string(deadPid()) + " 12345");
  EXPECT_EQ(claimState(lock, 600), ClaimState::Stale);
}

TEST(FillClaim, AClaimOfAPidNowRunningAnotherProcessIsStale) {
  TempDir dir;
  const std::string lock = dir.path() + "/entry.json.lock";
  // This process's pid with a start time it did not start at: the pid was reused.
  writeClaim(lock, host() + " " + std::to_string(getpid()) + " 1");
  EXPECT_EQ(claimState(lock, 600), ClaimState::Stale);
  writeClaim(lock, claimText());  // this process's own claim: alive
  EXPECT_EQ(claimState(lock, 600), ClaimState::Alive);
}

TEST(FillClaim, AnotherHostsClaimIsStaleOnlyPastTheLimit) {
  TempDir dir;
  const std::string lock = dir.path() + "/entry.json.lock";
  writeClaim(lock, "some-other-node.cluster 4242 99");
  EXPECT_EQ(claimState(lock, 600), ClaimState::Alive);  // its processes cannot be seen from here
  const utimbuf hour_ago{std::time(nullptr) - 3600, std::time(nullptr) - 3600};
  ASSERT_EQ(utime(lock.c_str(), &hour_ago), 0);
  EXPECT_EQ(claimState(lock, 600), ClaimState::Stale);
  EXPECT_EQ(claimState(lock, 7200), ClaimState::Alive);
  EXPECT_EQ(claimState(dir.path() + "/none.lock", 600), ClaimState::Free);
}

TEST(FillClaim, AStaleClaimIsTakenOverAndAnAliveOneWaitedFor) {
  TempDir dir;
  const std::string entry = dir.path() + "/entry.json";
  writeClaim(entry + ".lock", host() + " " + std::to_string(deadPid()) + " 7");
  {
    FillClaim claim(entry, 600, 5);
    EXPECT_TRUE(claim.held());
    EXPECT_FALSE(claim.waited());
    EXPECT_EQ(test::readText(entry + ".lock"), claimText() + "\n");
  }
  EXPECT_FALSE(fs::exists(entry + ".lock"));  // let go: removed
  // Another node's fresh claim: waited for, up to the limit, and not taken.
  writeClaim(entry + ".lock", "some-other-node.cluster 4242 99");
  const auto start = std::chrono::steady_clock::now();
  {
    FillClaim claim(entry, 600, 1);
    EXPECT_FALSE(claim.held());
    EXPECT_TRUE(claim.waited());
  }
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(900));
  EXPECT_TRUE(fs::exists(entry + ".lock"));  // still the other node's
  // The entry appearing ends the wait at once.
  std::ofstream(entry) << "{}";
  FillClaim claim(entry, 600, 30);
  EXPECT_FALSE(claim.held());
  EXPECT_TRUE(claim.waited());
}

// Issue 30: a claim left by a dead host held others for up to 600 s, silently.
// A claim made now renews itself (heartbeat); another host's renewing claim
// not renewed for kClaimStaleSeconds (10 s) is stale, one renewed 9 s ago alive.
TEST(FillClaim, AnotherHostsRenewingClaimIsStaleTenSecondsAfterItsLastRenewal) {
  TempDir dir;
  const std::string lock = dir.path() + "/entry.json.lock";
  writeClaim(lock, "some-other-node.cluster 4242 99 heartbeat");
  EXPECT_EQ(claimState(lock, 600), ClaimState::Alive);
  const auto ago = [&](long seconds) {
    const utimbuf t{std::time(nullptr) - seconds, std::time(nullptr) - seconds};
    return utime(lock.c_str(), &t) == 0;
  };
  ASSERT_TRUE(ago(9));
  EXPECT_EQ(claimState(lock, 600), ClaimState::Alive);
  ASSERT_TRUE(ago(12));
  EXPECT_EQ(claimState(lock, 600), ClaimState::Stale);
  // An older regscope's claim (no heartbeat word) keeps the long limit.
  writeClaim(lock, "some-other-node.cluster 4242 99");
  ASSERT_TRUE(ago(12));
  EXPECT_EQ(claimState(lock, 600), ClaimState::Alive);
}

TEST(FillClaim, TheHolderRenewsItsClaimAndAWaiterSaysOnceWhoseClaimItWaitsFor) {
  TempDir dir;
  const std::string entry = dir.path() + "/entry.json";
  {
    FillClaim claim(entry, 600, 5);
    ASSERT_TRUE(claim.held());
    EXPECT_NE(test::readText(entry + ".lock").find(" heartbeat"), std::string::npos);
    const utimbuf hour_ago{std::time(nullptr) - 3600, std::time(nullptr) - 3600};
    ASSERT_EQ(utime((entry + ".lock").c_str(), &hour_ago), 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(kClaimHeartbeatSeconds * 1000 + 700));
    struct stat st {};
    ASSERT_EQ(stat((entry + ".lock").c_str(), &st), 0);
    EXPECT_LT(std::difftime(std::time(nullptr), st.st_mtime), 5.0);  // renewed by its heartbeat
  }
  writeClaim(entry + ".lock", "some-other-node.cluster 4242 99 heartbeat");
  std::vector<std::string> said;
  FillClaim claim(entry, 600, 1, [&](const std::string &line) { said.push_back(line); });
  EXPECT_FALSE(claim.held());
  EXPECT_TRUE(claim.waited());
  ASSERT_EQ(said.size(), 1u);  // once, though it looked at the claim ten times
  EXPECT_NE(said[0].find("some-other-node.cluster pid 4242 (claim "), std::string::npos) << said[0];
  EXPECT_NE(said[0].find("stale after 10 s without renewal"), std::string::npos) << said[0];
}

class SharedCache : public test::BinaryWithHipcc {};

TEST_F(SharedCache, ConcurrentFillsOfOneEntryLeaveOneGoodEntryAndCompileOnce) {
  const std::string source = test::sourcePath("kernels/laplacian/laplacian.hip");
  constexpr int kProcesses = 4;
  std::vector<test::RunResult> results(kProcesses);
  std::vector<std::thread> threads;
  for (int i = 0; i < kProcesses; ++i)
    threads.emplace_back([&, i] { results[i] = run({"analyze", "-v", "--format", "csv", source}); });
  for (std::thread &t : threads) t.join();
  int compiles = 0, hits = 0;
  for (const test::RunResult &r : results) {
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, results[0].out);
    compiles += r.err.find(": compiled for ") != std::string::npos;
    hits += r.err.find(": from the result cache") != std::string::npos;
  }
  EXPECT_EQ(compiles, 1);  // the others waited for its entry
  EXPECT_EQ(hits, kProcesses - 1);
  // One entry, whole; no temporary file or claim left.
  std::vector<std::string> names;
  // (launches/ holds the launch readings of the source, pipeline/launch_cache.h: a folder of their own.)
  for (const auto &e : fs::directory_iterator(cache_->path() + "/regscope"))
    if (e.path().filename() != "launches") names.push_back(e.path().filename());
  ASSERT_EQ(names.size(), 1u) << names.front();
  EXPECT_EQ(fs::path(names[0]).extension(), ".json");
  const nlohmann::json entry = nlohmann::json::parse(test::readText(cache_->path() + "/regscope/" + names[0]));
  EXPECT_FALSE(entry.at("records").empty());
}

}  // namespace
}  // namespace regscope
