// A build's compile command as regscope wrap sees it: which program is the
// compiler (behind launchers such as ccache), whether it compiles device code
// to an object, and which object, source and targets.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "regscope/support/vendor.h"

namespace regscope {

struct WrappedCompile {
  bool device = false;  // a HIP compile of one source to an object (-c -o OBJ)
  Vendor vendor = defaultVendor();
  std::size_t compiler = 0;        // argv index of the compiler (after ccache, sccache, distcc, icecc, env)
  std::string source;              // as the command names it
  std::string object;              // -o's value, as the command names it
  std::vector<std::string> archs;  // --offload-arch values (comma lists split), in order
  bool remarks_asked = false;      // the command already has -Rpass-analysis=kernel-resource-usage
  std::string why_not;             // device == false: why (for --verbose); empty for plain non-device compiles
};

// Reads a compile command. Device compiles are HIP ones: a .hip source, -x
// hip, or hipcc compiling a C++ source (.cpp, .cc, .cxx, .cu: hipcc compiles
// them as HIP). Not device compiles: no -c, preprocessing (-E, -M, -MM
// without -MD), -S, -fsyntax-only, --cuda-host-only (--offload-host-only), -fgpu-rdc (the figures
// exist only at the device link), a C source, and any other compiler.
WrappedCompile readCompileCommand(const std::vector<std::string> &argv);

// Where the compiler stands in a launcher's command: after ccache, sccache, distcc, icecc,
// buildcache and env (with env's NAME=VALUE words); argv.size() when nothing follows them.
std::size_t compilerPosition(const std::vector<std::string> &argv);

// The flag regscope adds to a device compile: the remarks on stderr.
inline constexpr const char *kResourceRemarkFlag = "-Rpass-analysis=kernel-resource-usage";

}  // namespace regscope
