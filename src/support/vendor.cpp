#include "regscope/support/vendor.h"

namespace regscope {
namespace {

struct VendorName {
  Vendor vendor;
  const char *name;
};
constexpr VendorName kVendorNames[] = {{Vendor::Amd, "amd"}, {Vendor::Nvidia, "nvidia"}, {Vendor::Intel, "intel"}};

}  // namespace

Vendor defaultVendor() { return Vendor::Amd; }

const char *vendorName(Vendor vendor) {
  for (const VendorName &v : kVendorNames)
    if (v.vendor == vendor) return v.name;
  return "?";
}

std::optional<Vendor> vendorByName(std::string_view name) {
  for (const VendorName &v : kVendorNames)
    if (name == v.name) return v.vendor;
  return std::nullopt;
}

}  // namespace regscope
