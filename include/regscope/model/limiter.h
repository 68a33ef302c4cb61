// What limits a kernel's occupancy, for every vendor. Decisions switch on
// the enum; the names appear only in limiter.cpp's table (they are the
// strings of the JSON schema, the baseline and the tables).
#pragma once

namespace regscope {

enum class Limiter {
  None,  // at the maximum
  Vgpr,  // AMD
  Sgpr,
  Lds,
  Workgroup,  // AMD, Intel: workgroup slots (the workgroup size alone)
  Registers,  // NVIDIA
  Shared,
  Warps,
  Blocks,
  Barriers,
  Invalid,      // NVIDIA, Intel: the launch cannot run
  Unresolved,   // AMD LLVM 20+: figures open until link
  ThreadSlots,  // Intel: hardware threads per Xe-core (the GRF mode's); Workgroup: work-group slots
  Slm,
  Unknown,  // a figure the model needs was not read: no occupancy (ModelledKernel::unknown)
};

const char *limiterName(Limiter limiter);

}  // namespace regscope
