// regscope wrap around nvcc: which commands are device compiles, the flag
// added (-Xptxas -v: ptxas's figures, which change no code), how its lines
// are taken back out of the build's stderr, and the records of one compile,
// read from the cubins inside the object nvcc wrote (.nv_fatbin) joined with
// ptxas's spill bytes, which a cubin does not record.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "regscope/collect/collect.h"
#include "regscope/source/compile_command.h"

namespace regscope {

// A compile command whose compiler (after ccache, env and the like) is nvcc:
// device is true for `-c` of one CUDA source (.cu, or any with -x cu) to an
// object (-o). Not device compiles: -E, -M/-MM without an object, -ptx,
// -cubin, -fatbin, -dc / -rdc=true (the figures exist only at the device
// link), -dlink, -lib, -run, and host-only sources. remarks_asked: the command
// already has ptxas's -v (-Xptxas -v, --ptxas-options=-v, --resource-usage).
// archs: the sm_NN the command names, in order. Not nvcc: device false.
WrappedCompile readNvccCompileCommand(const std::vector<std::string> &argv);

// The words regscope adds to an nvcc device compile.
inline const std::vector<std::string> kPtxasVerboseFlags = {"-Xptxas", "-v"};

// nvcc's stderr split in two: what it would have printed without -Xptxas -v
// (returned, byte for byte) and the ptxas info lines -v added (`ptxas`).
std::string splitPtxasInfo(std::string_view diagnostics, std::string &ptxas);

// One nvcc compile's records: each cubin in `object` (a host object with
// .nv_fatbin, or a cubin/fatbin when -o names one) gives its arch's figures;
// `ptxas` (its -v text) adds the spill bytes; kernels are placed at their
// declaration in the source or the project headers it read (as analyze
// finds them). Throws regscope::Error when the object holds no NVIDIA kernels.
CollectedRun collectNvccObject(std::string_view ptxas, std::string_view object, const std::vector<std::string> &archs,
                               const std::string &compiled_source, const SourceReader &read);

}  // namespace regscope
