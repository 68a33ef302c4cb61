// ptxas / nvlink / PTX parsers against real CUDA 13 output (fixtures/nvcc-13.0)
// and the hand-written CUDA 11.8 form (fixtures/ptxas-11.8, see its README).
#include <gtest/gtest.h>

#include "regscope/backends/nvidia/collect.h"
#include "regscope/collect/collect.h"
#include "test_util.h"

namespace regscope {
namespace {

using test::find;
using test::fixture;

const KernelFacts *findOn(const FactSet &set, const std::string &name, const std::string &arch) {
  for (const KernelFacts &k : set.kernels)
    if (k.name == name && k.arch == arch) return &k;
  return nullptr;
}

TEST(Ptxas, Cuda13FiveArchsInOneRun) {
  FactSet set = parsePtxas(fixture("nvcc-13.0/cuda_probe.ptxas.txt"), "");
  int kernels = 0;
  for (const KernelFacts &k : set.kernels) kernels += k.is_kernel;
  EXPECT_EQ(kernels, 12 * 5);  // 12 entries on sm_75/80/86/89/90

  const KernelFacts *spill = findOn(set, "_Z12spill_cappedPK6float4PS_i", "sm_80");
  ASSERT_NE(spill, nullptr);
  EXPECT_EQ(spill->vendor, Vendor::Nvidia);
  EXPECT_EQ(spill->get(Field::Registers), 32);
  EXPECT_EQ(spill->get(Field::StackBytes), 680);
  EXPECT_EQ(spill->get(Field::SpillStoreBytes), 1068);
  EXPECT_EQ(spill->get(Field::SpillLoadBytes), 1068);
  EXPECT_EQ(spill->get(Field::Barriers), 0);
  EXPECT_EQ(spill->get(Field::ConstantBytes), 372);

  const KernelFacts *smem = findOn(set, "_Z10smem_heavyPKfPf", "sm_90");
  ASSERT_NE(smem, nullptr);
  EXPECT_EQ(smem->get(Field::SharedBytes), 12000);
  EXPECT_EQ(smem->get(Field::Barriers), 1);
  EXPECT_FALSE(smem->get(Field::ConstantBytes));  // sm_90 prints no cmem[0]

  const KernelFacts *fib = findOn(set, "_Z3fibi", "sm_80");
  ASSERT_NE(fib, nullptr);
  EXPECT_FALSE(fib->is_kernel);  // a device function's "Function properties" block
  EXPECT_EQ(fib->get(Field::SpillStoreBytes), 20);
}

TEST(Ptxas, Cuda118Format) {
  FactSet set = parsePtxas(fixture("ptxas-11.8/kernels.ptxas.txt"), "");
  const KernelFacts *transpose = find(set, "_Z14smem_transposePKfPfii");
  ASSERT_NE(transpose, nullptr);
  EXPECT_EQ(transpose->arch, "sm_80");
  EXPECT_EQ(transpose->get(Field::Registers), 14);
  EXPECT_EQ(transpose->get(Field::SharedBytes), 4224);
  EXPECT_EQ(transpose->get(Field::ConstantBytes), 376);
  EXPECT_FALSE(transpose->get(Field::Barriers));  // 11.8 does not print barriers
  const KernelFacts *fib = find(set, "_Z3fibi");
  ASSERT_NE(fib, nullptr);
  EXPECT_FALSE(fib->is_kernel);
}

TEST(Ptxas, RdcDeviceLinkReport) {
  FactSet set = parsePtxas(fixture("nvcc-13.0/cuda_probe.rdc-dlink-sm_80.txt"), "sm_80");
  const KernelFacts *baseline = find(set, "_Z12max_baselinePKdS0_Pdi");
  ASSERT_NE(baseline, nullptr);
  EXPECT_TRUE(baseline->is_kernel);
  EXPECT_EQ(baseline->arch, "sm_80");
  EXPECT_EQ(baseline->get(Field::Registers), 96);  // final, after the link
  const KernelFacts *smem = find(set, "_Z10smem_heavyPKfPf");
  ASSERT_NE(smem, nullptr);
  EXPECT_EQ(smem->get(Field::SharedBytes), 12000);
  EXPECT_EQ(smem->get(Field::Barriers), 1);
  const KernelFacts *spill = find(set, "_Z12spill_cappedPK6float4PS_i");
  ASSERT_NE(spill, nullptr);
  EXPECT_EQ(spill->get(Field::StackBytes), 456);
}

TEST(Ptx, LaunchBounds) {
  FactSet set = parsePtxLaunchBounds(fixture("nvcc-13.0/cuda_probe.compute_90.ptx"), "sm_90");
  EXPECT_EQ(set.kernels.size(), 12u);
  EXPECT_EQ(find(set, "_Z15max_baseline_lbPKdS0_Pdi")->get(Field::MaxThreadsPerBlock), 1024);
  EXPECT_EQ(find(set, "_Z15max_baseline_lbPKdS0_Pdi")->get(Field::MinBlocksPerSm), 1);
  EXPECT_EQ(find(set, "_Z18max_baseline_512x2PKdS0_Pdi")->get(Field::MaxThreadsPerBlock), 512);
  EXPECT_EQ(find(set, "_Z18max_baseline_512x2PKdS0_Pdi")->get(Field::MinBlocksPerSm), 2);
  EXPECT_FALSE(find(set, "_Z12max_baselinePKdS0_Pdi")->get(Field::MaxThreadsPerBlock));
}

}  // namespace
}  // namespace regscope
