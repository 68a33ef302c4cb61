#include "regscope/backends/nvidia/calculator.h"

#include "regscope/support/error.h"

namespace regscope {

CudaOccupancy calculateCudaOccupancy(const CudaArch &arch, const CudaResources &r) {
  if (r.registers < 0 || r.registers > arch.max_registers_per_thread)
    throw Error("--registers " + std::to_string(r.registers) + " is outside 0.." +
                std::to_string(arch.max_registers_per_thread) + " on " + std::string(arch.name));
  if (r.block_size < 1 || r.block_size > arch.max_threads_per_block)
    throw Error("--block-size " + std::to_string(r.block_size) + " is outside 1.." +
                std::to_string(arch.max_threads_per_block) + " on " + std::string(arch.name));
  if (r.static_shared < 0 || r.dynamic_shared < 0) throw Error("shared memory sizes cannot be negative");
  return computeCudaOccupancy(arch, r);
}

}  // namespace regscope
