// A device code object (.hsaco, .co) turned back into the assembly text the
// isa reader (isa.h) reads: each kernel's machine code disassembled and
// printed, with the .file and .loc directives its .debug_line table gives.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace regscope {

// The assembly of the AMDGPU device ELF `bytes` for `arch` (the CPU LLVM
// reads it as, "gfx940"). Empty when the bytes are no device ELF (an offload
// bundle, a host object) or have no .debug_line: there are no lines to name.
// Throws Error for an ELF that cannot be read or an arch LLVM does not know.
std::optional<std::string> assemblyOfCodeObject(std::string_view bytes, const std::string &arch);

}  // namespace regscope
