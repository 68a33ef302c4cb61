// The vendors' words, one row each (target/vendor_words.h).
#include "regscope/target/vendor_words.h"

#include <iterator>

namespace regscope {
namespace {

const VendorWords kVendorWords[] = {
    {Vendor::Amd,
     "VGPRs (allocated)",
     "VGPRs allocated",
     // axes
     {"VGPRs per lane", "VGPRs"},
     {"Workgroup size", "threads"},
     {"LDS per workgroup", "bytes"},
     // spills
     "spills",
     "registers",
     "registers",
     nullptr,
     // isa register counts
     "VGPR",
     "AGPR",
     "SGPR",
     "VGPRs",
     "AGPRs",
     "SGPRs"},
    {Vendor::Nvidia,
     "Registers per thread",
     "registers allocated",
     {"Registers per thread", "registers"},
     {"Block size", "threads"},
     {"Shared memory per block", "bytes"},
     "spill stores",
     "bytes",
     "bytes",
     "local memory (spills or local arrays)",
     "REG",
     nullptr,
     "UREG",
     "registers",
     nullptr,
     "uniform registers"},
    {Vendor::Intel,
     "GRF per thread",
     "registers allocated",
     {"GRF registers per thread (GRF mode)", "GRF"},
     {"Work-group size", "work-items"},
     {"SLM per work-group", "bytes"},
     "spills",
     "bytes/thread",
     "bytes",
     nullptr,
     // The isa stage reads no Intel assembly yet: AMD's names, as before.
     "VGPR",
     "AGPR",
     "SGPR",
     "VGPRs",
     "AGPRs",
     "SGPRs"},
};

}  // namespace

const VendorWords &vendorWords(Vendor vendor) {
  for (const VendorWords &row : kVendorWords)
    if (row.vendor == vendor) return row;
  return kVendorWords[0];  // unreachable: every Vendor has a row (tests/vendor_words_test.cpp)
}

}  // namespace regscope
