// Which named files are headers: analysed (and gated) through the sources
// that include them, never compiled on their own.
#pragma once

#include <string>

namespace regscope {

// A header by its extension (.h .hh .hpp .hxx .cuh .inl .inc).
bool isHeader(const std::string &file);

}  // namespace regscope
