// Issue 21, item 11: what regscope trusts.
//   - a .regscope.json is obeyed only when it, and the link that leads to it,
//     belongs to the user (as git's safe.directory judges a repository);
//   - compiler flags that make the compiler run someone's code (plugins, tool
//     and library places not the user's) are refused from a config file
//     unless the command line says --allow-config-plugins.
// Ownership cases chown files to another uid, which needs root; without it
// they skip and say so.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "regscope/source/config.h"
#include "regscope/source/flags.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

constexpr uid_t kOtherUid = 4242;  // nobody's: a user who is not the one running the test

void write(const fs::path &path, const std::string &text) { std::ofstream(path, std::ios::binary) << text; }

// chown/lchown to kOtherUid; false (the test skips) when this user may not.
bool giveAway(const fs::path &path, bool link = false) {
  return (link ? lchown(path.c_str(), kOtherUid, kOtherUid) : chown(path.c_str(), kOtherUid, kOtherUid)) == 0;
}

#define GIVE_AWAY_OR_SKIP(path, link)                                                                      \
  if (!giveAway(path, link))                                                                               \
  GTEST_SKIP() << "SKIP: cannot chown " << (path) << " to uid " << kOtherUid                               \
               << " (not root): the ownership cases need a file that belongs to another user"

// A repository (a .git directory ends findConfig's search) with a config.
struct Repo {
  TempDir dir;
  fs::path root = fs::path(dir.path()) / "repo";
  fs::path config = root / ".regscope.json";
  Repo() {
    fs::create_directories(root / ".git");
    fs::create_directories(root / "src");
  }
};

const char *const kConfig = R"({"version": 1, "compiler_flags": ["-include", "planted.h"]})";

// ---- item 11: whose config is obeyed

TEST(ConfigTrust, OwnFileIsUsed) {
  Repo repo;
  write(repo.config, kConfig);
  const ConfigSearch search = findConfig((repo.root / "src").string());
  ASSERT_TRUE(search.path);
  EXPECT_EQ(*search.path, repo.config.string());
  EXPECT_TRUE(search.warnings.empty());
}

TEST(ConfigTrust, OwnLinkToOwnFileIsUsed) {
  Repo repo;
  write(fs::path(repo.dir.path()) / "shared.json", kConfig);
  fs::create_symlink("../shared.json", repo.config);
  const ConfigSearch search = findConfig(repo.root.string());
  ASSERT_TRUE(search.path);
  EXPECT_EQ(*search.path, repo.config.string());
}

// Issue 21's case: another user's symbolic link to a config that is the user's
// (root's, as the test runs) made regscope resolve "-include planted.h" in that
// user's directory and compile it.
TEST(ConfigTrust, LinkOwnedByAnotherUserIsIgnored) {
  Repo repo;
  write(fs::path(repo.dir.path()) / "shared.json", kConfig);
  fs::create_symlink("../shared.json", repo.config);
  GIVE_AWAY_OR_SKIP(repo.config, true);
  const ConfigSearch search = findConfig(repo.root.string());
  EXPECT_FALSE(search.path);
  ASSERT_EQ(search.warnings.size(), 1u);
  EXPECT_EQ(search.warnings[0], "ignoring " + repo.config.string() +
                                    ": it is a symbolic link owned by another user (uid " +
                                    std::to_string(kOtherUid) + ")");
}

TEST(ConfigTrust, OwnLinkToAnotherUsersFileIsIgnored) {
  Repo repo;
  const fs::path target = fs::path(repo.dir.path()) / "shared.json";
  write(target, kConfig);
  fs::create_symlink(target, repo.config);
  GIVE_AWAY_OR_SKIP(target, false);
  const ConfigSearch search = findConfig(repo.root.string());
  EXPECT_FALSE(search.path);
  ASSERT_EQ(search.warnings.size(), 1u);
  EXPECT_NE(search.warnings[0].find("the file it links to is owned by another user (uid 4242)"), std::string::npos)
      << search.warnings[0];
}

TEST(ConfigTrust, AnotherUsersFileIsIgnored) {
  Repo repo;
  write(repo.config, kConfig);
  GIVE_AWAY_OR_SKIP(repo.config, false);
  const ConfigSearch search = findConfig(repo.root.string());
  EXPECT_FALSE(search.path);
  ASSERT_EQ(search.warnings.size(), 1u);
  EXPECT_NE(search.warnings[0].find("it is owned by another user (uid 4242)"), std::string::npos)
      << search.warnings[0];
}

TEST(ConfigTrust, FileOthersMayWriteIsIgnoredThroughALinkToo) {
  Repo repo;
  const fs::path target = fs::path(repo.dir.path()) / "shared.json";
  write(target, kConfig);
  fs::permissions(target, fs::perms::others_write, fs::perm_options::add);
  fs::create_symlink(target, repo.config);
  const ConfigSearch search = findConfig(repo.root.string());
  EXPECT_FALSE(search.path);
  ASSERT_EQ(search.warnings.size(), 1u);
  EXPECT_NE(search.warnings[0].find("others may write the file it links to"), std::string::npos)
      << search.warnings[0];
}

// ---- item 11: flags that make the compiler run someone's code

// Every spelling Clang's driver (and nvcc) accepts for a plugin.
TEST(CodeLoadingFlags, PluginsInEverySpelling) {
  const std::vector<std::vector<std::string>> spellings = {
      {"-fplugin=/p/evil.so"},
      {"-fpass-plugin=/p/evil.so"},
      {"--hipspv-pass-plugin=/p/evil.so"},
      {"-Xclang", "-load", "-Xclang", "/p/evil.so"},
      {"-Xclang", "-plugin", "-Xclang", "evil"},
      {"-Xclang", "-add-plugin", "-Xclang", "evil"},
      {"-Xclang", "-fpass-plugin=/p/evil.so"},
      {"-Xarch_device", "-fplugin=/p/evil.so"},
      {"-Xarch_host", "-fpass-plugin=/p/evil.so"},
      {"-Xarch_gfx90a", "-fplugin=/p/evil.so"},
      {"-Xopenmp-target", "-fplugin=/p/evil.so"},
      {"-Xcompiler", "-fplugin=/p/evil.so"},               // nvcc: the host compiler's flags
      {"-Xcompiler", "-O2,-fplugin=/p/evil.so"},           // nvcc splits them on commas
      {"--compiler-options=-fplugin=/p/evil.so"},
  };
  for (const std::vector<std::string> &flags : spellings) {
    const std::vector<std::string> found = codeLoadingFlags(flags);
    ASSERT_EQ(found.size(), 1u) << flags.front() << " " << flags.back();
    EXPECT_NE(found[0].find("loads a plugin into the compiler"), std::string::npos) << found[0];
  }
  EXPECT_EQ(codeLoadingFlags({"-Xclang", "-load", "-Xclang", "/p/evil.so"})[0],
            "'-Xclang -load -Xclang /p/evil.so' loads a plugin into the compiler");
}

// Where programs and device libraries come from: refused where the place is
// not the user's (or root's), or others may write it; fine where it is.
TEST(CodeLoadingFlags, ToolAndLibraryPlacesThatAreNotTheUsers) {
  TempDir dir;
  const fs::path theirs = fs::path(dir.path()) / "theirs", mine = fs::path(dir.path()) / "mine",
                 open = fs::path(dir.path()) / "open";
  fs::create_directories(theirs / "bin");
  fs::create_directories(mine / "bin");
  fs::create_directories(open / "bin");
  fs::permissions(open, fs::perms::all);  // 0777, not sticky
  auto spellings = [](const std::string &d) {
    return std::vector<std::vector<std::string>>{
        {"-B" + d},
        {"-B", d},
        {"--prefix=" + d},
        {"--prefix", d},
        {"--hip-device-lib-path=" + d},
        {"--rocm-device-lib-path=" + d},
        {"--rocm-path=" + d},
        {"--hip-path=" + d},
        {"--cuda-path=" + d},
        {"--ptxas-path=" + d + "/bin"},
        {"--gcc-toolchain=" + d},
        {"--ld-path=" + d + "/bin"},
        {"-fuse-ld=" + d + "/bin"},
        {"-ccc-install-dir", d},
        {"-Xarch_device", "--hip-device-lib-path=" + d},
        {"-ccbin", d},  // nvcc's host compiler
        {"--compiler-bindir=" + d},
    };
  };
  for (const auto &flags : spellings(mine.string())) EXPECT_TRUE(codeLoadingFlags(flags).empty()) << flags.back();
  for (const auto &flags : spellings(open.string())) {
    const std::vector<std::string> found = codeLoadingFlags(flags);
    ASSERT_EQ(found.size(), 1u) << flags.back();
    EXPECT_NE(found[0].find("others may write " + open.string()), std::string::npos) << found[0];
  }
  for (const auto &flags : spellings("/nonexistent/rocm")) EXPECT_EQ(codeLoadingFlags(flags).size(), 1u) << flags.back();
  if (!giveAway(theirs) || !giveAway(theirs / "bin"))
    GTEST_SKIP() << "SKIP: cannot chown to uid " << kOtherUid << " (not root): the unowned-place cases need it";
  for (const auto &flags : spellings(theirs.string())) {
    const std::vector<std::string> found = codeLoadingFlags(flags);
    ASSERT_EQ(found.size(), 1u) << flags.back();
    EXPECT_NE(found[0].find("belongs to another user (uid 4242)"), std::string::npos) << found[0];
  }
}

TEST(CodeLoadingFlags, OrdinaryFlagsAndSystemPlacesPass) {
  EXPECT_TRUE(codeLoadingFlags({"-O3", "-DN=64", "-I", "/usr/include", "-include", "/usr/include/stdio.h",
                                "--offload-arch=gfx90a", "-mllvm", "-amdgpu-early-inline-all=true", "-fuse-ld=lld",
                                "-Xclang", "-fno-cuda-host-device-constexpr", "-ffast-math", "-Wl,-O1"})
                  .empty());
  EXPECT_TRUE(codeLoadingFlags({"-B/usr/bin", "--rocm-path=/usr"}).empty());  // root's
}

TEST(CodeLoadingFlags, ConfigRefusesThemUnlessAllowed) {
  TempDir dir;
  const std::string path = dir.path() + "/.regscope.json";
  const std::string text = R"({"version": 1, "compiler_flags": ["-O3", "-Xclang", "-load", "-Xclang", "evil.so"]})";
  try {
    configFromText(text, path);
    FAIL() << "a config's -Xclang -load was obeyed";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()),
              path + ": compiler_flags: '-Xclang -load -Xclang evil.so' loads a plugin into the compiler; a config "
                     "file may not choose code for the compiler to run unless the command line says "
                     "--allow-config-plugins");
  }
  const Config allowed = configFromText(text, path, /*allow_code_loading=*/true);
  EXPECT_EQ(allowed.compiler_flags.size(), 5u);
  // A response file is read first: its plugin is found too.
  write(dir.path() + "/flags.rsp", "-fplugin=/p/evil.so\n");
  EXPECT_THROW(configFromText(R"({"version": 1, "compiler_flags": ["@flags.rsp"]})", path), Error);
}

}  // namespace
}  // namespace regscope
