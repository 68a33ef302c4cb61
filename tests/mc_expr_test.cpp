// LLVM 20+ symbolic resource expressions (fixtures/llvm20 is hand-written:
// see its README).
#include <gtest/gtest.h>

#include "regscope/backends/amd/collect.h"
#include "regscope/backends/amd/mc_expr.h"
#include "regscope/collect/collect.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/target/amdgpu.h"
#include "test_util.h"

namespace regscope {
namespace {

TEST(McExpr, ArithmeticAndFunctions) {
  const AmdArch *gfx90a = findAmdArch("gfx90a");
  auto eval = [&](const char *text) { return evaluateMcExpr(text, {}, gfx90a); };
  EXPECT_EQ(eval("42"), 42);
  EXPECT_EQ(eval("1+2*3"), 7);
  EXPECT_EQ(eval("(1+2)*3"), 9);
  EXPECT_EQ(eval("max(3, 9, 4)"), 9);
  EXPECT_EQ(eval("alignto(70, 4)"), 72);
  EXPECT_EQ(eval("totalnumvgprs(64, 70)"), 136);  // unified file: alignTo(70, 4) + 64
  EXPECT_EQ(evaluateMcExpr("totalnumvgprs(64, 70)", {}, findAmdArch("gfx908")), 70);  // max(v, a)
  EXPECT_EQ(eval("extrasgprs(1, 0, 1)"), 4);                                          // VCC and XNACK
  EXPECT_EQ(eval("extrasgprs(1, 1, 1)"), 6);                                          // flat scratch
  EXPECT_EQ(evaluateMcExpr("extrasgprs(1, 1, 1)", {}, findAmdArch("gfx1030")), 2);    // RDNA: VCC only
  EXPECT_EQ(evaluateMcExpr("extrasgprs(0, 0, 0)", {}, findAmdArch("gfx942")), 6);     // architected flat scratch
  EXPECT_EQ(eval("((((((alignto(max(1, 42), 4))/4)-1)&(~65536))&63)+1)*4"), 44);      // accum_offset
  EXPECT_EQ(eval("occupancy(8, 8, 512, 8, 8, 14, 102)"), 4);                          // the seed's LBM kernel
  EXPECT_EQ(eval("occupancy(8, 8, 512, 8, 8, 101, 16)"), 7);                          // SGPR-limited on GFX9
  EXPECT_EQ(evaluateMcExpr("occupancy(16, 16, 1024, 9, 16, 101, 64)", {}, findAmdArch("gfx1030")),
            16);                                                     // GFX10: SGPRs never limit
  EXPECT_FALSE(evaluateMcExpr("extrasgprs(1, 0, 1)", {}, nullptr));  // an unknown target: unresolved, not guessed
  EXPECT_FALSE(eval("max(8, callee.num_vgpr)"));                     // undefined: unresolved
  EXPECT_FALSE(eval("1 +"));
  EXPECT_FALSE(eval("1/0"));
}

TEST(McExpr, SymbolsAndCycles) {
  std::map<std::string, std::string> symbols = {{"a", "b+1"}, {"b", "max(2, 5)"}, {"x", "y"}, {"y", "x"}};
  EXPECT_EQ(evaluateMcExpr("a*2", symbols, nullptr), 12);
  EXPECT_FALSE(evaluateMcExpr("x", symbols, nullptr));  // a cycle is unresolved, not a crash
}

TEST(McExpr, Llvm20AssemblyResolvesWhatItCan) {
  AsmFile file = parseAsm(test::fixture("llvm20/k.s"));
  const KernelFacts *simple = test::find(file.facts, "_Z6simplePf");
  ASSERT_NE(simple, nullptr);
  EXPECT_EQ(simple->get(Field::Vgprs), 42);
  EXPECT_EQ(simple->get(Field::VgprsTotal), 42);
  EXPECT_EQ(simple->get(Field::Sgprs), 14);
  EXPECT_EQ(simple->get(Field::CompilerOccupancy), 8);
  EXPECT_EQ(simple->get(Field::LdsBytes), 0);
  EXPECT_TRUE(simple->unresolved.empty());

  const KernelFacts *caller = test::find(file.facts, "_Z6callerPf");
  ASSERT_NE(caller, nullptr);
  EXPECT_FALSE(caller->get(Field::Vgprs));
  EXPECT_FALSE(caller->get(Field::CompilerOccupancy));
  EXPECT_NE(std::find(caller->unresolved.begin(), caller->unresolved.end(), Field::Vgprs), caller->unresolved.end());
  EXPECT_EQ(caller->get(Field::LdsBytes), 0);  // plain numbers still read
}

TEST(McExpr, Llvm20RemarksWithExpressions) {
  FactSet set = parseRemarkText(test::fixture("llvm20/k.remarks.txt"), "gfx90a");
  ASSERT_EQ(set.kernels.size(), 2u);
  EXPECT_EQ(set.kernels[0].get(Field::Vgprs), 42);
  EXPECT_FALSE(set.kernels[1].get(Field::Vgprs));
  EXPECT_EQ(set.kernels[1].unresolved, (std::vector<Field>{Field::Sgprs, Field::Vgprs, Field::Agprs,
                                                           Field::ScratchBytes, Field::CompilerOccupancy}));
  EXPECT_EQ(set.kernels[1].get(Field::LdsBytes), 0);
}

TEST(McExpr, ReportSaysUnresolvedUntilLink) {
  Report report = parseArtifacts({test::sourcePath("fixtures/llvm20/k.s")}, "");
  ASSERT_EQ(report.kernels.size(), 2u);
  EXPECT_FALSE(report.kernels[0].unresolved());
  EXPECT_EQ(std::get_if<AmdKernelModel>(&report.kernels[0].model)->occupancy.waves_per_simd, 8);
  EXPECT_EQ(std::get_if<AmdKernelModel>(&report.kernels[0].model)->compiler->printed, 8);
  EXPECT_TRUE(report.kernels[1].unresolved());
  EXPECT_EQ(std::get_if<AmdKernelModel>(&report.kernels[1].model)->occupancy.limiter, Limiter::Unresolved);
}

}  // namespace
}  // namespace regscope
