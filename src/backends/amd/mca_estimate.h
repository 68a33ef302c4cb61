// A static cycle estimate per basic block from LLVM 15's MCA library, set up
// as `llvm-mca -mtriple=amdgcn-amd-amdhsa -mcpu=<arch> -iterations=1` sets it
// up: the AMDGPU scheduling model, its InstrPostProcess and CustomBehaviour
// (s_waitcnt waits for the counters of the instructions in flight).
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/MC/MCInst.h>

#include <memory>

#include "mc_reader.h"

namespace regscope::isa_detail {

struct BlockCycles {
  bool estimated = false;
  long cycles = 0;
  double ipc = 0;
  int unmodelled = 0;  // instructions MCA could not lower (left out of the block)
};

class McaEstimator {
 public:
  explicit McaEstimator(const AmdgpuTarget &target);
  ~McaEstimator();
  bool available() const { return available_; }
  // One pass of one wave through the block, starting with nothing in flight.
  BlockCycles estimate(llvm::ArrayRef<llvm::MCInst> block);

 private:
  struct State;
  const AmdgpuTarget &target_;
  std::unique_ptr<State> state_;
  bool available_ = false;
};

}  // namespace regscope::isa_detail
