// The AMD backend's model of one kernel: the occupancy on its row, the
// compiler's own printed figure against regscope's model of that compiler,
// and the gfx908 hidden-AGPR-spill finding. Types only (ModelledKernel holds
// one of these: include/regscope/backend/modelled_kernel.h).
#pragma once

#include <optional>
#include <string>

#include "regscope/backends/amd/amdgpu_occupancy.h"
#include "regscope/target/amdgpu.h"

namespace regscope {

// The compiler's own printed occupancy against regscope's models.
// The compiler knows only what it compiled: the kernel's maximum workgroup
// size and its static LDS. regscope models it with those, and its own figure
// with the launch.
struct CompilerFigure {
  int printed = 0;                                // what the compiler printed
  CompilerModel model = CompilerModel::Hardware;  // the compiler generation regscope modelled
  int expected = 0;                               // what that model gives: equal to `printed` when understood
  int waves_per_workgroup = 0;                    // at the compiler's workgroup size, for LLVM 15's LDS rule
  int compile_block_size = 0;                     // the workgroup size the compiler assumed (its maximum)
  bool launch_differs = false;                    // the launch's size or dynamic LDS is not what the compiler saw
  int hardware_at_compile = 0;                    // the hardware's figure for what the compiler saw
  // Each term (VGPR, SGPR, LDS/workgroup) for what the compiler saw, the
  // compiler's way and the hardware's way: the note names the terms that differ.
  Occupancy compiler_terms;
  Occupancy hardware_terms;
};

struct AmdKernelModel {
  AmdArch arch;         // the row as the kernel runs: its wave size and WGP/CU mode
  Occupancy occupancy;  // empty when unresolved
  std::optional<CompilerFigure> compiler;
  // gfx908 without MFMA: the compiler parks VGPRs in the separate AGPR file
  // and copies them back and forth; "VGPRs Spill" still says 0.
  bool hidden_agpr_spills = false;
  // A register or LDS figure is an LLVM 20+ expression over symbols defined in
  // another translation unit: no occupancy until link (record.unresolved).
  bool unresolved = false;
  KernelResources resources;  // as the model saw them: the launch applied (empty when unresolved)
  // Why one workgroup of the assumed launch can never be resident on a CU (its
  // waves need more VGPRs or SGPRs than a SIMD has): the launch cannot run
  // (occupancy.limiter is Invalid). The figures themselves are possible: a
  // smaller launch runs. Empty otherwise.
  std::string not_resident;
};

}  // namespace regscope
