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

#include "ocloc_text.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/pipeline/parse_tree.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
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

TEST_F(TreeKinds, PtxasLogAsmAndZebinInATreeGiveTheFiguresOfNamingThem) {
  const ParsedInputs tree = parseInputs({root_.string()}, {});
  ASSERT_TRUE(tree.report.errors.empty()) << tree.report.errors.front().message;
  const Report named = parseArtifacts({sourcePath(kPtxasLog), sourcePath(kAmdAsm), sourcePath(kZebin)}, "", {});
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
  EXPECT_EQ(tree.walk.files_read, 3u);
  EXPECT_EQ(tree.walk.unknown, 1u);  // notes.txt: no line begins "ptxas info"
  EXPECT_EQ(tree.walk.directories, 2u);
}

TEST_F(TreeKinds, PtxasLogFiguresAreTheLogsLines) {
  const ParsedInputs tree = parseInputs({(root_ / "nested").string()}, {});
  ASSERT_TRUE(tree.report.errors.empty()) << tree.report.errors.front().message;
  std::vector<const KernelRecord *> nvidia;  // beside the zebin's kernels
  for (const KernelReport &k : tree.report.kernels)
    if (k.record.vendor == Vendor::Nvidia) nvidia.push_back(&k.record);
  ASSERT_EQ(nvidia.size(), 1u);
  const KernelRecord &r = *nvidia.front();
  // fixtures/nvcc-13.0/spill_asym-sm_90.ptxas.txt: "Compiling entry function '_Z10spill_asymPKfPfi' for 'sm_90'",
  // "192 bytes stack frame, 224 bytes spill stores, 280 bytes spill loads", "Used 24 registers".
  EXPECT_EQ(r.name, "_Z10spill_asymPKfPfi");
  EXPECT_EQ(r.arch, "sm_90");
  EXPECT_EQ(r.value(Field::Registers), 24);
  EXPECT_EQ(r.value(Field::StackBytes), 192);
  EXPECT_EQ(r.value(Field::SpillStoreBytes), 224);
  EXPECT_EQ(r.value(Field::SpillLoadBytes), 280);
}

// A zebin names its device by a product-family number (.note.intelgt.compat) and each kernel's GRF and
// SIMD in .ze_info: parse reads them, named or in a tree, as the zebin says them (read here by the test's
// own reader of the committed .ze_info text); its spills, which ocloc 22.43's .ze_info does not hold,
// stay unknown.
TEST_F(TreeKinds, ZebinGivesItsDeviceAndTheZeInfosFigures) {
  const Report named = parseArtifacts({sourcePath(kZebin)}, "", {});
  const std::map<std::string, std::pair<int, int>> says =
      test::zebinSays(readFile(sourcePath("fixtures/ocloc-22.43/probe.pvc.small.ze_info.yaml")));
  ASSERT_EQ(named.kernels.size(), says.size());
  for (const KernelReport &k : named.kernels) {
    SCOPED_TRACE(k.record.name);
    EXPECT_EQ(k.record.vendor, Vendor::Intel);
    EXPECT_EQ(k.record.arch, "pvc");  // product family 1271, what ocloc -device pvc writes
    ASSERT_TRUE(says.count(k.record.name));
    EXPECT_TRUE(k.record.has(Field::GrfCount));
    EXPECT_EQ(k.record.value(Field::GrfCount), says.at(k.record.name).first);
    EXPECT_EQ(k.record.value(Field::SimdSize), says.at(k.record.name).second);
    EXPECT_FALSE(k.record.has(Field::SpillGrfs));
  }
  const ParsedInputs tree = parseInputs({root_.string()}, {});
  EXPECT_TRUE(tree.walk.not_read.empty());
  std::size_t intel = 0;
  for (const KernelReport &k : tree.report.kernels) intel += k.record.vendor == Vendor::Intel;
  EXPECT_EQ(intel, says.size());
}

// ocloc 22.43's pvc zebin of the same probe in large GRF mode
// (-cl-intel-256-GRF-per-thread): its kernels are pvc:large-grf records,
// modelled on pvc's row (the target's device was looked up by its whole name,
// "pvc:large-grf", and refused as an unknown device).
TEST_F(TreeKinds, ALargeGrfZebinIsItsDevicesLargeGrfTarget) {
  const Report named = parseArtifacts({sourcePath("fixtures/ocloc-22.43/probe.pvc.large.zebin")}, "", {});
  const std::map<std::string, std::pair<int, int>> says =
      test::zebinSays(readFile(sourcePath("fixtures/ocloc-22.43/probe.pvc.large.ze_info.yaml")));
  ASSERT_EQ(named.kernels.size(), says.size());
  for (const KernelReport &k : named.kernels) {
    SCOPED_TRACE(k.record.name);
    ASSERT_TRUE(says.count(k.record.name));
    EXPECT_EQ(k.record.value(Field::GrfCount), says.at(k.record.name).first);
    EXPECT_EQ(k.record.arch, says.at(k.record.name).first == 256 ? "pvc:large-grf" : "pvc");
    EXPECT_NE(k.summary.limiter, Limiter::Unknown);
  }
}

// ocloc 22.43's default for pvc is the legacy patch-token OpenCL ELF: named,
// it is one line saying what it is and how to get a zebin, never "no AMDGPU
// kernels".
TEST_F(TreeKinds, AnIntelPatchTokenBinaryIsNamedAndRefused) {
  try {
    parseArtifacts({sourcePath("fixtures/ocloc-22.43/probe.pvc.patchtokens.bin")}, "", {});
    ADD_FAILURE() << "read";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("patch-token"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--format zebin"), std::string::npos) << e.what();
  }
}

// A zebin for a product family regscope has not measured: one line naming the number, never a guess.
TEST_F(TreeKinds, ZebinOfAnUnknownProductFamilyIsRefused) {
  std::string zebin = readFile(sourcePath(kZebin));
  const std::size_t at = zebin.find(std::string("IntelGT\0\xf7\x04\0\0", 12));
  ASSERT_NE(at, std::string::npos);
  zebin[at + 8] = '\x05';  // 0x04f7 (1271) -> 0x0405 (1029)
  writeFile((root_ / "other.zebin").string(), zebin);
  try {
    parseArtifacts({(root_ / "other.zebin").string()}, "", {});
    FAIL() << "an unknown product family was read";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("product family 1029"), std::string::npos) << e.what();
  }
}

// issue 30: in a walk, a directory that cannot be walked (here a tree 300
// directories deep, past the walk's 256) is that directory's one error, and
// the readable .s beside it is read.
TEST_F(TreeKinds, AnUnwalkableDirectoryIsItsOwnErrorAndTheRestIsRead) {
  const ParsedInputs shallow = parseInputs({root_.string()}, {});
  ASSERT_TRUE(shallow.report.errors.empty());
  fs::path deep = root_ / "deep";
  for (int i = 0; i < 300; ++i) deep /= "d";
  fs::create_directories(deep);
  const ParsedInputs parsed = parseInputs({root_.string()}, {});
  ASSERT_EQ(parsed.report.errors.size(), 1u);
  EXPECT_NE(parsed.report.errors.front().message.find("directories deep: not walked"), std::string::npos)
      << parsed.report.errors.front().message;
  EXPECT_EQ(parsed.report.kernels.size(), shallow.report.kernels.size());
}

}  // namespace
}  // namespace regscope
