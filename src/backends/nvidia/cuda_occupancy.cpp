// The CUDA occupancy model: blocks per SM is the smallest of the limits set
// by warps, blocks, registers, shared memory and barriers. Registers are
// allocated per warp in units of 256 and per quarter SM (sub-partition), so
// the register limit floors twice; shared memory includes the driver's 1 KiB
// per block (CC 8.0+). Inverse questions search the forward functions.
#include <algorithm>
#include <climits>

#include "regscope/backends/nvidia/cuda_occupancy.h"

namespace regscope {
namespace {

int roundUp(int value, int granule) { return (value + granule - 1) / granule * granule; }
int divideCeil(int a, int b) { return (a + b - 1) / b; }

int warpsPerBlock(int block_size) { return divideCeil(std::max(block_size, 1), 32); }

int blocksByBarriers(const CudaArch &arch, int barriers) {
  if (arch.barrier_blocks_factor == 0 || barriers <= 0) return INT_MAX;
  return arch.max_blocks_per_sm * arch.barrier_blocks_factor / barriers;
}

struct Limits {
  int warps, blocks, registers, shared, barriers;
  int min() const { return std::min({warps, blocks, registers, shared, barriers}); }
};
Limits limitsFor(const CudaArch &arch, const CudaResources &r);

}  // namespace

int cudaBlocksByRegisters(const CudaArch &arch, int registers, int block_size) {
  if (registers <= 0) return INT_MAX;
  if (registers > arch.max_registers_per_thread) return 0;
  const int warps = warpsPerBlock(block_size);
  const int per_warp = roundUp(registers * 32, arch.register_alloc_unit);
  // The hardware check assumes allocation on every sub-partition at once.
  if (per_warp * roundUp(warps, arch.sub_partitions) > arch.registers_per_block) return 0;
  if (per_warp * warps > arch.registers_per_block) return 0;
  const int warps_per_partition = (arch.registers_per_sm / arch.sub_partitions) / per_warp;
  return warps_per_partition * arch.sub_partitions / warps;
}

// The smallest carveout step of at least `bytes`, or the largest step.
int carveoutStep(const CudaArch &arch, int bytes) {
  for (int kib : arch.carveout_kib)
    if (kib * 1024 >= bytes) return kib * 1024;
  return arch.carveout_kib.back() * 1024;
}

int cudaBlocksByShared(const CudaArch &arch, int shared_bytes, int carveout_percent) {
  if (shared_bytes > arch.shared_per_block_optin) return 0;
  const int per_block = roundUp(std::max(shared_bytes, 0) + arch.shared_reserved_per_block, arch.shared_granule);
  // CC 7.5 reserves nothing per block: a block without shared memory takes none.
  if (per_block == 0) return INT_MAX;
  // The SM's shared memory: the largest carveout by default; else the preferred
  // percentage rounded up to a step, and never less than one block needs.
  int per_sm = arch.shared_per_sm;
  if (carveout_percent >= 0) {
    per_sm = carveoutStep(arch, static_cast<int>(static_cast<long long>(carveout_percent) * arch.shared_per_sm / 100));
    if (per_sm < per_block) per_sm = carveoutStep(arch, per_block);
  }
  return per_sm / per_block;
}

namespace {
// Static plus dynamic shared memory, each up to INT_MAX from the command
// line: summed in 64 bits and saturated (anything that large fits no SM).
int sharedBytes(const CudaResources &r) { return cudaSharedBytesSaturated(r); }

Limits limitsFor(const CudaArch &arch, const CudaResources &r) {
  return {arch.max_warps_per_sm / warpsPerBlock(r.block_size), arch.max_blocks_per_sm,
          cudaBlocksByRegisters(arch, r.registers, r.block_size),
          cudaBlocksByShared(arch, sharedBytes(r), r.carveout_percent), blocksByBarriers(arch, r.barriers)};
}
}  // namespace

CudaOccupancy computeCudaOccupancy(const CudaArch &arch, const CudaResources &r) {
  CudaOccupancy occ;
  occ.max_warps_per_sm = arch.max_warps_per_sm;
  if (r.block_size < 1 || r.block_size > arch.max_threads_per_block) {
    occ.limiter = Limiter::Invalid;
    occ.invalid = CudaOccupancy::Invalid::BlockSize;
    return occ;
  }
  const int warps = warpsPerBlock(r.block_size);
  const int shared = sharedBytes(r);
  const Limits limits = limitsFor(arch, r);
  occ.by_warps = limits.warps;
  occ.by_blocks = limits.blocks;
  occ.by_registers = limits.registers;
  occ.by_shared = limits.shared;
  occ.by_barriers = limits.barriers;
  occ.blocks_per_sm = limits.min();
  occ.warps_per_sm = occ.blocks_per_sm * warps;
  occ.fraction = static_cast<double>(occ.warps_per_sm) / arch.max_warps_per_sm;

  if (occ.blocks_per_sm == 0) {
    occ.limiter = Limiter::Invalid;
    occ.invalid = occ.by_registers == 0 ? CudaOccupancy::Invalid::Registers : CudaOccupancy::Invalid::Shared;
    return occ;
  }
  const int b = occ.blocks_per_sm;
  // On a tie the first of: registers, shared, warps, blocks, barriers (docs/testing.md "Limiter ties").
  occ.limiter = occ.warps_per_sm == arch.max_warps_per_sm ? Limiter::None
                : occ.by_registers == b                   ? Limiter::Registers
                : occ.by_shared == b                      ? Limiter::Shared
                : occ.by_warps == b                       ? Limiter::Warps
                : occ.by_blocks == b                      ? Limiter::Blocks
                                                          : Limiter::Barriers;

  // One more block: reachable by registers or shared memory only if warps,
  // block slots and barriers allow it.
  const int target = b + 1;
  if (std::min({occ.by_warps, occ.by_blocks, occ.by_barriers}) >= target) {
    int registers_ok = r.registers;
    while (registers_ok > 0 && cudaBlocksByRegisters(arch, registers_ok, r.block_size) < target) --registers_ok;
    int shared_ok = shared;
    while (shared_ok > 0 && cudaBlocksByShared(arch, shared_ok, r.carveout_percent) < target) --shared_ok;
    const bool registers_reach = cudaBlocksByRegisters(arch, std::max(registers_ok, 0), r.block_size) >= target;
    const bool shared_reach = cudaBlocksByShared(arch, shared_ok, r.carveout_percent) >= target;
    if (registers_reach && shared_reach)
      occ.next = CudaNextStep{target, r.registers - registers_ok, shared - shared_ok};
  }

  // The largest block size (a multiple of 32) that keeps as many warps per SM.
  for (int size = arch.max_threads_per_block; size >= 32; size -= 32) {
    CudaResources bigger = r;
    bigger.block_size = size;
    if (limitsFor(arch, bigger).min() * warpsPerBlock(size) >= occ.warps_per_sm) {
      occ.largest_block_same_occupancy = size;
      break;
    }
  }
  return occ;
}

std::vector<CudaTableRow> cudaRegisterTable(const CudaArch &arch, int block_size) {
  std::vector<CudaTableRow> rows;
  const int warps = warpsPerBlock(block_size);
  for (int registers = 1; registers <= arch.max_registers_per_thread; ++registers) {
    CudaResources r;
    r.registers = registers;
    r.block_size = block_size;
    r.barriers = 0;  // registers and warps alone
    Limits limits = limitsFor(arch, r);
    const int blocks = std::min({limits.warps, limits.blocks, limits.registers});
    if (!rows.empty() && rows.back().blocks_per_sm == blocks)
      rows.back().max_registers = registers;
    else
      rows.push_back({registers, registers, blocks, blocks * warps});
  }
  return rows;
}

}  // namespace regscope
