#include "spill_sites.h"

#include <map>
#include <optional>
#include <utility>
#include "regscope/support/llvm_compat.h"

namespace regscope::isa_detail {
namespace {

// "16-byte Folded Spill" -> 16.
std::optional<int> commentBytes(std::string_view comment) {
  const std::size_t dash = comment.find("-byte Folded ");
  if (dash == std::string_view::npos) return std::nullopt;
  std::size_t begin = dash;
  while (begin > 0 && comment[begin - 1] >= '0' && comment[begin - 1] <= '9') --begin;
  if (begin == dash || dash - begin > 6) return std::nullopt;
  int bytes = 0;
  for (std::size_t i = begin; i < dash; ++i) bytes = bytes * 10 + (comment[i] - '0');
  return bytes;
}

// The bytes per lane a private access moves, from its opcode's name:
// SCRATCH_STORE_DWORDX4 16, BUFFER_LOAD_UBYTE 1, gfx12's SCRATCH_LOAD_B128 16.
int accessBytes(llvm::StringRef name) {
  static const std::pair<const char *, int> widths[] = {{"DWORDX4", 16}, {"DWORDX3", 12}, {"DWORDX2", 8}, {"B128", 16},
                                                        {"B96", 12},     {"B64", 8},      {"DWORD", 4},   {"B32", 4},
                                                        {"SHORT", 2},    {"B16", 2},      {"D16", 2},     {"BYTE", 1},
                                                        {"U8", 1},       {"I8", 1},       {"U16", 2},     {"I16", 2}};
  for (const auto &[part, bytes] : widths)
    if (name.contains(part)) return bytes;
  return 0;
}

// The (VGPR, lane) a v_writelane_b32 writes or a v_readlane_b32 reads, when
// the lane is a constant and the other side a scalar register: the shape of
// an SGPR spill. Operands: v_writelane_b32 vdst, src0, lane[, vdst_in];
// v_readlane_b32 sdst, vsrc, lane.
std::optional<std::pair<unsigned, std::int64_t>> laneSlot(const AmdgpuTarget &target, const llvm::MCInst &inst,
                                                          bool write) {
  if (inst.getNumOperands() < 3) return std::nullopt;
  const llvm::MCOperand &vector = inst.getOperand(write ? 0 : 1);
  const llvm::MCOperand &scalar = inst.getOperand(write ? 1 : 0);
  const llvm::MCOperand &lane = inst.getOperand(2);
  if (!vector.isReg() || !scalar.isReg() || !lane.isImm()) return std::nullopt;
  if (!startsWith(target.mri->getName(vector.getReg()), "VGPR")) return std::nullopt;
  if (startsWith(target.mri->getName(scalar.getReg()), "VGPR") ||
      startsWith(target.mri->getName(scalar.getReg()), "AGPR"))
    return std::nullopt;
  return std::make_pair(static_cast<unsigned>(vector.getReg()), lane.getImm());
}

}  // namespace

std::vector<SpillSite> findSpillSites(const AmdgpuTarget &target, const RawFunction &raw,
                                      const std::vector<InstrFacts> &facts,
                                      const std::vector<std::string_view> &comments) {
  // Targets with architected flat scratch (gfx940 and later) reach the private
  // segment through scratch_* only; their buffer_* is global memory (Triton's
  // buffer ops). Elsewhere the ABI's private segment buffer is s[0:3].
  const bool flat_scratch_only = target.sti->checkFeatures("+architected-flat-scratch");
  std::vector<SpillSite> sites;
  // By lane number: a lane VGPR may itself be spilled and come back in
  // another VGPR (clang 19's lbm), so the VGPR does not pair them.
  std::map<std::int64_t, std::vector<int>> lane_writes;
  std::vector<std::pair<int, std::int64_t>> lane_reads;
  for (std::size_t i = 0; i < raw.instructions.size(); ++i) {
    const llvm::MCInst &inst = raw.instructions[i].inst;
    const llvm::StringRef name = target.opcodeName(inst);
    const std::string_view comment = i < comments.size() ? comments[i] : std::string_view();
    SpillSite site;
    site.instruction = static_cast<int>(i);
    if (facts[i].kind == InstrKind::Scratch) {
      const bool store = target.mii->get(inst.getOpcode()).mayStore();
      const std::optional<int> bytes = commentBytes(comment);
      const bool marked = comment.find("Folded Spill") != std::string_view::npos ||
                          comment.find("Folded Reload") != std::string_view::npos;
      bool is_private = startsWith(name, "SCRATCH_");
      if (!is_private && !flat_scratch_only)
        for (unsigned o = 0; o < inst.getNumOperands() && !is_private; ++o)
          is_private = inst.getOperand(o).isReg() &&
                       target.mri->getName(inst.getOperand(o).getReg()) == llvm::StringRef("SGPR0_SGPR1_SGPR2_SGPR3");
      if (!marked && !is_private) continue;
      site.store = store;
      site.medium = SpillMedium::Scratch;
      site.bytes = bytes ? *bytes : accessBytes(name);
      site.spill = marked;
      site.from_comment = marked;
      sites.push_back(site);
    } else if (facts[i].kind == InstrKind::AccvgprCopy && comment.find("Reload Reuse") != std::string_view::npos) {
      site.store = startsWith(name, "V_ACCVGPR_WRITE");
      site.medium = SpillMedium::Agpr;
      site.bytes = 4;
      site.from_comment = true;
      sites.push_back(site);
    } else if (startsWith(name, "V_WRITELANE_B32")) {
      if (auto slot = laneSlot(target, inst, true)) lane_writes[slot->second].push_back(static_cast<int>(i));
    } else if (startsWith(name, "V_READLANE_B32")) {
      if (auto slot = laneSlot(target, inst, false)) {
        lane_reads.push_back({static_cast<int>(i), slot->second});
      }
    }
  }
  // An SGPR spill is written into a lane (the compiler counts even one never
  // read back: clang 19's lbm writes lanes 36 and 37 and reads neither); a read
  // of a lane no write of the function fills is something else (a wave
  // reduction's last lane).
  for (const auto &[slot, writes] : lane_writes) {
    for (int i : writes) {
      SpillSite site;
      site.instruction = i;
      site.store = true;
      site.medium = SpillMedium::VgprLane;
      site.bytes = 4;
      sites.push_back(site);
    }
  }
  for (const auto &[i, slot] : lane_reads) {
    if (!lane_writes.count(slot)) continue;
    SpillSite site;
    site.instruction = i;
    site.medium = SpillMedium::VgprLane;
    site.bytes = 4;
    sites.push_back(site);
  }
  return sites;
}

}  // namespace regscope::isa_detail
