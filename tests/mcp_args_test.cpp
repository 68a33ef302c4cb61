// regscope mcp's rules that need no client (src/mcp/server.cpp): which
// arguments a tool takes, which paths it may read, and the per-call cancel
// flag that stops one call's program. The protocol through real clients:
// tests/mcp/mcp-clients.mjs (ctest Mcp.RealClients).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "regscope/mcp/server.h"
#include "regscope/support/process.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct Roots {
  TempDir dir;
  std::string root, sibling;
  Roots() {
    root = dir.path() + "/repo";
    sibling = dir.path() + "/repo-other";  // shares the root's name as a prefix
    fs::create_directories(root);
    fs::create_directories(sibling);
    std::ofstream(root + "/a.s") << "";
    std::ofstream(sibling + "/b.s") << "";
    std::ofstream(dir.path() + "/outside.s") << "";
    fs::create_symlink(dir.path() + "/outside.s", root + "/link.s");
    fs::create_symlink(sibling + "/b.s", root + "/link-sibling.s");
    std::ofstream(root + "/cc") << "";
  }
  std::vector<std::string> roots() const { return canonicalRoots({root}); }
};

TEST(McpArgs, PathsUnderARootAreResolved) {
  const Roots r;
  const std::vector<std::string> argv = mcpToolArgv("parse", {{"paths", {"a.s"}}}, r.roots());
  EXPECT_EQ(argv.back(), r.roots().front() + "/a.s");
}

TEST(McpArgs, ASymlinkOutOfTheRootIsRefused) {
  const Roots r;
  EXPECT_THROW(mcpToolArgv("parse", {{"paths", {r.root + "/link.s"}}}, r.roots()), McpPathError);
  EXPECT_THROW(mcpToolArgv("parse", {{"paths", {"../outside.s"}}}, r.roots()), McpPathError);
}

TEST(McpArgs, ADirectorySharingTheRootsNameAsAPrefixIsOutside) {
  const Roots r;
  EXPECT_THROW(mcpToolArgv("parse", {{"paths", {r.sibling + "/b.s"}}}, r.roots()), McpPathError);
  EXPECT_THROW(mcpToolArgv("parse", {{"paths", {"link-sibling.s"}}}, r.roots()), McpPathError);
}

TEST(McpArgs, ACompilerPathMustBeUnderARootAndABareNameIsSearched) {
  const Roots r;
  EXPECT_THROW(mcpToolArgv("analyze", {{"files", {"a.s"}}, {"compiler", "/bin/sh"}}, r.roots()), McpPathError);
  const std::vector<std::string> argv = mcpToolArgv("analyze", {{"files", {"a.s"}}, {"compiler", "hipcc"}}, r.roots());
  EXPECT_NE(std::find(argv.begin(), argv.end(), "--compiler=hipcc"), argv.end());
}

TEST(McpArgs, TheInputSchemaIsEnforced) {
  const Roots r;
  EXPECT_THROW(mcpToolArgv("nosuch", json::object(), r.roots()), McpArgumentError);
  EXPECT_THROW(mcpToolArgv("parse", json::object(), r.roots()), McpArgumentError);  // paths is required
  EXPECT_THROW(mcpToolArgv("occupancy", {{"arch", "gfx90a"}, {"vgprs", "96"}}, r.roots()), McpArgumentError);
  EXPECT_THROW(mcpToolArgv("occupancy", {{"arch", "gfx90a"}, {"vgprs", -1}}, r.roots()), McpArgumentError);
  EXPECT_THROW(mcpToolArgv("occupancy", {{"arch", "gfx90a"}, {"bogus", 1}}, r.roots()), McpArgumentError);
}

// Issue 31, item 7: the gate tool's min_occupancy is a whole number or "N%",
// passed to regscope gate as given (which checks the percent: one line, exit 2).
TEST(McpArgs, MinOccupancyTakesANumberOrAPercent) {
  const Roots r;
  for (const json &value : {json(4), json("50%")}) {
    const std::vector<std::string> argv =
        mcpToolArgv("gate", {{"files", {"a.s"}}, {"min_occupancy", value}}, r.roots());
    const std::string flag = "--min-occupancy=" + (value.is_string() ? value.get<std::string>() : value.dump());
    EXPECT_NE(std::find(argv.begin(), argv.end(), flag), argv.end()) << flag;
  }
  EXPECT_THROW(mcpToolArgv("gate", {{"files", {"a.s"}}, {"min_occupancy", 0}}, r.roots()), McpArgumentError);
  EXPECT_THROW(mcpToolArgv("gate", {{"files", {"a.s"}}, {"min_occupancy", ""}}, r.roots()), McpArgumentError);
  EXPECT_THROW(mcpToolArgv("gate", {{"files", {"a.s"}}, {"min_occupancy", true}}, r.roots()), McpArgumentError);
  const json schema = mcpTools();
  for (const json &tool : schema)
    if (tool["name"] == "gate")
      EXPECT_EQ(tool["inputSchema"]["properties"]["min_occupancy"]["type"], json({"integer", "string"}));
}

TEST(McpArgs, ValuesCannotBecomeOptions) {
  const Roots r;
  const std::vector<std::string> argv =
      mcpToolArgv("explain", {{"files", {"a.s"}}, {"kernel", "--output=/tmp/x"}, {"flags", {"-O1"}}}, r.roots());
  EXPECT_NE(std::find(argv.begin(), argv.end(), "--kernel=--output=/tmp/x"), argv.end());
  EXPECT_EQ(argv[argv.size() - 2], "--");  // flags only after --
}

TEST(McpCancel, ACallsFlagEndsItsProgramAndNoOther) {
  std::atomic<bool> cancelled{false}, other{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancelled = true;
  });
  const auto start = std::chrono::steady_clock::now();
  bool thrown = false;
  std::thread bystander([&] {  // another call's program, on its own flag: runs to its end
    const CancelScope scope(&other);
    EXPECT_EQ(runCaptured({"sh", "-c", "sleep 1; exit 3"}).exit_code, 3);
  });
  try {
    const CancelScope scope(&cancelled);
    runCaptured({"sleep", "30"});
  } catch (const CancelledError &) {
    thrown = true;
  }
  canceller.join();
  bystander.join();
  EXPECT_TRUE(thrown);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

}  // namespace
}  // namespace regscope
