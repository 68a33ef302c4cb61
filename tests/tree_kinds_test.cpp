// A directory walk picks up ptxas -v logs by their "ptxas info" lines and
// reads them as parse reads them named; an Intel zebin, found by its ELF
// machine, is listed as not read with the reason (its device is only a
// product-family number regscope does not map; ocloc 22.43's .ze_info holds
// no spill figure), as naming it fails: never guessed. Real fixtures: fixtures/nvcc-13.0
// (nvcc 13.0 -Xptxas -v), fixtures/hipcc-5.2.3 (hipcc -S), fixtures/ocloc-22.43
// (ocloc 22.43 -device pvc).
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "regscope/pipeline/analyze.h"
#include "regscope/pipeline/parse_tree.h"
#include "regscope/support/error.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using namespace test;

const std::string kPtxasLog = "fixtures/nvcc-13.0/spill_asym-sm_90.ptxas.txt";
const std::string kAmdAsm = "fixtures/hipcc-5.2.3/probe-gfx908.s";
const std::string kZebin = "fixtures/ocloc-22.43/probe.pvc.small.zebin";

class TreeKinds : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("regscope-tree-kinds-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "nested");
    // Names that say nothing: the walk goes by content.
    fs::copy_file(sourcePath(kPtxasLog), root_ / "nested" / "build-output");
    fs::copy_file(sourcePath(kAmdAsm), root_ / "probe-gfx908.s");
    fs::copy_file(sourcePath(kZebin), root_ / "nested" / "kernels.bin");
    writeFile((root_ / "notes.txt").string(), "ptxas is run by nvcc; see 'ptxas info' lines in the log\n");
  }
  void TearDown() override { fs::remove_all(root_); }
  static void writeFile(const std::string &path, const std::string &text) {
    std::ofstream(path, std::ios::binary) << text;
  }
  fs::path root_;
};

TEST_F(TreeKinds, PtxasLogAndAsmInATreeGiveTheFiguresOfNamingThem) {
  const ParsedInputs tree = parseInputs({root_.string()}, {});
  ASSERT_TRUE(tree.report.errors.empty()) << tree.report.errors.front().message;
  const Report named = parseArtifacts({sourcePath(kPtxasLog), sourcePath(kAmdAsm)}, "", {});
  ASSERT_EQ(tree.report.kernels.size(), named.kernels.size());
  // The walk reads the .s before the nested directory's log; naming read the log first.
  for (const KernelReport &n : named.kernels) {
    SCOPED_TRACE(n.record.name);
    int found = 0;
    for (const KernelReport &t : tree.report.kernels) {
      if (t.record.name != n.record.name || t.record.arch != n.record.arch) continue;
      ++found;
      EXPECT_EQ(t.record.values, n.record.values);
      EXPECT_EQ(t.record.missing, n.record.missing);
      EXPECT_EQ(t.summary.limiter, n.summary.limiter);
    }
    EXPECT_EQ(found, 1);
  }
  EXPECT_EQ(tree.walk.files_read, 2u);
  EXPECT_EQ(tree.walk.unknown, 1u);  // notes.txt: no line begins "ptxas info"
  EXPECT_EQ(tree.walk.directories, 2u);
}

TEST_F(TreeKinds, PtxasLogFiguresAreTheLogsLines) {
  const ParsedInputs tree = parseInputs({(root_ / "nested").string()}, {});
  ASSERT_TRUE(tree.report.errors.empty()) << tree.report.errors.front().message;
  ASSERT_EQ(tree.report.kernels.size(), 1u);
  const KernelRecord &r = tree.report.kernels.front().record;
  // fixtures/nvcc-13.0/spill_asym-sm_90.ptxas.txt: "Compiling entry function '_Z10spill_asymPKfPfi' for 'sm_90'",
  // "192 bytes stack frame, 224 bytes spill stores, 280 bytes spill loads", "Used 24 registers".
  EXPECT_EQ(r.name, "_Z10spill_asymPKfPfi");
  EXPECT_EQ(r.arch, "sm_90");
  EXPECT_EQ(r.value(Field::Registers), 24);
  EXPECT_EQ(r.value(Field::StackBytes), 192);
  EXPECT_EQ(r.value(Field::SpillStoreBytes), 224);
  EXPECT_EQ(r.value(Field::SpillLoadBytes), 280);
}

TEST_F(TreeKinds, ZebinIsListedNotReadWithTheReasonAsNamingItFails) {
  const ParsedInputs tree = parseInputs({root_.string()}, {});
  ASSERT_EQ(tree.walk.not_read.size(), 1u);
  const std::string &line = tree.walk.not_read.front();
  EXPECT_NE(line.find("kernels.bin: an Intel zebin"), std::string::npos) << line;
  EXPECT_NE(line.find("product-family number"), std::string::npos) << line;
  EXPECT_NE(line.find("no spill figure"), std::string::npos) << line;
  for (const KernelReport &k : tree.report.kernels) EXPECT_NE(k.record.vendor, Vendor::Intel);
  try {
    parseArtifacts({sourcePath(kZebin)}, "", {});
    FAIL() << "a named zebin was read";
  } catch (const Error &e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("an Intel zebin"), std::string::npos) << what;
    EXPECT_NE(what.find("product-family number"), std::string::npos) << what;
    EXPECT_NE(what.find("no spill figure"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace regscope
