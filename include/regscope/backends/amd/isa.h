// The AMD backend's isa reader: the .s through LLVM's MC layer
// (include/regscope/isa/isa.h has the method and the report).
#pragma once

#include <string_view>

#include "regscope/isa/isa.h"

namespace regscope {

// AMD: `assembly` is an AMDGPU .s as hipcc/clang write it; `arch` the target
// ("gfx90a", "gfx908", "gfx90a:xnack-"). Throws regscope::Error when the arch is
// unknown to LLVM 15 or the text holds no AMDGPU instruction at all.
IsaReport analyzeAmdgpuAssembly(std::string_view assembly, std::string_view arch, const IsaOptions &options = {});

}  // namespace regscope
