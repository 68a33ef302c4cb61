// Issue 21, items 11 and 12: what regscope trusts and what it prints.
//   - a .regscope.json is obeyed only when it, and the link that leads to it,
//     belongs to the user (as git's safe.directory judges a repository);
//   - compiler flags that make the compiler run someone's code (plugins, tool
//     and library places not the user's) are refused from a config file
//     unless the command line says --allow-config-plugins;
//   - names and paths from the input reach no terminal or CI log raw: one
//     escaping function per output context (support/escape.h), applied by the
//     writers, checked on crafted copies of real hipcc 5.2.3 output.
// Ownership cases chown files to another uid, which needs root; without it
// they skip and say so.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "regscope/gate/rules.h"
#include "regscope/source/config.h"
#include "regscope/source/flags.h"
#include "regscope/support/error.h"
#include "regscope/support/escape.h"
#include "regscope/support/process.h"
#include "regscope/views/view.h"
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

#define GIVE_AWAY_OR_SKIP(path, link)                                        \
  if (!giveAway(path, link))                                                 \
  GTEST_SKIP() << "SKIP: cannot chown " << (path) << " to uid " << kOtherUid \
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
                                    ": it is a symbolic link owned by another user (uid " + std::to_string(kOtherUid) +
                                    ")");
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
  EXPECT_NE(search.warnings[0].find("it is owned by another user (uid 4242)"), std::string::npos) << search.warnings[0];
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
  EXPECT_NE(search.warnings[0].find("others may write the file it links to"), std::string::npos) << search.warnings[0];
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
      {"-Xcompiler", "-fplugin=/p/evil.so"},      // nvcc: the host compiler's flags
      {"-Xcompiler", "-O2,-fplugin=/p/evil.so"},  // nvcc splits them on commas
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
  for (const auto &flags : spellings("/nonexistent/rocm"))
    EXPECT_EQ(codeLoadingFlags(flags).size(), 1u) << flags.back();
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
              path +
                  ": compiler_flags: '-Xclang -load -Xclang evil.so' loads a plugin into the compiler; a config "
                  "file may not choose code for the compiler to run unless the command line says "
                  "--allow-config-plugins");
  }
  const Config allowed = configFromText(text, path, /*allow_code_loading=*/true);
  EXPECT_EQ(allowed.compiler_flags.size(), 5u);
  // A response file is read first: its plugin is found too.
  write(dir.path() + "/flags.rsp", "-fplugin=/p/evil.so\n");
  EXPECT_THROW(configFromText(R"({"version": 1, "compiler_flags": ["@flags.rsp"]})", path), Error);
}

// ---- item 12: one escaping function per output context

const std::string kHostile = "k\x1b]0;pwned\x07\x1b[2J\r\xe2\x80\xae\n::error::x%,|<`";

TEST(Escape, TerminalMakesEveryControlVisible) {
  EXPECT_EQ(escape::terminal(kHostile), "k\\x1b]0;pwned\\x07\\x1b[2J\\r\\u{202E}\\n::error::x%,|<`");
  EXPECT_EQ(escape::terminal("::error::x"), "\\x3a:error::x");  // would open a line
  EXPECT_EQ(escape::terminal("  ::warning::y"), "  \\x3a:warning::y");
  EXPECT_EQ(escape::terminal("ns::k(int*)"), "ns::k(int*)");  // a C++ name stays as it is
  EXPECT_EQ(escape::terminal("\xc2\x9b"
                             "31m"),
            "\\u{009B}31m");  // C1 CSI
  EXPECT_EQ(escape::terminal("\x9b"
                             "31m"),
            "\\x9b31m");  // a lone byte that is not UTF-8
  for (const char *bidi : {"\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"})
    EXPECT_EQ(escape::terminal(bidi).rfind("\\u{20", 0), 0u) << escape::terminal(bidi);
  EXPECT_EQ(escape::terminal("scale<float> \xce\xbb"), "scale<float> \xce\xbb");  // UTF-8 text stays
  EXPECT_EQ(escape::terminalLines("a\tb\nc\rd\n::e"), "a\tb\nc\\rd\n\\x3a:e");
}

// An error message keeps the compiler's indented lines quoted under it, but a
// name's own newline cannot start a line of its own that reads as regscope's
// (issue 30: a file named "x\nregscope gate: pass.s" printed "regscope gate: pass.s: ..." alone).
TEST(Escape, AnErrorMessageKeepsOnlyIndentedLines) {
  EXPECT_EQ(escape::terminalMessage("x\nregscope gate: pass.s: no such file"),
            "x\\nregscope gate: pass.s: no such file");
  EXPECT_EQ(escape::terminalMessage("k.hip: compile failed:\n  k.hip:3: error: x\n  1 more"),
            "k.hip: compile failed:\n  k.hip:3: error: x\n  1 more");
  EXPECT_EQ(escape::terminalLines("x\nregscope gate: pass"), "x\nregscope gate: pass");  // code blocks keep lines
}

TEST(Escape, EachContext) {
  EXPECT_EQ(escape::csv(kHostile), "\"k\\x1b]0;pwned\\x07\\x1b[2J\\r\\u{202E}\\n::error::x%,|<`\"");
  EXPECT_EQ(escape::markdown(kHostile),
            "k\\\\x1b\\]0;pwned\\\\x07\\\\x1b\\[2J\\\\r\\\\u{202E}\\\\n::error::x%,\\|\\<\\`");
  EXPECT_EQ(escape::markdownCode("a`b|c"), "``a`b\\|c``");
  EXPECT_EQ(escape::xml(kHostile), "k\\x1b]0;pwned\\x07\\x1b[2J\\r\\u{202E}\\n::error::x%,|&lt;`");
  EXPECT_EQ(escape::githubData(kHostile), "k\\x1b]0;pwned\\x07\\x1b[2J%0D\\u{202E}%0A::error::x%25,|<`");
  EXPECT_EQ(escape::githubProperty("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
}

// A view with one finding about a kernel with a hostile name in a hostile file.
class HostileFindings : public View {
 public:
  Document document() const override {
    Document doc;
    doc.line(Line(kHostile));
    Table table;
    table.columns = {{"KERNEL", "kernel", false, Show::Everywhere, true}, {"ARCH", "arch"}};
    table.add({kHostile, "gfx90a"});
    doc.table(table);
    doc.notes(Notes{{kHostile}});
    doc.code(Code{"diff", "+" + kHostile + "\n"});
    return doc;
  }
  nlohmann::json toJson() const override { return {{"kernel", kHostile}}; }
  std::optional<CiReport> ci() const override {
    CiReport ci;
    ci.title = "regscope gate";
    ci.findings = {
        {kHostile + ".hip", 7, kHostile, "gfx90a", Rule::MinOccupancy, "4 < 5 for " + kHostile, Level::Error}};
    ci.cases = {{kHostile + ".hip", 7, kHostile, "gfx90a"}};
    ci.errors = {{kHostile + ".hip", "gfx90a", "hipcc failed:\n  " + kHostile}};
    ci.summary.columns = {{"kernel", "kernel", false, Show::Everywhere, false, true}, {"arch", "arch"}};
    ci.summary.add({kHostile, "gfx90a"});
    return ci;
  }
};

// No raw ESC, BEL, CR, C1 or bidirectional control; no line that a CI runner
// would take for a workflow command (it trims leading blanks), except the
// github format's own, whose data must then hold no raw line break.
void expectClean(const std::string &out, const std::string &format) {
  for (char c : out)
    if (c != '\n' && (static_cast<unsigned char>(c) < 0x20 || c == 0x7f))
      ADD_FAILURE() << format << ": raw control 0x" << std::hex << int(static_cast<unsigned char>(c)) << " in\n" << out;
  EXPECT_EQ(out.find("\xe2\x80\xae"), std::string::npos) << format;
  EXPECT_EQ(out.find("\xc2\x9b"), std::string::npos) << format;
  std::size_t begin = 0, lines = 0;
  while (begin < out.size()) {
    const std::size_t end = std::min(out.find('\n', begin), out.size());
    std::string line = out.substr(begin, end - begin);
    line.erase(0, line.find_first_not_of(" \t"));
    ++lines;
    if (format == "github")
      EXPECT_TRUE(line.rfind("::error ", 0) == 0) << "github line " << lines << ": " << line;
    else
      EXPECT_NE(line.rfind("::", 0), 0u) << format << " line " << lines << " opens a workflow command: " << line;
    begin = end + 1;
  }
}

TEST(Escape, EveryFormatOfAView) {
  for (Format format : {Format::Text, Format::Csv, Format::Markdown, Format::Github, Format::Junit}) {
    const std::string out = render(HostileFindings(), format);
    expectClean(out, formatName(format));
  }
  EXPECT_EQ(render(HostileFindings(), Format::Github),
            "::error file=k\\x1b]0;pwned\\x07\\x1b[2J%0D\\u{202E}%0A%3A%3Aerror%3A%3Ax%25%2C|<`.hip,line=7,"
            "title=regscope min-occupancy::k\\x1b]0;pwned\\x07\\x1b[2J%0D\\u{202E}%0A::error::x%25,|<` [gfx90a]: 4 < 5 "
            "for k\\x1b]0;pwned\\x07\\x1b[2J%0D\\u{202E}%0A::error::x%25,|<`\n"
            "::error file=k\\x1b]0;pwned\\x07\\x1b[2J%0D\\u{202E}%0A%3A%3Aerror%3A%3Ax%25%2C|<`.hip,title=regscope%3A "
            "not analysed::[gfx90a] hipcc failed:%0A  k\\x1b]0;pwned\\x07\\x1b[2J%0D\\u{202E}%0A::error::x%25,|<`\n");
  // Markdown: the kernel as code, the rest escaped; the diff fenced with its control made visible.
  const std::string md = render(HostileFindings(), Format::Markdown);
  EXPECT_NE(md.find("| `` k\\x1b]0;pwned\\x07\\x1b[2J\\r\\u{202E}\\n::error::x%,\\|<` `` | gfx90a |"),
            std::string::npos)
      << md;
}

// ---- item 12 end to end: crafted copies of real hipcc 5.2.3 output, every format

struct Crafted {
  TempDir cwd, tmp, cache;
  Crafted() {
    // lbm-gfx90a.s with its metadata's kernel name a YAML string holding ESC ] 0;title BEL, CR, U+202E, LF.
    std::string s = test::fixture("hipcc-5.2.3/lbm-gfx90a.s");
    const std::string name =
        "_Z6kernelPdS_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_iiiiiiiddddddddddddddd";
    const std::string line = "    .name:           " + name;
    s.replace(s.find(line), line.size(), "    .name:           \"evil\\e]0;pwned\\a\\r\\u202e\\n::error::x\"");
    write(cwd.path() + "/evil-name.s", s);
    // The remark log of the same compile, gfx90a's block only, the kernel's name holding the raw bytes
    // (a log line cannot hold LF).
    std::string log = test::fixture("hipcc-5.2.3/lbm.remarks.txt");
    std::string block;
    for (std::size_t at = 0, end; at < log.size(); at = end + 1) {
      end = std::min(log.find('\n', at), log.size());
      const std::string l = log.substr(at, end - at);
      if (block.empty() && l.find("Function Name") == std::string::npos) continue;
      if (!block.empty() && l.find("Function Name") != std::string::npos) break;
      block += l + "\n";
    }
    std::size_t at = block.find(name);
    while (at != std::string::npos) {
      block.replace(at, name.size(), "evil\x1b]0;pwned\x07\x1b[2J\r\xe2\x80\xaeoof");
      at = block.find(name);
    }
    write(cwd.path() + "/evil.remarks.txt", block);
  }
  test::RunResult run(std::vector<std::string> args) {
    return test::runRegscope(args, cwd.path(), tmp.path(), cache.path());
  }
};

TEST(Escape, CraftedAsmInEveryFormat) {
  Crafted c;
  for (const char *format : {"text", "csv", "markdown", "junit", "github"}) {
    const test::RunResult r = c.run({"parse", "evil-name.s", "--format", format});
    ASSERT_EQ(r.exit_code, 0) << format << ": " << r.err;
    expectClean(r.out, format);
    expectClean(r.err, std::string(format) + " stderr");
    if (std::string(format) == "text") {
      EXPECT_NE(r.out.find("evil\\x1b]0;pwned\\x07\\r\\u{202E}\\n::error::x"), std::string::npos) << r.out;
    }
  }
  // JSON carries the name as it is, for programs: its controls as JSON escapes, nothing raw.
  const test::RunResult json = c.run({"parse", "evil-name.s", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("evil\\u001b]0;pwned\\u0007\\r\u202e\\n::error::x"), std::string::npos) << json.out;
}

TEST(Escape, CraftedRemarkLogInEveryFormat) {
  Crafted c;
  for (const char *format : {"text", "csv", "markdown", "junit", "github"}) {
    const test::RunResult r = c.run({"parse", "evil.remarks.txt", "--arch", "gfx90a", "--format", format});
    ASSERT_EQ(r.exit_code, 0) << format << ": " << r.err;
    expectClean(r.out, format);
    expectClean(r.err, std::string(format) + " stderr");
  }
  const test::RunResult text = c.run({"parse", "evil.remarks.txt", "--arch", "gfx90a"});
  EXPECT_NE(text.out.find("evil\\x1b]0;pwned\\x07\\x1b[2J\\r\\u{202E}oof"), std::string::npos) << text.out;
}

// An error quoting the input carries no raw control, and names the file.
TEST(Escape, ErrorsNameTheFileAndCarryNoRawControl) {
  Crafted c;
  std::string s = test::fixture("hipcc-5.2.3/lbm-gfx90a.s");
  s.replace(s.find(".wavefront_size: 64"), 19, ".wavefront_size: 16");
  write(c.cwd.path() + "/w16.s", s);
  const test::RunResult r = c.run({"parse", "w16.s"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("regscope: error: w16.s: kernel kernel(double*, ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("[gfx90a]: gfx90a has no wave16 (it runs wave64)\n"), std::string::npos) << r.err;
  // A log with two blocks for the hostile kernel: the error quotes its name.
  write(c.cwd.path() + "/twice.txt",
        test::readText(c.cwd.path() + "/evil.remarks.txt") + test::readText(c.cwd.path() + "/evil.remarks.txt") + "\n");
  std::string twice = test::readText(c.cwd.path() + "/twice.txt");
  twice.replace(twice.rfind("VGPRs: "), 9, "VGPRs: 99");
  write(c.cwd.path() + "/twice.txt", twice);
  const test::RunResult e = c.run({"parse", "twice.txt", "--arch", "gfx90a"});
  EXPECT_EQ(e.exit_code, 2) << e.err;
  EXPECT_EQ(e.err.rfind("regscope: error: twice.txt: ", 0), 0u) << e.err;
  expectClean(e.err, "stderr");
}

}  // namespace
}  // namespace regscope
