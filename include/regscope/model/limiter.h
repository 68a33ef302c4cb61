// What limits a kernel's occupancy, for every vendor. Decisions switch on
// the enum; the names appear only in limiter.cpp's table (they are the
// strings of the JSON schema, the baseline and the tables).
#pragma once

namespace regscope {

enum class Limiter {
  None,        // at the maximum
  Vgpr,        // AMD
  Sgpr,
  Lds,
  Workgroup,   // AMD: workgroup slots (the workgroup size alone)
  Registers,   // NVIDIA
  Shared,
  Warps,
  Blocks,
  Barriers,
  Invalid,     // NVIDIA: the launch cannot run
  Unresolved,  // AMD LLVM 20+: figures open until link
};

const char *limiterName(Limiter limiter);

}  // namespace regscope
