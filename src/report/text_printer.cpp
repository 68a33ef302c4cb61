// The terminal view: one row per (kernel, arch), then notes.
#include <sstream>

#include "regscope/printers.h"
#include "text_table.h"

namespace regscope {
namespace {

std::string bytes(std::int64_t n) {
  if (n >= 1024 && n % 1024 == 0) return std::to_string(n / 1024) + " KiB";
  return std::to_string(n);
}

std::string nextStepText(const Occupancy &occ) {
  if (!occ.next) {
    if (occ.limiter == "none") return "at maximum";
    return "none: workgroup size caps it";
  }
  const NextStep &n = *occ.next;
  std::vector<std::string> parts;
  if (n.vgprs_to_free) parts.push_back("free " + std::to_string(n.vgprs_to_free) + " VGPRs");
  if (n.sgprs_to_free) parts.push_back("free " + std::to_string(n.sgprs_to_free) + " SGPRs");
  if (n.lds_bytes_to_free) parts.push_back("free " + bytes(n.lds_bytes_to_free) + " LDS");
  std::string text;
  for (const std::string &p : parts) text += (text.empty() ? "" : " + ") + p;
  return text + " -> " + std::to_string(n.waves_per_simd) + " waves/SIMD";
}

std::string headroomText(const KernelReport &k) {
  std::string text = "+" + std::to_string(k.occupancy.headroom.vgprs) + " VGPRs";
  if (k.record.value(Field::LdsBytes) > 0 || k.occupancy.limiter == "lds")
    text += ", +" + bytes(k.occupancy.headroom.lds_bytes) + " LDS";
  if (k.occupancy.limiter == "sgpr") text += ", +" + std::to_string(k.occupancy.headroom.sgprs) + " SGPRs";
  return text;
}

}  // namespace

// "kernel(double*, double*, ...)" is unreadable at 50 parameters.
std::string shortKernelName(const std::string &demangled) {
  constexpr std::size_t kMax = 48;
  if (demangled.size() <= kMax) return demangled;
  std::size_t paren = demangled.find('(');
  if (paren != std::string::npos && paren < kMax) return demangled.substr(0, paren) + "(...)";
  return demangled.substr(0, kMax - 3) + "...";
}

void printReportText(const Report &report, std::ostream &out, const TextStyle &style) {
  if (report.kernels.empty()) {
    out << "no kernels found\n";
    return;
  }
  std::vector<std::string> headers = {"KERNEL", "ARCH", "LOCATION", "VGPR", "AGPR", "SGPR",
                                      "SCRATCH", "SPILL V/S", "LDS", "OCCUPANCY", "LIMITER",
                                      "NEXT STEP", "HEADROOM"};
  std::vector<bool> right = {false, false, false, true, true, true, true, true, true, true, false, false, false};
  TextTable table(headers, right);
  for (const KernelReport &k : report.kernels) {
    const KernelRecord &r = k.record;
    std::string vgpr = std::to_string(r.value(Field::Vgprs));
    if (k.occupancy.vgprs_total != r.value(Field::Vgprs))
      vgpr += " (" + std::to_string(k.occupancy.vgprs_total) + ")";
    std::string location = k.display_file.empty() ? "?" : k.display_file + ":" + std::to_string(r.line);
    table.addRow({shortKernelName(r.demangled), r.arch, location, vgpr,
                  std::to_string(r.value(Field::Agprs)), std::to_string(r.value(Field::Sgprs)),
                  std::to_string(r.value(Field::ScratchBytes)),
                  std::to_string(r.value(Field::VgprSpills)) + "/" + std::to_string(r.value(Field::SgprSpills)),
                  bytes(r.value(Field::LdsBytes)),
                  std::to_string(k.occupancy.waves_per_simd) + "/" + std::to_string(k.occupancy.max_waves_per_simd),
                  k.occupancy.limiter, nextStepText(k.occupancy), headroomText(k)});
  }
  table.print(out, style.color);

  // Notes: what a number in the table does not say by itself.
  std::ostringstream notes;
  for (const KernelReport &k : report.kernels) {
    const std::string who = shortKernelName(k.record.demangled) + " [" + k.record.arch + "]";
    if (k.occupancy.vgprs_total != k.record.value(Field::Vgprs))
      notes << "  " << who << ": occupancy counts " << k.occupancy.vgprs_total
            << " VGPRs (the allocation: AGPRs in the unified file, or padding the compiler added)\n";
    if (k.record.value(Field::VgprSpills) || k.record.value(Field::SgprSpills))
      notes << "  " << who << ": spills registers to scratch memory\n";
    if (k.record.value(Field::DynamicStack))
      notes << "  " << who << ": uses a dynamic stack; its scratch size is a guess\n";
    if (!k.explanation.empty()) notes << "  " << who << ": " << k.explanation << '\n';
    if (k.occupancy.limiter == "lds" || k.occupancy.limiter == "workgroup")
      notes << "  " << who << ": assumes workgroups of " << k.workgroup_size << " threads ("
            << (k.workgroup_size_source == "default" ? "HIP's default maximum; set __launch_bounds__"
                                                     : "the kernel's max flat workgroup size")
            << ")\n";
  }
  if (!notes.str().empty()) out << "\nnotes:\n" << notes.str();
}

void printOccupancyText(const AmdArch &arch, const KernelResources &r, const Occupancy &occ,
                        std::ostream &out) {
  out << arch.name << " (" << arch.family << "): " << occ.waves_per_simd << "/" << occ.max_waves_per_simd
      << " waves/SIMD, limited by " << occ.limiter << "\n";
  TextTable table({"RESOURCE", "USED", "WAVES/SIMD", "HEADROOM"}, {false, true, true, true});
  table.addRow({"VGPR (total)", std::to_string(occ.vgprs_total), std::to_string(occ.by_vgpr),
                std::to_string(occ.headroom.vgprs)});
  table.addRow({"SGPR", std::to_string(r.sgprs), std::to_string(occ.by_sgpr), std::to_string(occ.headroom.sgprs)});
  table.addRow({"LDS bytes", std::to_string(r.lds_bytes), std::to_string(occ.by_lds),
                std::to_string(occ.headroom.lds_bytes)});
  table.addRow({"workgroup", std::to_string(r.workgroup_size), std::to_string(occ.by_workgroup), ""});
  table.print(out, false);
  out << "next step: " << nextStepText(occ) << "\n";
}

void printVgprTableText(const AmdArch &arch, std::ostream &out) {
  out << arch.name << " (" << arch.family << "): waves per SIMD by VGPRs per lane"
      << (arch.agprs == AgprMode::Unified ? " (arch VGPRs aligned to 4 + AGPRs)" : "") << "\n";
  TextTable table({"VGPRS", "WAVES/SIMD"}, {true, true});
  for (const VgprTableRow &row : vgprTable(arch))
    table.addRow({std::to_string(row.min_vgprs) + "-" + std::to_string(row.max_vgprs),
                  std::to_string(row.waves_per_simd)});
  table.print(out, false);
}

}  // namespace regscope
