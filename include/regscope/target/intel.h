// Intel GPUs as data: one row per Xe device family that Intel's offline
// compiler ocloc compiles for, each number with its source in
// intel_targets.cpp (docs/intel.md has the table and the sources). The Xe
// occupancy rules over these rows are in model/intel_occupancy.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "regscope/support/vendor.h"

namespace regscope {

// The register-file mode a kernel is compiled for. Small is IGC's default,
// 128 GRF registers per hardware thread; Large is 256; Auto lets IGC pick
// per kernel.
enum class GrfMode { Small, Large, Auto };
const char *grfModeName(GrfMode mode);  // "small", "large", "auto"
std::optional<GrfMode> grfModeByName(std::string_view name);
// The ocloc -options word that selects the mode ("" for Small). ocloc 22.43
// treats -ze-opt-large-register-file exactly as -cl-intel-256-GRF-per-thread.
const char *grfModeOption(GrfMode mode);

// The device regscope assumes for a .cl or .spv file when none is given:
// seed 002's Data Center GPU Max.
inline constexpr const char *kDefaultIntelDevice = "pvc";

struct IntelDevice {
  static constexpr Vendor vendor = Vendor::Intel;  // every row's
  std::string_view name;                           // the row, and an ocloc -device name: "pvc"
  std::vector<std::string_view> ocloc_names;       // ocloc's other -device names for it: "dg2-g10", "acm-g10"
  std::vector<std::string_view> products;          // "Max 1550", "Arc A770": regscope maps them to `name`
  std::string_view family;                         // "Xe-HPC"
  int eus_per_xe_core;                             // EUs per Xe-core (sub-slice / dual sub-slice)
  int threads_per_eu;                              // hardware threads per EU in small GRF mode
  int threads_per_eu_large;                        // in large GRF mode; 0: the device has no large mode
  int grf_bytes;                                   // bytes per GRF register
  int grf_small, grf_large;                        // GRF registers per thread in each mode
  std::vector<int> simd_widths;
  int slm_per_xe_core;             // bytes
  int slm_per_work_group;          // bytes: the most one work-group may have
  std::vector<int> slm_steps_kib;  // a work-group's SLM is allocated in these sizes
  int max_work_group_size;
  int max_work_groups_per_xe_core;
  int barriers_per_xe_core;   // barrier registers
  std::vector<int> xe_cores;  // Xe-cores of the products (for information)
};

const std::vector<IntelDevice> &intelDevices();
// By row name, ocloc name or product ("pvc", "acm-g10", "Max 1550"),
// case-insensitive; nullptr if unknown.
const IntelDevice *findIntelDevice(std::string_view name);
// findIntelDevice, or regscope::Error "unknown Intel device 'X'; known: ..." listing them.
const IntelDevice &requireIntelDevice(std::string_view name);
// "pvc (Max 1100/Max 1450/Max 1550), dg2 (...), ...; ocloc also calls them dg2-g10, ..."
std::string knownIntelDeviceList();
// The device a zebin was compiled for, from the product-family number in its
// .note.intelgt.compat (note type 1): an ocloc -device name ("pvc", "dg2", "tgllp", "rkl", ...),
// or nullopt for a number regscope has not measured.
std::optional<std::string_view> intelDeviceByProductFamily(int family);
// What ocloc's -device gets for `name`: the name itself where ocloc knows it,
// the row's name for a product name.
std::string oclocDeviceName(std::string_view name);

// A kernel record's arch for Intel: the device as the user named it, with the
// GRF mode after a colon unless it is the default (small): "pvc",
// "pvc:large-grf", "pvc:auto-grf". Small and large GRF compiles of one
// kernel are two records, as two AMD archs are, so baselines and the gate
// tell them apart.
struct IntelTarget {
  std::string device;
  GrfMode grf = GrfMode::Small;
};
std::string intelTargetName(const IntelTarget &target);
// The inverse; a suffix it does not know leaves it in the device name.
IntelTarget parseIntelTarget(std::string_view arch);

}  // namespace regscope
