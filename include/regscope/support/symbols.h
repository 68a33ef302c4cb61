// Kernel names: Itanium demangling and the bare function name of a signature.
#pragma once

#include <string>

namespace regscope {

// The demangled name, or the input when it is not an Itanium name.
std::string demangle(const std::string &mangled);

// The unqualified function name of a demangled signature:
// "void ns::scale<float>(float*, int)" -> "scale".
std::string functionBaseName(const std::string &demangled);

}  // namespace regscope
