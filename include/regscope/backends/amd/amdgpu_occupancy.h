// The AMD occupancy model: resources + arch + launch -> waves per SIMD, the
// limiting resource, and what it takes to reach the next step. It combines
// the per-resource rules of target/amdgpu.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "regscope/model/limiter.h"
#include "regscope/target/amdgpu.h"

namespace regscope {

// What the model needs to know about one kernel.
struct KernelResources {
  int vgprs = 0;  // architectural
  int agprs = 0;
  int vgprs_total = 0;  // 0: derive from vgprs/agprs by the arch's AGPR rule
  int sgprs = 0;        // incl. extras: what the code uses (the compiler's count)
  // gfx9: what the kernel descriptor allocates (0: not read). The hardware
  // counts it where it exceeds the use (amdgpu-waves-per-eu padding, the
  // assembler's XNACK pair); the compilers' figures count the use.
  int sgprs_allocated = 0;
  int lds_bytes = 0;  // static + dynamic, per workgroup
  int workgroup_size = 1024;
};

// Whose figure to compute: the hardware's (regscope's own), or what a
// compiler generation prints in its remarks. LLVM 16-22 spread a workgroup's
// waves over the SIMDs but do not round LDS to its allocation granule (LLVM 23
// does); LLVM 15 did neither and did not know the 1.5x register file of
// gfx1100/gfx1200.
enum class CompilerModel { Hardware, Llvm15, Llvm19 };

struct NextStep {
  int waves_per_simd = 0;  // what is reached once the resources below are freed
  int waves_per_cu = 0;
  int vgprs_to_free = 0;  // 0 when VGPRs already allow it
  int sgprs_to_free = 0;
  int lds_bytes_to_free = 0;
};

struct Headroom {
  int vgprs = 0;  // VGPRs that can be added before occupancy drops a step
  int sgprs = 0;
  int lds_bytes = 0;
  bool sgprs_can_limit = false;  // more SGPRs could lower occupancy (gfx9)
};

struct Occupancy {
  int waves_per_simd = 0;
  int max_waves_per_simd = 0;
  Limiter limiter = Limiter::None;  // Vgpr, Sgpr, Lds, Workgroup or None
  int by_vgpr = 0;
  int by_sgpr = 0;
  int by_lds = 0;                      // LDS together with the workgroup-slot limit
  int by_workgroup = 0;                // workgroup slots alone (LDS 0)
  int vgprs_total = 0;                 // the count the VGPR term used
  int sgprs_total = 0;                 // the count the SGPR term used
  bool sgprs_from_descriptor = false;  // sgprs_total is the kernel descriptor's allocation
  // Waves per CU (WGP on RDNA), the exact figure when a workgroup has fewer
  // waves than the CU has SIMDs (counts_per_cu): one 1-wave workgroup per CU
  // is 1 of 32 wave slots, though it shows as 1 wave/SIMD. Then the limiter
  // and the next step are in waves per CU.
  int waves_per_cu = 0;
  int max_waves_per_cu = 0;
  bool counts_per_cu = false;
  std::optional<NextStep> next;  // none when at the maximum or out of reach
  Headroom headroom;
};

// The VGPRs a wave of `r` is allocated: the record's total (the unified file's
// allocation) when it has one, else the arch and accumulation VGPRs as the
// target counts them.
int allocatedVgprs(const AmdArch &arch, const KernelResources &r);

// The SGPRs the hardware counts for a wave of `r`: the descriptor's allocation
// when it exceeds the use.
int allocatedSgprs(const KernelResources &r);

// Why one workgroup of `r` can never be resident on a CU (its waves need more
// slots per SIMD than its VGPRs or SGPRs leave: a launch that cannot run), or
// "" when it can. The compiler's flat-workgroup-size bound prevents this for
// the size a kernel was compiled for; a launch given with --block-size, or a
// record read for another arch, can meet it.
std::string workgroupNotResident(const AmdArch &arch, const KernelResources &r);

Occupancy computeOccupancy(const AmdArch &arch, const KernelResources &r, TermRule rule = TermRule::Hardware);

// The occupancy `model` would print for these resources.
Occupancy computeOccupancyAs(const AmdArch &arch, const KernelResources &r, CompilerModel model);

// The model a compiler's version string implies ("clang version 15.0.6" ->
// Llvm15); Hardware when unknown.
CompilerModel compilerModelFor(const std::string &version);

}  // namespace regscope
