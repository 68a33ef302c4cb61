// regscope's CUDA occupancy model against the CUDA runtime's own answers,
// recorded on an H100 (fixtures/h100/occupancy_runtime.csv, made by
// tests/cuda/occupancy_check.cu). The model gets only the figures the runtime
// reported for each kernel: registers, static shared memory, block size and
// dynamic shared memory.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

#include "regscope/backends/nvidia/cuda_occupancy.h"
#include "test_util.h"

namespace regscope {
namespace {

TEST(CudaRuntime, ModelAgreesOnEveryRecordedConfiguration) {
  std::istringstream csv(test::fixture("h100/occupancy_runtime.csv"));
  const CudaArch &arch = *findCudaArch("sm_90");
  int rows = 0, agree = 0, launchable = 0, bounds_only = 0;
  std::string first_mismatch;
  for (std::string line; std::getline(csv, line);) {
    if (line.empty() || line[0] == '#' || line.rfind("arch,", 0) == 0) continue;
    std::istringstream fields(line);
    std::string arch_name, kernel, cell;
    std::getline(fields, arch_name, ',');
    std::getline(fields, kernel, ',');
    int values[6];
    for (int &v : values) {
      std::getline(fields, cell, ',');
      v = std::stoi(cell);
    }
    const auto [registers, static_shared, max_threads, block, dynamic, runtime_blocks] =
        std::tuple{values[0], values[1], values[2], values[3], values[4], values[5]};
    ASSERT_EQ(arch_name, "sm_90");
    ++rows;
    CudaResources r;
    r.registers = registers;
    r.static_shared = static_shared;
    r.dynamic_shared = dynamic;
    r.block_size = block;
    CudaOccupancy occ = computeCudaOccupancy(arch, r);
    // The runtime refuses blocks above the kernel's max threads (launch
    // bounds, or what its registers allow) and more than the opt-in shared
    // memory; the model must call those unlaunchable (0 blocks) unless the
    // refusal came from __launch_bounds__ alone, which it is not told here.
    int expected = runtime_blocks;
    if (runtime_blocks < 0) {
      const bool launch_bounds_only =
          block > max_threads && occ.blocks_per_sm > 0 && static_shared + dynamic <= arch.shared_per_block_optin;
      if (launch_bounds_only) {
        ++agree;  // not a model question: the kernel's own bound
        ++bounds_only;
        continue;
      }
      expected = 0;
    } else {
      ++launchable;
    }
    if (occ.blocks_per_sm == expected)
      ++agree;
    else if (first_mismatch.empty())
      first_mismatch = line + " -> model " + std::to_string(occ.blocks_per_sm);
  }
  std::cout << rows << " configurations: " << launchable << " launchable, " << rows - launchable - bounds_only
            << " refused for registers or shared memory, " << bounds_only
            << " refused by __launch_bounds__ alone (not compared)\n";
  EXPECT_EQ(rows, 3840);
  EXPECT_GT(launchable, 3000);
  EXPECT_EQ(agree, rows) << "first mismatch: " << first_mismatch;
}

}  // namespace
}  // namespace regscope
