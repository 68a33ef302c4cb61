// Warnings said once per cause: many kernels or files with the same cause
// ("X: spill stores and loads are not recorded in a cubin", once per cubin of
// a 631-entry Triton cache) become one line with the count and the first few
// subjects. The subject is what comes before a warning's first ": " (a file,
// an entry or a kernel); the cause is the rest.
#pragma once

#include <string>
#include <vector>

namespace regscope {

// The warnings to print, in the order each cause was first given: a cause
// given once is its warning unchanged; one given N > 1 times is
// "A, B, C and N-3 more (N in all): cause". A warning repeated word for word is said once.
// `lead`, when every subject of a group starts with it ("cannot judge kernel "),
// is said once before the names instead of before each.
std::vector<std::string> saidOnce(const std::vector<std::string> &warnings, std::size_t named = 3,
                                  const std::string &lead = "");

}  // namespace regscope
