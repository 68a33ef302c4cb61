// Compile databases: HIP entries, and their flags made safe to run elsewhere.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "regscope/driver/driver.h"
#include "regscope/support/process.h"
#include "regscope/support/error.h"
#include "regscope/source/source.h"

namespace regscope {
namespace {

TEST(CleanFlags, AbsolutePathsNoOutputsArchsMovedOut) {
  std::vector<std::string> archs;
  std::vector<std::string> flags = cleanCompileFlags(
      {"/usr/bin/hipcc", "--offload-arch=gfx90a", "-I../include", "-isystem", "third", "-DN=64", "-O3",
       "-MD", "-MF", "k.d", "-MT", "k.o", "--offload-arch", "gfx908", "-c", "../src/k.hip", "-o", "k.o",
       "-save-temps=obj", "-std=c++17", "--rocm-path=rocm"},
      "/proj/build", "../src/k.hip", archs);
  EXPECT_EQ(archs, (std::vector<std::string>{"gfx90a", "gfx908"}));
  EXPECT_EQ(flags, (std::vector<std::string>{"-I/proj/include", "-isystem", "/proj/build/third", "-DN=64", "-O3",
                                             "-std=c++17", "--rocm-path=/proj/build/rocm"}));
}

class Database : public ::testing::Test {
 protected:
  void write(const std::string &json) { std::ofstream(dir_.path() + "/compile_commands.json") << json; }
  std::string entry(const std::string &file, const std::string &command) {
    return "{\"directory\": \"" + dir_.path() + "\", \"command\": \"" + command + "\", \"file\": \"" + file + "\"}";
  }
  TempDir dir_;
};

TEST_F(Database, OnlyHipEntriesAndFoundFromASubdirectory) {
  write("[" + entry("a.hip", "hipcc -c a.hip -o a.o") + "," + entry("host.cpp", "g++ -c host.cpp") + "," +
        entry("b.cu", "clang++ -x hip --offload-arch=gfx908 -c b.cu") + "," + entry("a.hip", "hipcc -c a.hip") + "]");
  std::filesystem::create_directories(dir_.path() + "/sub/dir");
  std::vector<SourceJob> jobs = jobsFromDatabase(dir_.path() + "/sub/dir", {});
  ASSERT_EQ(jobs.size(), 2u);  // a.hip once, b.cu by -x hip; host.cpp is not HIP
  EXPECT_EQ(jobs[0].path, dir_.path() + "/a.hip");
  EXPECT_EQ(jobs[0].compiler, "hipcc");
  EXPECT_EQ(jobs[1].path, dir_.path() + "/b.cu");
  EXPECT_EQ(jobs[1].archs, std::vector<std::string>{"gfx908"});
  EXPECT_EQ(jobs[1].flags, (std::vector<std::string>{"-x", "hip"}));
}

TEST_F(Database, RestrictToNamedFiles) {
  write("[" + entry("a.hip", "hipcc -c a.hip") + "," + entry("b.hip", "hipcc -c b.hip") + "]");
  std::vector<SourceJob> jobs = jobsFromDatabase(dir_.path() + "/compile_commands.json", {dir_.path() + "/b.hip"});
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].path, dir_.path() + "/b.hip");
  EXPECT_THROW(jobsFromDatabase(dir_.path(), {dir_.path() + "/c.hip"}), Error);
}

TEST_F(Database, NoHipEntriesOrNoDatabaseAreErrors) {
  write("[" + entry("host.cpp", "g++ -c host.cpp") + "]");
  EXPECT_THROW(jobsFromDatabase(dir_.path(), {}), Error);
  TempDir empty;
  EXPECT_THROW(jobsFromDatabase(empty.path(), {}), Error);
  EXPECT_THROW(jobsFromDatabase(empty.path() + "/nope.json", {}), Error);
}

}  // namespace
}  // namespace regscope
