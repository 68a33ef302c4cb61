// Libraries and environments as input (issue 31 item 3): a site-packages tree
// is walked as a build tree, each library read once (a libx.so -> libx.so.2
// link is not read twice), with a summary line per library; --kernel,
// --exclude and --top select from the report before any view. Real files:
// fixtures/ccob-clang-19/libprobe-ccob.so (a .so with a compressed AMD bundle,
// clang-offload-bundler-19) and fixtures/cubin/cubin_probe.exe (nvcc 12/13).
#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "regscope/pipeline/analyze.h"
#include "regscope/pipeline/parse_tree.h"
#include "regscope/report/said_once.h"
#include "regscope/report/select.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using namespace test;

class WheelTree : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("regscope-wheel-tree-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    site_ = root_ / "lib" / "python3.11" / "site-packages";
    fs::create_directories(site_ / "torch" / "lib");
    fs::create_directories(site_ / "mypkg" / "_ops");
    hip_ = site_ / "torch" / "lib" / "libtorch_hip.so.2.5";
    cuda_ = site_ / "mypkg" / "_ops" / "_C.cpython-311-x86_64-linux-gnu.so";
    fs::copy_file(sourcePath("fixtures/ccob-clang-19/libprobe-ccob.so"), hip_);
    fs::create_symlink("libtorch_hip.so.2.5", site_ / "torch" / "lib" / "libtorch_hip.so");
    fs::copy_file(sourcePath("fixtures/cubin/cubin_probe.exe"), cuda_);
    std::ofstream(site_ / "mypkg" / "__init__.py") << "from ._ops import _C\n";
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_, site_, hip_, cuda_;
};

TEST_F(WheelTree, EachLibraryReadOnceWithASummaryLine) {
  ParsedInputs tree = parseInputs({root_.string()}, {});
  ASSERT_TRUE(tree.report.errors.empty()) << tree.report.errors.front().message;
  EXPECT_EQ(tree.walk.linked_files, 1u);  // libtorch_hip.so -> libtorch_hip.so.2.5
  const Report named = parseArtifacts({hip_.string(), cuda_.string()}, "", {});
  ASSERT_FALSE(named.kernels.empty());
  EXPECT_EQ(tree.report.kernels.size(), named.kernels.size());  // not twice through the link
  addLibrarySummaries(tree.report);
  // Each library's line counts what naming it alone gives.
  for (const fs::path &library : {hip_, cuda_}) {
    const Report alone = parseArtifacts({library.string()}, "", {});
    std::set<std::string> kernels, archs;
    for (const KernelReport &k : alone.kernels) {
      kernels.insert(k.record.name);
      archs.insert(k.record.arch);
    }
    const std::string expected_start = library.string() + ": " + std::to_string(kernels.size()) +
                                       (kernels.size() == 1 ? " kernel, " : " kernels, ") +
                                       std::to_string(archs.size()) + (archs.size() == 1 ? " arch (" : " archs (");
    int lines = 0;
    for (const std::string &note : tree.report.notes) lines += note.rfind(expected_start, 0) == 0;
    EXPECT_EQ(lines, 1) << expected_start;
  }
}

TEST_F(WheelTree, KernelExcludeAndTopSelectFromTheReport) {
  const Report all = parseInputs({root_.string()}, {}).report;
  ASSERT_GT(all.kernels.size(), 4u);
  auto names = [](const Report &r) {
    std::vector<std::string> out;
    for (const KernelReport &k : r.kernels) out.push_back(k.record.demangled);
    return out;
  };
  Report kept = all;
  selectKernels(kept, {"heavy", "", 0});
  std::size_t want = 0;
  for (const std::string &n : names(all)) want += std::regex_search(n, std::regex("heavy"));
  ASSERT_GT(want, 0u);
  EXPECT_EQ(kept.kernels.size(), want);
  for (const std::string &n : names(kept)) EXPECT_NE(n.find("heavy"), std::string::npos) << n;
  EXPECT_EQ(kept.notes.back(), "showing " + std::to_string(want) + " of " + std::to_string(all.kernels.size()) +
                                   " kernels (--kernel 'heavy')");
  Report excluded = all;
  selectKernels(excluded, {"", "^(agpr|lds)_heavy", 0});
  EXPECT_EQ(excluded.kernels.size(), all.kernels.size() - want);
  // --top: the worst first. agpr_heavy cannot launch (1024 threads, too many VGPRs): it leads.
  Report top = all;
  selectKernels(top, {"", "", 3});
  ASSERT_EQ(top.kernels.size(), 3u);
  EXPECT_EQ(top.kernels[0].summary.limiter, Limiter::Invalid);
  for (std::size_t i = 1; i < top.kernels.size(); ++i) EXPECT_FALSE(hurtsMore(top.kernels[i], top.kernels[i - 1])) << i;
  // Every kernel left out hurts no more than the last one shown.
  std::size_t ranked_below = 0;
  for (const KernelReport &k : all.kernels) ranked_below += !hurtsMore(k, top.kernels.back());
  EXPECT_GE(ranked_below, all.kernels.size() - 3);
  EXPECT_THROW(checkSelection({"(unclosed", "", 0}), Error);
  EXPECT_THROW(checkSelection({"", "[z-a]", 0}), Error);
}

TEST_F(WheelTree, CliSaysWhatTheFilterHidAndABadRegexIsOneLineExitTwo) {
  const TempDir tmp, cache;
  RunResult bad = runRegscope({"parse", root_.string(), "--kernel", "(oops"}, root_.string(), tmp.path(), cache.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--kernel '(oops' is not a valid regular expression"), std::string::npos) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  for (const char *format : {"text", "json", "csv", "markdown", "sarif"}) {
    RunResult r = runRegscope({"parse", root_.string(), "--top", "2", "--format", format}, root_.string(), tmp.path(),
                              cache.path());
    EXPECT_EQ(r.exit_code, 0) << format << r.err;
    EXPECT_EQ(r.out.find("private_array"), std::string::npos) << format;  // ranked below the top 2
    EXPECT_NE(r.out.find("agpr_heavy"), std::string::npos) << format;
  }
  RunResult json = runRegscope({"parse", root_.string(), "--top", "2", "--format", "json"}, root_.string(), tmp.path(),
                               cache.path());
  EXPECT_NE(json.out.find("showing 2 of "), std::string::npos);
}

// Said once (issue 31 item 8): fixtures/triton/cache-sm_90 (Triton 3.x, H100)
// has 6 entries, each a cubin, each with the same cause: one line with the count.
TEST(SaidOnce, ACauseSharedByManyIsOneLineWithTheCountAndTheFirstNames) {
  const std::vector<std::string> lines =
      saidOnce({"a.cubin: spills unknown", "b.cubin: spills unknown", "x.o: other", "c.cubin: spills unknown",
                "d.cubin: spills unknown", "b.cubin: spills unknown"});
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "a.cubin, b.cubin, c.cubin and 1 more (4 in all): spills unknown");
  EXPECT_EQ(lines[1], "x.o: other");
  EXPECT_EQ(saidOnce({"only: once"}), std::vector<std::string>{"only: once"});
}

TEST(SaidOnce, TritonCacheOfManyCubinsSaysTheSpillCauseOnceInParseGateAndBaseline) {
  const TempDir tmp, cache, out;
  const std::string dir = sourcePath("fixtures/triton/cache-sm_90");
  std::size_t entries = 0;
  for (const auto &e : fs::directory_iterator(dir)) entries += e.is_directory();
  ASSERT_GT(entries, 1u);
  const std::vector<std::vector<std::string>> runs = {
      {"parse", dir},
      {"gate", dir, "--min-occupancy", "1", "--allow-unknown"},
      {"baseline", dir, "--allow-unknown", "-o", out.path() + "/b.json"}};
  for (const std::vector<std::string> &args : runs) {
    RunResult r = runRegscope(args, out.path(), tmp.path(), cache.path());
    std::size_t lines = 0, at = 0;
    const std::string cause = "spill stores and loads are not recorded in a cubin";
    while ((at = r.err.find(cause, at)) != std::string::npos) ++lines, at += cause.size();
    EXPECT_EQ(lines, 1u) << args[0] << "\n" << r.err;
    EXPECT_NE(r.err.find("(" + std::to_string(entries) + " in all): " + cause), std::string::npos) << args[0] << "\n"
                                                                                                   << r.err;
  }
}

}  // namespace
}  // namespace regscope
