// The NVIDIA model's figures in words: the next step and why a launch cannot run.
#include "regscope/backends/nvidia/phrases.h"

#include "regscope/describe/phrases.h"

namespace regscope {

std::string cudaInvalidText(const CudaOccupancy &occ, const CudaArch &arch, const CudaResources &r, int bound) {
  switch (occ.invalid) {
    case CudaOccupancy::Invalid::LaunchBounds:
      return "a block of " + std::to_string(r.block_size) + " threads exceeds the kernel's __launch_bounds__(" +
             std::to_string(bound) + ")";
    case CudaOccupancy::Invalid::BlockSize:
      return "block size " + std::to_string(r.block_size) + " is outside 1.." +
             std::to_string(arch.max_threads_per_block);
    case CudaOccupancy::Invalid::Registers:
      return std::to_string(r.registers) + " registers x " + std::to_string(r.block_size) +
             " threads exceed a block's registers";
    case CudaOccupancy::Invalid::Shared:
      return std::to_string(cudaSharedBytes(r)) + " bytes of shared memory exceed a block's " +
             std::to_string(arch.shared_per_block_optin);
    case CudaOccupancy::Invalid::None:
      break;
  }
  return "";
}

std::string cudaNextStepText(const CudaOccupancy &occ, const CudaArch &arch, const CudaResources &r, int bound) {
  if (occ.limiter == Limiter::Invalid) return "cannot launch: " + cudaInvalidText(occ, arch, r, bound);
  if (!occ.next)
    return occ.warps_per_sm == occ.max_warps_per_sm ? "at maximum"
                                                    : std::string("none: ") + limiterName(occ.limiter) + " cap it";
  std::vector<std::string> parts;
  if (occ.next->registers_to_free)
    parts.push_back("free " + std::to_string(occ.next->registers_to_free) + " regs");  // REGS, as the table heads it
  if (occ.next->shared_to_free) parts.push_back("free " + std::to_string(occ.next->shared_to_free) + " B shared");
  return stepText(parts, occ.next->blocks_per_sm, "blocks/SM");
}

}  // namespace regscope
