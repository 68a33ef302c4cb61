// Remark parsers against real compiler output in fixtures/ (see
// fixtures/regenerate.sh for the commands).
#include <gtest/gtest.h>

#include "regscope/backends/amd/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/support/error.h"
#include "test_util.h"

namespace regscope {
namespace {

using test::find;
using test::fixture;

const std::string kLbm =
    "_Z6kernelPdS_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_S_iiiiiiiddddddddddddddd";

TEST(RemarkText, SaveTempsFormFromHipcc15) {
  // "remark: lbm.hip:19:0:     VGPRs: 102 [...]": two archs, gfx908 first.
  FactSet set = parseRemarkText(fixture("hipcc-5.2.3/lbm.remarks.txt"), "");
  ASSERT_EQ(set.kernels.size(), 2u);
  const KernelFacts &k = set.kernels[1];  // the gfx90a block, per the .opt.yaml files
  EXPECT_EQ(k.name, kLbm);
  EXPECT_EQ(k.file, "lbm.hip");
  EXPECT_EQ(k.line, 19);  // the opening brace
  EXPECT_EQ(k.get(Field::Vgprs), 102);
  EXPECT_EQ(k.get(Field::Sgprs), 98);
  EXPECT_EQ(k.get(Field::Agprs), 0);
  EXPECT_EQ(k.get(Field::CompilerOccupancy), 4);
  EXPECT_EQ(k.get(Field::LdsBytes), 0);
  EXPECT_EQ(k.get(Field::VgprSpills), 0);
  EXPECT_FALSE(k.get(Field::DynamicStack));  // LLVM 15 has no such line
  EXPECT_TRUE(k.is_kernel);
}

TEST(RemarkText, FrontEndFormWithSourceSnippet) {
  // "lbm.hip:19:1: remark: ..." followed by the source line and a caret.
  FactSet set = parseRemarkText(fixture("hipcc-5.2.3/lbm.remarks-nosavetemps.txt"), "gfx90a");
  ASSERT_EQ(set.kernels.size(), 1u);
  EXPECT_EQ(set.kernels[0].arch, "gfx90a");
  EXPECT_EQ(set.kernels[0].line, 19);
  EXPECT_EQ(set.kernels[0].get(Field::Vgprs), 102);
  EXPECT_EQ(set.kernels[0].get(Field::ScratchBytes), 0);
}

TEST(RemarkText, Llvm15DeviceFunctionsAreNotKernels) {
  FactSet set = parseRemarkText(fixture("hipcc-5.2.3/probe.remarks.txt"), "");
  const KernelFacts *fib = find(set, "_Z3fibi");
  ASSERT_NE(fib, nullptr);
  EXPECT_FALSE(fib->is_kernel);
  EXPECT_EQ(fib->get(Field::CompilerOccupancy), 0);
  const KernelFacts *agpr = find(set, "_Z10agpr_heavyPf");
  ASSERT_NE(agpr, nullptr);
  EXPECT_TRUE(agpr->is_kernel);
  EXPECT_EQ(agpr->get(Field::Vgprs), 70);
  EXPECT_EQ(agpr->get(Field::Agprs), 64);
  const KernelFacts *recursive = find(set, "_Z9recursivePii");
  ASSERT_NE(recursive, nullptr);
  EXPECT_EQ(recursive->get(Field::ScratchBytes), 16416);  // LLVM 15 assumes a 16 KiB stack
}

TEST(RemarkText, Llvm19DynamicStackLine) {
  FactSet set = parseRemarkText(fixture("clang-19/probe.remarks.txt"), "gfx90a");
  const KernelFacts *recursive = find(set, "_Z9recursivePii");
  ASSERT_NE(recursive, nullptr);
  EXPECT_EQ(recursive->get(Field::DynamicStack), 1);
  EXPECT_EQ(find(set, "_Z3fibi"), nullptr);  // LLVM 19 reports kernels only
  for (const KernelFacts &k : set.kernels) EXPECT_TRUE(k.get(Field::DynamicStack).has_value()) << k.name;
}

TEST(RemarkText, LldLinkTimeFormWithoutPrefix) {
  // -fgpu-rdc: lld prints the remarks at link time, no "remark:" (hand-written
  // fixture, see fixtures/lld-rdc/README.md).
  FactSet set = parseRemarkText(fixture("lld-rdc/link.log"), "gfx90a");
  ASSERT_EQ(set.kernels.size(), 1u);
  EXPECT_EQ(set.kernels[0].name, "_Z5saxpyfPKfPfi");
  EXPECT_EQ(set.kernels[0].file, "../k.hip");
  EXPECT_EQ(set.kernels[0].get(Field::Vgprs), 4);
  EXPECT_EQ(set.kernels[0].get(Field::Sgprs), 11);
  EXPECT_EQ(set.kernels[0].get(Field::CompilerOccupancy), 8);
}

TEST(RemarkText, IgnoresOtherDiagnostics) {
  FactSet set = parseRemarkText(
      "k.hip:3:5: warning: unused variable 'x' [-Wunused-variable]\n"
      "clang: warning: argument unused during compilation: '-L/usr/lib'\n"
      "k.hip:9:1: error: use of undeclared identifier 'y'\n",
      "gfx90a");
  EXPECT_TRUE(set.kernels.empty());
}

// Issue 9: `make -j` interleaves the stderr of two compiles line by line.
// Each value line must land in the block opened at its own FILE:LINE.
TEST(RemarkText, InterleavedBlocksFollowTheirLocation) {
  const std::string a = fixture("hipcc-5.2.3/lbm.remarks-nosavetemps.txt");
  const std::string b = fixture("hipcc-5.2.3/probe.remarks-nosavetemps.txt");
  std::vector<std::string> la, lb;
  for (std::size_t at = 0, end; at < a.size(); at = end + 1) la.push_back(a.substr(at, (end = a.find('\n', at)) - at));
  for (std::size_t at = 0, end; at < b.size(); at = end + 1) lb.push_back(b.substr(at, (end = b.find('\n', at)) - at));
  std::string mixed;
  for (std::size_t i = 0; i < std::max(la.size(), lb.size()); ++i) {
    if (i < la.size()) mixed += la[i] + "\n";
    if (i < lb.size()) mixed += lb[i] + "\n";
  }
  FactSet separate_a = parseRemarkText(a, "gfx90a"), separate_b = parseRemarkText(b, "gfx90a");
  FactSet together = parseRemarkText(mixed, "gfx90a");
  ASSERT_EQ(together.kernels.size(), separate_a.kernels.size() + separate_b.kernels.size());
  for (const FactSet *alone : {&separate_a, &separate_b})
    for (const KernelFacts &k : alone->kernels) {
      const KernelFacts *same = nullptr;
      for (const KernelFacts &t : together.kernels)
        if (t.name == k.name) same = &t;
      ASSERT_NE(same, nullptr) << k.name;
      EXPECT_EQ(same->values, k.values) << k.name;
      EXPECT_EQ(same->is_kernel, k.is_kernel) << k.name;
    }
}

// Issue 9: a log of --offload-arch=gfx90a,gfx908 has a block per arch and no
// word of which is which; `parse --arch gfx90a` gave gfx908's figures.
TEST(RemarkText, MultiArchLogIsAnErrorNotAGuess) {
  try {
    collectArtifact(fixture("hipcc-5.2.3/lbm.remarks.txt"), "lbm.remarks.txt", "gfx90a");
    FAIL() << "a two-arch log was read as one arch";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("more than one arch"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(".opt.yaml"), std::string::npos) << e.what();
  }
  // One arch's log is read as before.
  EXPECT_EQ(collectArtifact(fixture("hipcc-5.2.3/lbm.remarks-nosavetemps.txt"), "l.txt", "gfx90a").records.size(), 1u);
}

// A path with a quote is single-quoted in the record, the quote doubled
// ("File: 'q''d/ok.hip'", hipcc 5.2.3's own record): read as q'd/ok.hip.
TEST(RemarkYaml, AQuotedPathIsReadAsThePath) {
  const FactSet set = parseRemarkYaml(fixture("hipcc-5.2.3/quoted-path-gfx90a.opt.yaml"), "gfx90a");
  ASSERT_EQ(set.kernels.size(), 1u);
  EXPECT_EQ(set.kernels[0].file, "q'd/ok.hip");
  EXPECT_EQ(set.kernels[0].line, 2);
}

TEST(RemarkYaml, PerArchOptimisationRecord) {
  FactSet gfx90a = parseRemarkYaml(fixture("hipcc-5.2.3/lbm-gfx90a.opt.yaml"), "gfx90a");
  ASSERT_EQ(gfx90a.kernels.size(), 1u);
  const KernelFacts &k = gfx90a.kernels[0];
  EXPECT_EQ(k.name, kLbm);
  EXPECT_EQ(k.arch, "gfx90a");
  EXPECT_EQ(k.line, 19);
  EXPECT_EQ(k.get(Field::Vgprs), 102);
  EXPECT_EQ(k.get(Field::Sgprs), 98);
  EXPECT_EQ(k.get(Field::CompilerOccupancy), 4);

  FactSet gfx908 = parseRemarkYaml(fixture("hipcc-5.2.3/lbm-gfx908.opt.yaml"), "gfx908");
  ASSERT_EQ(gfx908.kernels.size(), 1u);
  EXPECT_NE(gfx908.kernels[0].get(Field::Vgprs), 102);  // the other arch's figures
}

TEST(RemarkYaml, MalformedInputIsAnError) {
  EXPECT_THROW(parseRemarkYaml("--- !Analysis\nPass: [unclosed\n", "gfx90a"), Error);
}

}  // namespace
}  // namespace regscope
