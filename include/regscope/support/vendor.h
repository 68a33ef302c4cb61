// The GPU vendors regscope knows. Decisions that differ by vendor switch on
// this enum; its names appear only in the table in vendor.cpp.
#pragma once

#include <optional>
#include <string_view>

namespace regscope {

enum class Vendor { Amd, Nvidia, Intel };

// The vendor a record, summary, chart or compile is of until its reader or
// backend says otherwise (vendor.cpp: the one place that names it).
Vendor defaultVendor();

// The vendor's name in JSON, baselines and the cache (the table in vendor.cpp).
const char *vendorName(Vendor vendor);
std::optional<Vendor> vendorByName(std::string_view name);

}  // namespace regscope
