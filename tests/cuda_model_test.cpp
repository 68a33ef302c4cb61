// The CUDA occupancy model: the published rules and their traps.
#include <gtest/gtest.h>

#include "regscope/backends/nvidia/cuda_occupancy.h"

namespace regscope {
namespace {

CudaOccupancy occupancy(const char *arch, int registers, int block, int shared = 0, int dynamic = 0) {
  CudaResources r;
  r.registers = registers;
  r.block_size = block;
  r.static_shared = shared;
  r.dynamic_shared = dynamic;
  return computeCudaOccupancy(*findCudaArch(arch), r);
}

TEST(CudaModel, PerSubPartitionRegisterFloor) {
  // 40 registers, 320 threads on 9.0: the naive 65536/(40*320) gives 5 blocks;
  // per quarter-SM allocation gives 4 (62.5%), as the runtime and ncu say.
  CudaOccupancy occ = occupancy("sm_90", 40, 320, 12000);
  EXPECT_EQ(occ.blocks_per_sm, 4);
  EXPECT_EQ(occ.warps_per_sm, 40);
  EXPECT_DOUBLE_EQ(occ.fraction, 0.625);
  EXPECT_EQ(occ.limiter, Limiter::Registers);
  ASSERT_TRUE(occ.next);
  EXPECT_EQ(occ.next->blocks_per_sm, 5);
  EXPECT_EQ(occ.next->registers_to_free, 8);
}

TEST(CudaModel, SeedWideLoadsOnA100) {
  // Seed 004: 40 registers with 1024-thread blocks leave room for one block
  // only (64 registers a thread would fit); launch bounds let it use 63-64.
  EXPECT_EQ(occupancy("sm_80", 40, 1024).blocks_per_sm, 1);
  EXPECT_EQ(occupancy("sm_80", 32, 1024).blocks_per_sm, 2);
  EXPECT_EQ(occupancy("sm_80", 64, 1024).blocks_per_sm, 1);
  EXPECT_EQ(occupancy("sm_80", 65, 1024).blocks_per_sm, 0);  // 65 x 1024 > 65536
  EXPECT_EQ(occupancy("sm_80", 65, 1024).limiter, Limiter::Invalid);
  // 512 threads x 2 blocks: 64 registers fit exactly.
  EXPECT_EQ(occupancy("sm_80", 64, 512).blocks_per_sm, 2);
}

TEST(CudaModel, SharedMemoryIncludesTheReservedKilobyte) {
  // 9.0: 228 KiB per SM, 1 KiB reserved per block, granule 128.
  EXPECT_EQ(occupancy("sm_90", 16, 128, 0, 48 * 1024).blocks_per_sm, 4);  // 49 KiB each
  EXPECT_EQ(occupancy("sm_90", 16, 128, 0, 56 * 1024).limiter, Limiter::Shared);
  EXPECT_EQ(occupancy("sm_90", 16, 128, 0, 232448 + 1).blocks_per_sm, 0);  // over the opt-in limit
  // 7.5 reserves nothing and has 64 KiB.
  EXPECT_EQ(occupancy("sm_75", 16, 128, 0, 32 * 1024).blocks_per_sm, 2);
}

TEST(CudaModel, CarveoutPreference) {
  CudaResources r;
  r.registers = 16;
  r.block_size = 128;
  r.dynamic_shared = 15 * 1024;  // 16 KiB a block with the reserved kilobyte
  const CudaArch &h100 = *findCudaArch("sm_90");
  EXPECT_EQ(computeCudaOccupancy(h100, r).by_shared, 14);  // 228 KiB: the default, largest carveout
  r.carveout_percent = 25;                                 // 57 KiB, rounded up to the 64 KiB step
  EXPECT_EQ(computeCudaOccupancy(h100, r).by_shared, 4);
  r.carveout_percent = 0;  // 0 KiB, but one block needs 16: the 16 KiB step
  EXPECT_EQ(computeCudaOccupancy(h100, r).by_shared, 1);
}

TEST(CudaModel, WarpAndBlockSlots) {
  EXPECT_EQ(occupancy("sm_90", 16, 32).blocks_per_sm, 32);  // block slots
  EXPECT_EQ(occupancy("sm_86", 16, 32).blocks_per_sm, 16);
  EXPECT_EQ(occupancy("sm_89", 16, 32).blocks_per_sm, 24);
  EXPECT_EQ(occupancy("sm_86", 16, 1024).warps_per_sm, 32);  // 48 warps: one 32-warp block
  EXPECT_EQ(occupancy("sm_90", 16, 1024).limiter, Limiter::None);
  EXPECT_EQ(occupancy("sm_90", 16, 2048).limiter, Limiter::Invalid);
}

TEST(CudaModel, LargestBlockWithTheSameWarps) {
  CudaOccupancy occ = occupancy("sm_90", 95, 256);  // 2 blocks of 8 warps
  EXPECT_EQ(occ.warps_per_sm, 16);
  EXPECT_EQ(occ.largest_block_same_occupancy, 640);  // 20 warps x 96 regs still fit
}

TEST(CudaModel, ArchLookup) {
  EXPECT_EQ(findCudaArch("H100"), findCudaArch("sm_90"));
  EXPECT_EQ(findCudaArch("sm_90a"), findCudaArch("sm_90"));
  EXPECT_EQ(findCudaArch("compute_80"), findCudaArch("sm_80"));
  EXPECT_EQ(findCudaArch("8.6"), findCudaArch("sm_86"));
  EXPECT_EQ(findCudaArch("sm_70"), nullptr);
  std::vector<CudaTableRow> rows = cudaRegisterTable(*findCudaArch("sm_80"), 256);
  EXPECT_EQ(rows.front().max_registers, 32);
  EXPECT_EQ(rows.front().warps_per_sm, 64);
}

}  // namespace
}  // namespace regscope
