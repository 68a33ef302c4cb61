// The phrases every view and every backend's description share: how a kernel
// name, a byte count, a location and a next step read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace regscope {

// A kernel name for one line of text: the demangled signature, with a long
// parameter list elided ("kernel(...)"), then a long template argument list
// shortened from its middle, keeping its first and last arguments
// ("mul_mat_vec_q<(ggml_type)2, ..., false>(...)").
std::string shortKernelName(const std::string &demangled);

// Names (a table's column of signatures) shortened to `width` characters
// each (0: as they are), keeping siblings distinct: of template
// instantiations of the same name, the arguments in which they differ stay
// and runs of the others become "..."; the parameter list becomes "(...)". Two
// different names never shorten to the same text: a name that would collide
// keeps a longer form, else the part around where it differs, else that part
// with "~1", "~2" after it in the order of the whole names (`numbered` says
// so). A name that is there several times (a row per arch) reads one way.
std::vector<std::string> shortenNames(const std::vector<std::string> &names, std::size_t width,
                                      bool *numbered = nullptr);

// "64 KiB" for whole KiB, else the byte count.
std::string bytesText(std::int64_t n);
// A workgroup's memory as static + dynamic, compact for a table column
// ("0+32K", "8K+32K", "0+48B"; "0+?" when the launch's dynamic size was not
// read); `dynamic_unread` wins over `dynamic`. Without dynamic memory: bytesText.
std::string staticPlusDynamic(std::int64_t static_bytes, std::int64_t dynamic, bool dynamic_unread);

// "dir/k.hip:12", "dir/k.hip" without a line, "?" without a file.
std::string locationText(const std::string &file, int line);

// "free 6 VGPRs + free 2 SGPRs -> 5 waves/SIMD": what must go (`frees`) for
// the next step, and the occupancy it reaches in `unit`.
std::string stepText(const std::vector<std::string> &frees, int target, const char *unit);

}  // namespace regscope
