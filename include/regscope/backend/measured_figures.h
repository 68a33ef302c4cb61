// What advise measures of one kernel on one arch, before and after an edit:
// the figures of a backend that compiles edited text (Backend::
// compilesEditedText; today AMD's, whose model they name). The backend fills
// it (Backend::measuredFigures); advise compares two of them.
#pragma once

#include <optional>
#include <string>

#include "regscope/model/limiter.h"

namespace regscope {

struct KernelFigures {
  std::string mangled;
  std::string demangled;
  std::string arch;
  std::string file;  // as the user should read it
  int line = 0;      // declaration line in the text that was compiled
  int vgprs = 0;     // architectural
  int agprs = 0;
  int vgprs_total = 0;  // what occupancy counts (unified file, padding)
  int sgprs = 0;
  int vgpr_spills = 0;
  int sgpr_spills = 0;
  int scratch_bytes = 0;  // per lane
  // Spill accesses inside loops (Field::LoopSpills); nullopt when not read:
  // compared only where both sides of a change read it.
  std::optional<int> loop_spills;
  int lds_bytes = 0;
  int waves_per_simd = 0;  // the model's occupancy
  int max_waves_per_simd = 0;
  std::optional<int> next_waves;    // the model's next step, if reachable
  Limiter limiter = Limiter::None;  // what limits the occupancy (the model's)
  int workgroup_size = 0;           // the one the model assumed
  // The next step's price when registers alone cannot take it: the LDS per
  // workgroup that reaches it (and the VGPRs/SGPRs it also needs, 0 if none).
  std::optional<int> next_lds_bytes;
  int next_vgprs_to_free = 0, next_sgprs_to_free = 0;
};

}  // namespace regscope
