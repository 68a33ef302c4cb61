// Intel Xe devices as data. Sources, cited per number:
//   [guide]  oneAPI GPU Optimization Guide, "Small Register Mode vs. Large Register Mode" (seed 002)
//   [calc]   Intel's GPU Occupancy Calculator, oneapi-src/oneAPI-samples
//            Tools/GPU-Occupancy-Calculator/index.html (the device table and compute_ss_occupancy)
//   [neo]    intel/compute-runtime: hw_cmds_<product>.h (maxEuPerSubslice, threadsPerEu),
//            hw_info_<product>.cpp (capabilityTable.slmSize),
//            gfx_core_helper_<family>.cpp (calculateAvailableThreadCount, computeSlmValues),
//            getMaxBarrierRegisterPerSlice() = 32 from Gen9 on
//   [ocloc]  measured with Debian 12's ocloc 22.43 (fixtures/ocloc-22.43)
// Gen9 and Gen11 devices (skl ... icllp), which ocloc also knows, have no
// row: the calculator and compute-runtime disagree on their SLM granularity
// (1 KiB steps against a 4 KiB minimum), and nothing here can settle it.
#include <algorithm>
#include <cctype>

#include "arch_list.h"
#include "regscope/support/error.h"
#include "regscope/target/intel.h"

namespace regscope {
namespace {

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

bool namedBy(const std::vector<std::string_view> &names, std::string_view name) {
  return std::any_of(names.begin(), names.end(), [&](std::string_view n) { return equalsIgnoreCase(n, name); });
}

struct GrfModeRow {
  GrfMode mode;
  const char *name;
  const char *option;  // [ocloc] 22.43: "Unrecognized build options" for -ze-opt-auto-grf-mode,
                       // -ze-intel-256-GRF-per-thread and -cl-intel-128-GRF-per-thread
  const char *target_suffix;
};
constexpr GrfModeRow kGrfModes[] = {
    {GrfMode::Small, "small", "", ""},
    {GrfMode::Large, "large", "-cl-intel-256-GRF-per-thread", ":large-grf"},
    {GrfMode::Auto, "auto", "-cl-intel-enable-auto-large-GRF-mode", ":auto-grf"},
};

const GrfModeRow &grfRow(GrfMode mode) {
  for (const GrfModeRow &row : kGrfModes)
    if (row.mode == mode) return row;
  return kGrfModes[0];
}

}  // namespace

const char *grfModeName(GrfMode mode) { return grfRow(mode).name; }
const char *grfModeOption(GrfMode mode) { return grfRow(mode).option; }

std::optional<GrfMode> grfModeByName(std::string_view name) {
  for (const GrfModeRow &row : kGrfModes)
    if (name == row.name) return row.mode;
  return std::nullopt;
}

const std::vector<IntelDevice> &intelDevices() {
  static const std::vector<IntelDevice> devices = {
      {"pvc",
       {},
       {"Max 1100", "Max 1450", "Max 1550"},
       "Xe-HPC",
       8,  // EUs per Xe-core [calc EU_Per_Sub_Slice; neo PVC::maxEuPerSubslice]
       8,
       4,   // threads per EU with 128 and 256 GRF [guide; neo xe_hpc: 1024 / grfCount]
       64,  // bytes per GRF [guide "each of which is 64B wide"; ocloc: //.spill size = N x 64]
       128,
       256,         // GRF per thread in small and large mode [guide]
       {16, 32},    // [calc Subgroup_Sizes]
       128 * 1024,  // SLM per Xe-core [calc SLM_Size_Per_Sub_Slice; neo PVC capabilityTable.slmSize 128]
       128 * 1024,  // SLM per work-group [calc SLM_Size_Per_Work_Group]
       // [neo xe_hpc_core computeSlmValues: SHARED_LOCAL_MEMORY_SIZE_ENCODES_1K..128K, with 24K;
       //  calc README's TG_SLM_Sizes has 24 too, one calc revision of the PVC row omits it]
       {0, 1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128},
       1024,             // [calc Max_Work_Group_Size]
       64,               // work-groups per Xe-core [calc Max_Num_Of_Workgroups]
       32,               // barrier registers per Xe-core [calc Max_Num_Of_Barrier_Registers; neo]
       {56, 112, 128}},  // [calc EU_Count 448, 896, 1024 / 8]
      {"dg2",
       {"dg2-g10", "acm-g10", "ats-m150", "dg2-g11", "acm-g11", "ats-m75", "dg2-g12", "acm-g12"},
       {"Arc A770", "Arc A750", "Arc A580", "Arc A380", "Flex 170", "Flex 140"},
       "Xe-HPG",
       16,  // [calc EU_Per_Sub_Slice; neo DG2::maxEuPerSubslice]
       // 8 threads per EU [calc; neo DG2::threadsPerEu]; with more than 128 GRF the runtime halves
       // them [neo xe_hpg_core calculateAvailableThreadCount: ThreadCount / 2, getThreadsPerEUConfigs
       // {4, 8}]. The calculator offers no large GRF mode for DG2; ocloc 22.43 compiles one.
       8,
       4,
       32,  // [neo sizeof(DG2::GRF); ocloc: dg2-g10 //.spill size 5568 = 174 x 32]
       128,
       256,                          // [ocloc: -cl-intel-256-GRF-per-thread gives "allocated 256 regs" on dg2-g10]
       {8, 16, 32},                  // [calc]
       128 * 1024,                   // [calc SLM_Size_Per_Sub_Slice]
       64 * 1024,                    // [calc SLM_Size_Per_Work_Group; neo DG2 capabilityTable.slmSize 64]
       {0, 1, 2, 4, 8, 16, 32, 64},  // [calc TG_SLM_Sizes; neo xe_hpg computeSlmValues: next power of two from 1K]
       1024,
       128,
       32,                       // [calc]
       {6, 8, 16, 24, 28, 32}},  // [calc EU_Count 96 .. 512 / 16]
      {"tgllp",
       {"rkl", "adl-s", "adl-p", "adl-n", "dg1"},
       {"Iris Xe", "Iris Xe Max"},
       "Xe-LP",
       16,  // EUs per dual sub-slice [calc; neo TGLLP::maxEuPerSubslice]
       7,
       0,   // [calc Threads_Per_EU, Large_GRF_Mode false; neo TGLLP::threadsPerEu; ocloc: the 256-GRF
            //  option still gives "allocated 128 regs" on tgllp]
       32,  // [neo sizeof(TGLLP::GRF)]
       128,
       128,
       {8, 16, 32},  // [calc]
       64 * 1024,
       64 * 1024,                    // [calc; neo TGLLP capabilityTable.slmSize 64]
       {0, 1, 2, 4, 8, 16, 32, 64},  // [calc TG_SLM_Sizes]
       512,
       112,
       32,       // [calc]
       {2, 6}},  // [calc EU_Count 32 (UHD), 96 (Iris Xe) / 16]
  };
  return devices;
}

const IntelDevice *findIntelDevice(std::string_view name) {
  for (const IntelDevice &d : intelDevices())
    if (equalsIgnoreCase(d.name, name) || namedBy(d.ocloc_names, name) || namedBy(d.products, name)) return &d;
  return nullptr;
}

std::string knownIntelDeviceList() {
  std::string list = formatArchList(intelDevices()), others;
  for (const IntelDevice &d : intelDevices())
    for (std::string_view n : d.ocloc_names) others += (others.empty() ? "" : ", ") + std::string(n);
  return list + "; ocloc also calls them " + others;
}

const IntelDevice &requireIntelDevice(std::string_view name) {
  if (const IntelDevice *d = findIntelDevice(name)) return *d;
  throw Error("unknown Intel device '" + std::string(name) + "'; known: " + knownIntelDeviceList());
}

std::string oclocDeviceName(std::string_view name) {
  const IntelDevice *d = findIntelDevice(name);
  if (!d || namedBy(d->products, name)) return d ? std::string(d->name) : std::string(name);
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

std::string intelTargetName(const IntelTarget &target) { return target.device + grfRow(target.grf).target_suffix; }

std::optional<std::string_view> intelDeviceByProductFamily(int family) {
  // Measured: .note.intelgt.compat, note type 1, of the zebins ocloc 22.43 writes for each -device
  // (`ocloc compile -file fixtures/src/ocloc_probe.cl -device D --format zebin`); dg2-g10, -g11 and -g12
  // share one number, as do the rows' other names below their own.
  static const std::pair<int, std::string_view> kFamilies[] = {
      {1271, "pvc"}, {1270, "dg2"}, {29, "tgllp"}, {30, "rkl"},
      {31, "adl-s"}, {32, "adl-p"}, {33, "adl-n"}, {1210, "dg1"},
  };
  for (const auto &[number, device] : kFamilies)
    if (number == family) return device;
  return std::nullopt;
}

IntelTarget parseIntelTarget(std::string_view arch) {
  for (const GrfModeRow &row : kGrfModes) {
    const std::string_view suffix = row.target_suffix;
    if (!suffix.empty() && arch.size() > suffix.size() && arch.substr(arch.size() - suffix.size()) == suffix)
      return {std::string(arch.substr(0, arch.size() - suffix.size())), row.mode};
  }
  return {std::string(arch), GrfMode::Small};
}

}  // namespace regscope
