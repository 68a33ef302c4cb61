// The AMD backend's driver: hipcc or a HIP-capable clang++.
#pragma once

#include <string>

#include "regscope/driver/driver.h"

namespace regscope {

// Where the compiler is: --compiler, then $HIPCC, then `hipcc` on PATH.
// Throws regscope::Error naming where it looked.
std::string findHipCompiler(const std::string &explicit_path);

// hipcc (or a HIP-capable clang++) once for every arch.
CompileOutput compileHip(const CompileJob &job);

}  // namespace regscope
