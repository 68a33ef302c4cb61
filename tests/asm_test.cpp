// The .s parser against real device assembly in fixtures/.
#include <gtest/gtest.h>

#include "regscope/backends/amd/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/support/error.h"
#include "test_util.h"

namespace regscope {
namespace {

using test::find;
using test::fixture;

TEST(Asm, LbmOnGfx90aFromHipcc15) {
  AsmFile file = parseAsm(fixture("hipcc-5.2.3/lbm-gfx90a.s"));
  EXPECT_EQ(file.arch, "gfx90a");
  EXPECT_EQ(file.producer, "Debian clang version 15.0.6");
  ASSERT_EQ(file.facts.kernels.size(), 1u);
  const KernelFacts &k = file.facts.kernels[0];
  EXPECT_EQ(k.arch, "gfx90a");
  EXPECT_EQ(k.get(Field::Vgprs), 102);       // "; NumVgprs"
  EXPECT_EQ(k.get(Field::VgprsTotal), 102);  // "; NumVGPRsForWavesPerEU"
  EXPECT_EQ(k.get(Field::Agprs), 0);
  EXPECT_EQ(k.get(Field::Sgprs), 98);
  EXPECT_EQ(k.get(Field::ScratchBytes), 0);
  EXPECT_EQ(k.get(Field::LdsBytes), 0);
  EXPECT_EQ(k.get(Field::MaxWorkgroupSize), 1024);
  EXPECT_EQ(k.get(Field::WaveSize), 64);
  EXPECT_EQ(k.get(Field::CompilerOccupancy), 4);
  EXPECT_EQ(k.get(Field::VgprSpills), 0);
  EXPECT_EQ(k.get(Field::DynamicStack), 0);
}

TEST(Asm, UnifiedAgprTotalAndDeviceFunctions) {
  AsmFile file = parseAsm(fixture("hipcc-5.2.3/probe-gfx90a.s"));
  const KernelFacts *agpr = find(file.facts, "_Z10agpr_heavyPf");
  ASSERT_NE(agpr, nullptr);
  EXPECT_EQ(agpr->get(Field::Vgprs), 70);
  EXPECT_EQ(agpr->get(Field::Agprs), 64);
  EXPECT_EQ(agpr->get(Field::VgprsTotal), 136);  // alignTo(70, 4) + 64
  EXPECT_EQ(agpr->get(Field::CompilerOccupancy), 3);

  const KernelFacts *lds = find(file.facts, "_Z9lds_heavyPf");
  ASSERT_NE(lds, nullptr);
  EXPECT_EQ(lds->get(Field::LdsBytes), 40960);
  EXPECT_EQ(lds->get(Field::CompilerOccupancy), 8);  // LLVM 15's LDS rule

  const KernelFacts *bounded = find(file.facts, "_Z9recursivePii");
  ASSERT_NE(bounded, nullptr);
  EXPECT_EQ(bounded->get(Field::MaxWorkgroupSize), 256);  // __launch_bounds__(256)
  EXPECT_EQ(bounded->get(Field::DynamicStack), 1);

  const KernelFacts *priv = find(file.facts, "_Z13private_arrayPfi");
  ASSERT_NE(priv, nullptr);
  EXPECT_EQ(priv->get(Field::ScratchBytes), 272);

  EXPECT_EQ(find(file.facts, "_Z3fibi"), nullptr);  // "; Function info", not a kernel
}

TEST(Asm, SeparateAgprFileOnGfx908) {
  AsmFile file = parseAsm(fixture("hipcc-5.2.3/lbm-gfx908.s"));
  EXPECT_EQ(file.arch, "gfx908");
  ASSERT_EQ(file.facts.kernels.size(), 1u);
  const KernelFacts &k = file.facts.kernels[0];
  EXPECT_EQ(k.get(Field::Vgprs), 64);  // gfx908 parks the rest in AGPRs
  EXPECT_GT(*k.get(Field::Agprs), 0);
  EXPECT_EQ(k.get(Field::VgprsTotal), std::max(*k.get(Field::Vgprs), *k.get(Field::Agprs)));
  EXPECT_EQ(k.get(Field::Agprs), 37);       // the seed's kernel: 64 VGPRs + 37 AGPRs
  EXPECT_EQ(k.get(Field::AgprCopies), 92);  // v_accvgpr_read/write in its body
  EXPECT_EQ(k.get(Field::MfmaInstructions), 0);
}

TEST(Asm, Clang19Output) {
  AsmFile file = parseAsm(fixture("clang-19/lbm-gfx90a.s"));
  EXPECT_EQ(file.arch, "gfx90a");
  EXPECT_NE(file.producer.find("clang version 19"), std::string::npos);
  ASSERT_FALSE(file.facts.kernels.empty());
  EXPECT_TRUE(file.facts.kernels[0].get(Field::VgprsTotal).has_value());
  EXPECT_TRUE(file.facts.kernels[0].get(Field::CompilerOccupancy).has_value());
}

TEST(Asm, GarbageIsAClearError) {
  EXPECT_THROW(parseAsm("this is not assembly\n"), Error);
  EXPECT_THROW(parseAsm(""), Error);
  // A truncated metadata block must not crash.
  std::string text = fixture("hipcc-5.2.3/lbm-gfx90a.s");
  std::string truncated = text.substr(0, text.find("amdhsa.kernels:") + 40);
  EXPECT_NO_FATAL_FAILURE({
    try {
      parseAsm(truncated);
    } catch (const Error &) {
    }
  });
}

}  // namespace
}  // namespace regscope
