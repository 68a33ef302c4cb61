// Kernel names: Itanium demangling and the bare function name of a signature.
#pragma once

#include <string>
#include <vector>

namespace regscope {

// The demangled name, or the input when it is not an Itanium name.
std::string demangle(const std::string &mangled);

// The unqualified function name of a demangled signature:
// "void ns::scale<float>(float*, int)" -> "scale".
std::string functionBaseName(const std::string &demangled);

// Every name a user may call a kernel by, read from its symbol with LLVM's
// ItaniumPartialDemangler: "_ZN2ns5scaleIfEEvPfi" -> the symbol, the signature
// "void ns::scale<float>(float*, int)", "ns::scale<float>", "scale<float>",
// "ns::scale", "scale". A symbol that is not an Itanium name (extern "C") is
// its only name.
std::vector<std::string> kernelNames(const std::string &mangled);

// Whether `wanted` is one of kernelNames(mangled).
bool namesKernel(const std::string &wanted, const std::string &mangled);

}  // namespace regscope
