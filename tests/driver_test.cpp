// The driver's building blocks: temp dirs, processes, finding the compiler.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "regscope/backends/amd/driver.h"
#include "regscope/driver/driver.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

TEST(TempDir, IsPrivateAndRemovedWithItsContents) {
  std::string path;
  {
    TempDir dir;
    path = dir.path();
    EXPECT_TRUE(fs::is_directory(path));
    EXPECT_EQ(fs::status(path).permissions() & fs::perms::others_all, fs::perms::none);
    fs::create_directories(path + "/a/b");
    std::ofstream(path + "/a/b/file.s") << "x";
  }
  EXPECT_FALSE(fs::exists(path));
}

TEST(TempDir, RemovedWhenAnErrorUnwinds) {
  std::string path;
  try {
    TempDir dir;
    path = dir.path();
    throw Error("boom");
  } catch (const Error &) {
  }
  EXPECT_FALSE(path.empty());
  EXPECT_FALSE(fs::exists(path));
}

TEST(RunProcess, ExitCodesOutputAndMissingPrograms) {
  TempDir dir;
  const std::string out = dir.path() + "/o", err = dir.path() + "/e";
  EXPECT_EQ(runProcess({"/bin/sh", "-c", "echo hi; echo oops >&2; exit 3"}, dir.path(), out, err), 3);
  EXPECT_EQ(test::readText(out), "hi\n");
  EXPECT_EQ(test::readText(err), "oops\n");
  // argv is not a shell: metacharacters arrive verbatim.
  EXPECT_EQ(runProcess({"/bin/echo", "a;b", "$HOME"}, dir.path(), out, err), 0);
  EXPECT_EQ(test::readText(out), "a;b $HOME\n");
  // It runs in the given directory.
  EXPECT_EQ(runProcess({"/bin/pwd"}, dir.path(), out, err), 0);
  EXPECT_EQ(test::readText(out), fs::canonical(dir.path()).string() + "\n");
  EXPECT_THROW(runProcess({"/no/such/program"}, dir.path(), out, err), Error);
}

TEST(FindCompiler, ExplicitPathsMustBeExecutables) {
  EXPECT_THROW(findHipCompiler("/no/such/hipcc"), Error);
  EXPECT_EQ(findHipCompiler("/bin/sh"), "/bin/sh");
  try {
    findHipCompiler("/no/such/hipcc");
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("/no/such/hipcc"), std::string::npos);
  }
}

}  // namespace
}  // namespace regscope
