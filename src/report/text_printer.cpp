// The terminal view: one row per (kernel, arch), then notes.
#include <algorithm>
#include <climits>
#include <sstream>

#include "regscope/printers.h"
#include "text_table.h"

namespace regscope {
namespace {

std::string bytes(std::int64_t n) {
  if (n >= 1024 && n % 1024 == 0) return std::to_string(n / 1024) + " KiB";
  return std::to_string(n);
}

// A figure for the table: "?" where no source could resolve it (LLVM 20+).
std::string figure(const KernelRecord &r, Field f) {
  if (std::find(r.unresolved.begin(), r.unresolved.end(), f) != r.unresolved.end()) return "?";
  return std::to_string(r.value(f));
}

// "free 6 VGPRs + free 2 SGPRs -> 5 waves/SIMD": what must go for the next step.
std::string stepText(const std::vector<std::string> &frees, int target, const char *unit) {
  std::string text;
  for (const std::string &f : frees) text += (text.empty() ? "" : " + ") + f;
  return text + " -> " + std::to_string(target) + " " + unit;
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
  return stepText(parts, n.waves_per_simd, "waves/SIMD");
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

std::string cudaNextStepText(const CudaOccupancy &occ) {
  if (occ.limiter == "invalid") return "cannot launch: " + occ.invalid_reason;
  if (!occ.next) return occ.warps_per_sm == occ.max_warps_per_sm ? "at maximum" : "none: " + occ.limiter + " cap it";
  std::vector<std::string> parts;
  if (occ.next->registers_to_free) parts.push_back("free " + std::to_string(occ.next->registers_to_free) + " registers");
  if (occ.next->shared_to_free) parts.push_back("free " + std::to_string(occ.next->shared_to_free) + " B shared");
  return stepText(parts, occ.next->blocks_per_sm, "blocks/SM");
}

void printNvidiaTable(const std::vector<const KernelReport *> &kernels, std::ostream &out, const TextStyle &style) {
  TextTable table({"KERNEL", "ARCH", "LOCATION", "REGS", "SPILL ST/LD", "STACK", "SMEM", "BLOCK", "BLOCKS/SM",
                   "WARPS/SM", "LIMITER", "NEXT STEP"},
                  {false, false, false, true, true, true, true, true, true, true, false, false});
  for (const KernelReport *k : kernels) {
    const KernelRecord &r = k->record;
    const CudaOccupancy &occ = *k->cuda;
    std::string location = k->display_file.empty() ? "?" : k->display_file + (r.line > 0 ? ":" + std::to_string(r.line) : "");
    table.addRow({shortKernelName(r.demangled), r.arch, location, std::to_string(r.value(Field::Registers)),
                  std::to_string(r.value(Field::SpillStoreBytes)) + "/" + std::to_string(r.value(Field::SpillLoadBytes)),
                  std::to_string(r.value(Field::StackBytes)), bytes(r.value(Field::SharedBytes)),
                  std::to_string(k->workgroup_size), std::to_string(occ.blocks_per_sm),
                  std::to_string(occ.warps_per_sm) + "/" + std::to_string(occ.max_warps_per_sm), occ.limiter,
                  cudaNextStepText(occ)});
  }
  table.print(out, style.color);
  std::ostringstream notes;
  bool assumed = false;
  for (const KernelReport *k : kernels) {
    const std::string who = shortKernelName(k->record.demangled) + " [" + k->record.arch + "]";
    if (k->record.value(Field::SpillStoreBytes))
      notes << "  " << who << ": spills " << k->record.value(Field::SpillStoreBytes) << " bytes to local memory\n";
    assumed |= k->workgroup_size_source == "default";
  }
  if (assumed)
    notes << "  BLOCK is the kernel's __launch_bounds__, else an assumed " << kernels.front()->workgroup_size
          << " threads: pass --block-size for your launch\n";
  if (kernels.front()->dynamic_shared)
    notes << "  with " << kernels.front()->dynamic_shared << " bytes of dynamic shared memory per block\n";
  if (!notes.str().empty()) out << "\nnotes:\n" << notes.str();
}

void printReportText(const Report &report, std::ostream &out, const TextStyle &style) {
  if (report.kernels.empty()) {
    out << "no kernels found\n";
    return;
  }
  std::vector<const KernelReport *> nvidia;
  for (const KernelReport &k : report.kernels)
    if (k.record.vendor == "nvidia") nvidia.push_back(&k);
  if (!nvidia.empty()) printNvidiaTable(nvidia, out, style);
  if (nvidia.size() == report.kernels.size()) return;
  if (!nvidia.empty()) out << '\n';
  std::vector<std::string> headers = {"KERNEL", "ARCH", "LOCATION", "VGPR", "AGPR", "SGPR",
                                      "SCRATCH", "SPILL V/S", "LDS", "OCCUPANCY", "LIMITER",
                                      "NEXT STEP", "HEADROOM"};
  std::vector<bool> right = {false, false, false, true, true, true, true, true, true, true, false, false, false};
  TextTable table(headers, right);
  for (const KernelReport &k : report.kernels) {
    if (k.record.vendor == "nvidia") continue;
    const KernelRecord &r = k.record;
    // Code objects with AGPRs record only the allocation, not the arch count.
    std::string vgpr = r.has(Field::Vgprs) ? std::to_string(r.value(Field::Vgprs)) : "?";
    if (!k.unresolved && (!r.has(Field::Vgprs) || k.occupancy.vgprs_total != r.value(Field::Vgprs)))
      vgpr += " (" + std::to_string(k.occupancy.vgprs_total) + ")";
    std::string location =
        k.display_file.empty() ? "?" : k.display_file + (r.line > 0 ? ":" + std::to_string(r.line) : "");
    table.addRow({shortKernelName(r.demangled), r.arch, location, vgpr,
                  figure(r, Field::Agprs), figure(r, Field::Sgprs), figure(r, Field::ScratchBytes),
                  std::to_string(r.value(Field::VgprSpills)) + "/" + std::to_string(r.value(Field::SgprSpills)),
                  bytes(r.value(Field::LdsBytes)),
                  k.unresolved ? "?/" + std::to_string(k.occupancy.max_waves_per_simd)
                               : std::to_string(k.occupancy.waves_per_simd) + "/" +
                                     std::to_string(k.occupancy.max_waves_per_simd),
                  k.occupancy.limiter, k.unresolved ? "unresolved until link" : nextStepText(k.occupancy),
                  k.unresolved ? "-" : headroomText(k)});
  }
  table.print(out, style.color);

  // Notes: what a number in the table does not say by itself.
  std::ostringstream notes;
  for (const KernelReport &k : report.kernels) {
    if (k.record.vendor == "nvidia") continue;
    const std::string who = shortKernelName(k.record.demangled) + " [" + k.record.arch + "]";
    if (k.record.has(Field::Vgprs) && k.occupancy.vgprs_total != k.record.value(Field::Vgprs))
      notes << "  " << who << ": occupancy counts " << k.occupancy.vgprs_total
            << " VGPRs (the allocation: AGPRs in the unified file, or padding the compiler added)\n";
    if (k.record.value(Field::VgprSpills) || k.record.value(Field::SgprSpills))
      notes << "  " << who << ": spills registers to scratch memory\n";
    if (k.unresolved) {
      std::string fields;
      for (Field f : k.record.unresolved) fields += (fields.empty() ? "" : ", ") + std::string(fieldKey(f));
      notes << "  " << who << ": " << fields << " depend on functions in other translation units (LLVM 20+ "
            << "expressions): the linked code object has them (regscope parse app)\n";
    }
    if (k.hidden_agpr_spills)
      notes << "  " << who << ": parks " << k.record.value(Field::Agprs) << " VGPRs in AGPRs with no MFMA in the kernel ("
            << k.record.value(Field::AgprCopies) << " v_accvgpr copies): a spill the compiler reports as 0; "
            << "occupancy follows max(VGPRs, AGPRs) = " << k.occupancy.vgprs_total << "\n";
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
  out << arch.name << " (" << arch.family << ", wave" << arch.wave_size << "): waves per SIMD by VGPRs per lane"
      << (arch.agprs == AgprMode::Unified ? " (arch VGPRs aligned to 4 + AGPRs)" : "") << "\n";
  TextTable table({"VGPRS", "WAVES/SIMD"}, {true, true});
  for (const VgprTableRow &row : vgprTable(arch))
    table.addRow({std::to_string(row.min_vgprs) + "-" + std::to_string(row.max_vgprs),
                  std::to_string(row.waves_per_simd)});
  table.print(out, false);
}

}  // namespace regscope

namespace regscope {

void printCudaOccupancyText(const CudaArch &arch, const CudaResources &r, const CudaOccupancy &occ, std::ostream &out) {
  out << arch.name << " (CC " << arch.major << "." << arch.minor << "): " << occ.blocks_per_sm << " blocks/SM, "
      << occ.warps_per_sm << "/" << occ.max_warps_per_sm << " warps/SM (" << static_cast<int>(occ.fraction * 100 + 0.5)
      << "%), limited by " << occ.limiter << "\n";
  auto limit = [](int v) { return v == INT_MAX ? std::string("-") : std::to_string(v); };
  TextTable table({"RESOURCE", "USED", "BLOCKS/SM"}, {false, true, true});
  table.addRow({"warps (block of " + std::to_string(r.block_size) + ")", std::to_string((r.block_size + 31) / 32),
                limit(occ.by_warps)});
  table.addRow({"block slots", "1", limit(occ.by_blocks)});
  table.addRow({"registers/thread", std::to_string(r.registers), limit(occ.by_registers)});
  table.addRow({"shared bytes (+" + std::to_string(arch.shared_reserved_per_block) + " reserved)",
                std::to_string(r.static_shared + r.dynamic_shared), limit(occ.by_shared)});
  table.addRow({"barriers", std::to_string(r.barriers), limit(occ.by_barriers)});
  table.print(out, false);
  out << "next step: " << cudaNextStepText(occ) << "\n"
      << "largest block size with as many warps/SM: " << occ.largest_block_same_occupancy << "\n";
}

void printCudaTableText(const CudaArch &arch, int block_size, std::ostream &out) {
  out << arch.name << " (CC " << arch.major << "." << arch.minor << "): warps per SM by registers per thread, blocks of "
      << block_size << " threads\n";
  TextTable table({"REGISTERS", "BLOCKS/SM", "WARPS/SM"}, {true, true, true});
  for (const CudaTableRow &row : cudaRegisterTable(arch, block_size))
    table.addRow({std::to_string(row.min_registers) + "-" + std::to_string(row.max_registers),
                  std::to_string(row.blocks_per_sm), std::to_string(row.warps_per_sm)});
  table.print(out, false);
}

}  // namespace regscope
