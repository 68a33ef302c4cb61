// What each vendor's figures are called where regscope prints them: one row
// per vendor, data only (the views, the gate's verdicts and explain read it;
// none of them branches on the vendor for a word). Adding a vendor adds a row.
#pragma once

#include "regscope/support/vendor.h"

namespace regscope {

// A chart axis: its heading, and the unit after a figure on it.
struct AxisWords {
  const char *title;  // "VGPRs per lane"
  const char *unit;   // "VGPRs", "threads", "bytes"
};

struct VendorWords {
  Vendor vendor;
  // The HTML summary's register row: "VGPRs (allocated)".
  const char *registers_label;
  // The explain heading's allocation: "VGPRs allocated" ("94 VGPRs allocated, 5/8 waves/SIMD").
  const char *registers_allocated;
  // The occupancy charts' axes: registers, block size, shared memory.
  AxisWords registers_axis, block_size_axis, shared_axis;
  // The spill figure in a gate verdict ("spill stores 0 -> 8 bytes") and the
  // unit the data formats give it in.
  const char *spills_name, *spills_unit, *spills_data_unit;
  // What a spill rule judges when the spill count was not read but the kernel's
  // per-thread local memory (the scratch figure) was: NVIDIA's stack frame
  // holds every spill beside local arrays, so local memory at or under a limit
  // has spills at or under it too. Null: the vendor's spill rule needs the count.
  const char *local_memory_for_spills;
  // The isa stage's three register counts: column headings (matrix null: the
  // vendor has none) and the words after a count ("94 VGPRs, 0 AGPRs, 20 SGPRs").
  const char *vector_column, *matrix_column, *scalar_column;
  const char *vector_word, *matrix_word, *scalar_word;
};

// The vendor's row (every Vendor has one).
const VendorWords &vendorWords(Vendor vendor);

}  // namespace regscope
