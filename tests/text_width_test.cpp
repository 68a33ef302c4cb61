// The terminal table at a width (issue 32, item 1; docs/output.md, "Fitting
// the terminal"): real fixtures rendered at 80, 100 and 200 columns through
// the binary, as a user's terminal or $COLUMNS gives them. What the grid
// leaves out is said under it, and the figures it keeps are the JSON's.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "regscope/support/process.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using test::runRegscope;
using test::RunResult;
using test::sourcePath;

// Inputs read without a compiler: both vendors' Triton caches, hipcc's LBM
// assembly, nvcc's library with two compiles of one kernel.
const std::vector<std::string> kInputs = {"fixtures/triton/cache-sm_90", "fixtures/triton/cache-gfx942",
                                          "fixtures/triton/cache-gfx950", "fixtures/hipcc-5.2.3/lbm-gfx90a.s",
                                          "fixtures/nvcc-13.0/copies/libcopies.so"};

class TextWidth : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_ = fs::temp_directory_path() / ("regscope-width-" + std::to_string(::getpid()));
    fs::create_directories(tmp_ / "cache");
  }
  void TearDown() override { fs::remove_all(tmp_); }
  RunResult parse(const std::string &input, const std::vector<std::string> &extra, const std::string &columns) {
    std::vector<std::string> args = {"parse", input};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<std::string> env;
    if (!columns.empty()) env.push_back("COLUMNS=" + columns);
    return runRegscope(args, sourcePath(""), tmp_.string(), (tmp_ / "cache").string(), env);
  }
  fs::path tmp_;
};

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The grid: from its header line to the first line that is not a row.
std::vector<std::string> grid(const std::string &text) {
  std::vector<std::string> out;
  for (const std::string &line : lines(text)) {
    if (line.rfind("KERNEL ", 0) == 0) out.clear();
    if (line.empty() || line.rfind("every row:", 0) == 0 || line.rfind("not shown", 0) == 0) {
      if (!out.empty()) break;
      continue;
    }
    out.push_back(line);
  }
  return out;
}

std::size_t widest(const std::vector<std::string> &text) {
  std::size_t w = 0;
  for (const std::string &line : text) w = std::max(w, line.size());
  return w;
}

TEST_F(TextWidth, EveryLineFitsAHundredAndTwoHundredColumns) {
  for (const std::string &input : kInputs)
    for (const std::string columns : {"100", "200"}) {
      const RunResult run = parse(input, {}, columns);
      ASSERT_EQ(run.exit_code, 0) << input << run.err;
      for (const std::string &line : lines(run.out))
        EXPECT_LE(line.size(), std::stoul(columns)) << input << " at " << columns << ":\n" << line;
    }
}

// A long last cell (agpr_heavy's "cannot launch: ..." was 212 columns at 100) wraps under its
// column, every word kept (issue 32, measured over the fixtures at 80, 100 and 200 columns).
TEST_F(TextWidth, ALongNextStepWrapsUnderItsColumn) {
  for (const std::string columns : {"80", "100"}) {
    const RunResult run = parse("fixtures/hipcc-5.2.3/probe-gfx90a.s", {}, columns);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    for (const std::string &line : lines(run.out)) EXPECT_LE(line.size(), std::stoul(columns)) << line;
    const RunResult wide = parse("fixtures/hipcc-5.2.3/probe-gfx90a.s", {"--wide"}, columns);
    // Every word of the cell, in order: the output with its line breaks and padding as single spaces
    // holds the cell as --wide prints it on one line.
    auto collapsed = [](const std::string &text) {
      std::string out;
      for (char c : text)
        if (c != ' ' && c != '\n')
          out += c;
        else if (!out.empty() && out.back() != ' ')
          out += ' ';
      return out;
    };
    const std::size_t cell = wide.out.find("cannot launch");
    ASSERT_NE(cell, std::string::npos) << wide.out;
    const std::string whole = wide.out.substr(cell, wide.out.find("  ", cell) - cell);  // to the next column
    EXPECT_NE(collapsed(run.out).find(collapsed(whole)), std::string::npos) << whole << "\n" << run.out;
  }
}

// Neither a terminal nor $COLUMNS (a pipe, a CI log): 100 columns.
TEST_F(TextWidth, APipeWithoutColumnsGetsAHundred) {
  const RunResult run = parse("fixtures/triton/cache-gfx942", {}, " ");  // COLUMNS set to nothing usable
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_LE(widest(lines(run.out)), 100u) << run.out;
  EXPECT_NE(run.out.find("not shown at 100 columns"), std::string::npos) << run.out;
}

// 80 columns: the narrowest it can be (names and paths cut, every column a
// table may lose left out), never wider than at 100. The last column wraps
// under itself when the others leave it its narrowest (AMD Triton's NEXT STEP
// ran to 98 columns when the room left was exactly that): gfx950's cache fits.
TEST_F(TextWidth, EightyColumnsIsNoWiderThanAHundred) {
  for (const std::string &line : lines(parse("fixtures/triton/cache-gfx950", {}, "80").out))
    EXPECT_LE(line.size(), 80u) << line;
  for (const std::string &input : kInputs) {
    const RunResult at80 = parse(input, {}, "80"), at100 = parse(input, {}, "100");
    EXPECT_LE(widest(grid(at80.out)), widest(grid(at100.out))) << input;
    for (const std::string &line : lines(at80.out))
      if (line.rfind("  ", 0) == 0) EXPECT_LE(line.size(), 80u) << input << ": a note wraps at the width\n" << line;
  }
}

// What leaves the grid is said once under it, true to the JSON; --wide
// prints every column.
TEST_F(TextWidth, FoldedColumnsAreSaidOnceAndWideShowsThemAll) {
  const std::string input = "fixtures/triton/cache-gfx942";
  const RunResult text = parse(input, {}, "100");
  const RunResult data = parse(input, {"--format", "json"}, "");
  const nlohmann::json report = nlohmann::json::parse(data.out);
  std::set<std::string> archs;
  for (const auto &k : report["kernels"]) archs.insert(k["arch"].get<std::string>());
  ASSERT_EQ(archs.size(), 1u);
  const std::vector<std::string> all = lines(text.out);
  const auto every =
      std::find_if(all.begin(), all.end(), [](const std::string &l) { return l.rfind("every row:", 0) == 0; });
  ASSERT_NE(every, all.end()) << text.out;
  EXPECT_NE(every->find("ARCH " + *archs.begin()), std::string::npos) << *every;
  // A column whose rows differ (302/128 and 0/0 spills) stays in the grid.
  EXPECT_EQ(every->find("SPILL"), std::string::npos) << *every;
  EXPECT_NE(grid(text.out).front().find("SPILL V/S"), std::string::npos) << text.out;
  EXPECT_EQ(grid(text.out).front().find("ARCH"), std::string::npos) << "said once, not in every row";
  const RunResult wide = parse(input, {"--wide"}, "100");
  const std::string header = grid(wide.out).front();
  for (const char *column : {"ARCH", "AGPR", "SGPR", "SCRATCH", "LIMITER", "HEADROOM"})
    EXPECT_NE(header.find(column), std::string::npos) << column << " with --wide";
  for (const std::string &line : lines(wide.out)) {
    EXPECT_EQ(line.rfind("every row:", 0), std::string::npos) << line;
    EXPECT_EQ(line.rfind("not shown", 0), std::string::npos) << line;
  }
}

// --name-width never widens the table: names that would collide are cut
// around where they differ, not printed whole.
TEST_F(TextWidth, NameWidthNeverWidensTheTable) {
  const RunResult narrow = parse("fixtures/nvcc-13.0/copies/libcopies.so", {"--name-width", "12"}, "200");
  ASSERT_EQ(narrow.exit_code, 0) << narrow.err;
  const std::vector<std::string> rows = grid(narrow.out);
  ASSERT_GT(rows.size(), 1u);
  const std::size_t arch = rows.front().find("ARCH");
  ASSERT_NE(arch, std::string::npos);
  EXPECT_LE(arch, 12u + 2u) << rows.front();
  std::set<std::string> names;
  for (std::size_t r = 1; r < rows.size(); ++r) names.insert(rows[r].substr(0, arch));
  EXPECT_EQ(names.size(), 2u) << "empty_kernel<0> and scale<1> stay apart at 12 characters";
}

// Every row tells its kernel apart (issue 32: "every kernel distinguishable"): two Triton entries of one
// @triton.jit function (Triton 3.6's gfx950 attn_fwd_kernel at 16 and 32 KiB of LDS) were two rows alike in
// KERNEL and LOCATION, and notes that named them alike. Each now carries its cache directory's first
// characters, in the row and in the notes, at every width.
TEST_F(TextWidth, KernelsAlikeInNameAndPlaceAreToldApart) {
  for (const std::string input :
       {"fixtures/triton/cache-gfx950", "fixtures/triton/cache-gfx942", "fixtures/triton/cache-sm_90"})
    for (const std::string columns : {"80", "100", "200"}) {
      const RunResult run = parse(input, {}, columns);
      ASSERT_EQ(run.exit_code, 0) << run.err;
      const std::vector<std::string> rows = grid(run.out);
      ASSERT_GT(rows.size(), 1u);
      // The identity of a row: its text up to the first figure column (VGPR or REG).
      std::size_t figures = rows.front().find("VGPR");
      if (figures == std::string::npos) figures = rows.front().find("REG");
      ASSERT_NE(figures, std::string::npos) << rows.front();
      std::set<std::string> identities;
      std::size_t kernels = 0;
      for (std::size_t r = 1; r < rows.size(); ++r) {
        if (rows[r].rfind(" ", 0) == 0) continue;  // the last column wrapped under itself
        ++kernels;
        identities.insert(rows[r].substr(0, figures));
      }
      EXPECT_EQ(identities.size(), kernels) << input << " at " << columns << ":\n" << run.out;
    }
  // The tag is the entry's directory, in the row and the notes; a kernel without a twin has none.
  const RunResult run = parse("fixtures/triton/cache-gfx950", {"--wide"}, "200");
  const RunResult data = parse("fixtures/triton/cache-gfx950", {"--format", "json"}, "");
  int twins = 0;
  const nlohmann::json report = nlohmann::json::parse(data.out);
  for (const nlohmann::json &k : report.at("kernels")) {
    const std::string entry = fs::path(k.at("file").get<std::string>()).parent_path().filename().string();
    const std::string tag = "@" + entry.substr(0, 6);
    const std::string name = k.at("name");
    const bool twin = name == "attn_fwd_kernel" || name == "matmul_kernel";
    twins += twin;
    EXPECT_EQ(run.out.find(name + " " + tag + " [gfx950]") != std::string::npos, twin) << name << run.out;
    EXPECT_EQ(run.out.find(tag) != std::string::npos, twin) << name << run.out;
  }
  EXPECT_EQ(twins, 4);
}

}  // namespace
}  // namespace regscope
