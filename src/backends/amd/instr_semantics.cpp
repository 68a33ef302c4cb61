#include "instr_semantics.h"

#include <llvm/Config/llvm-config.h>
#include <llvm/MC/MCExpr.h>
#include <llvm/MC/MCInstrDesc.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCSymbol.h>

#include "regscope/support/error.h"
#include "regscope/support/llvm_compat.h"

namespace regscope::isa_detail {
namespace {

// SIInstrFlags, the TSFlags bits of AMDGPU instructions. SIDefines.h is not
// installed with LLVM; these are LLVM 15's positions (llvm/lib/Target/AMDGPU/
// SIDefines.h at llvmorg-15.0.6). LLVM 18 inserted VIMAGE (21) and VSAMPLE (22)
// before EXP, FLAT and DS, which moved by two: LLVM 19's positions (its
// SIDefines.h) are taken when it is the linked LLVM (CMake's REGSCOPE_LLVM=19).
// Read with the wrong table, scratch and global loads count as SALU (bit 0).
namespace SIInstrFlags {
constexpr std::uint64_t VALU = 1ull << 1;
constexpr std::uint64_t SDWA = 1ull << 14;
constexpr std::uint64_t MUBUF = 1ull << 17;
constexpr std::uint64_t MTBUF = 1ull << 18;
constexpr std::uint64_t SMRD = 1ull << 19;
#if LLVM_VERSION_MAJOR >= 19
constexpr std::uint64_t MIMG = 1ull << 20 | 1ull << 21 | 1ull << 22;  // MIMG, VIMAGE, VSAMPLE
constexpr std::uint64_t EXP = 1ull << 23;
constexpr std::uint64_t FLAT = 1ull << 24;
constexpr std::uint64_t DS = 1ull << 25;
#else
constexpr std::uint64_t MIMG = 1ull << 20;
constexpr std::uint64_t EXP = 1ull << 21;
constexpr std::uint64_t FLAT = 1ull << 22;
constexpr std::uint64_t DS = 1ull << 23;
#endif
constexpr std::uint64_t IsMAI = 1ull << 54;
constexpr std::uint64_t FlatScratch = 1ull << 56;
}  // namespace SIInstrFlags

// The opcode's name without its encoding suffix ("S_BRANCH_vi" -> "S_BRANCH",
// "V_ADD_F32_e32_gfx10" -> "V_ADD_F32_e32"): encoding suffixes are lower case
// after the last upper-case part, operand-form suffixes (e32, e64, sdwa, dpp)
// are kept.
llvm::StringRef baseName(llvm::StringRef name) {
  static const char *const kEncodings[] = {"_vi",   "_gfx6_gfx7", "_gfx10", "_gfx11", "_gfx90a", "_gfx940",
                                           "_gfx9", "_si",        "_ci",    "_gfx6",  "_gfx7"};
  for (;;) {
    bool stripped = false;
    for (const char *e : kEncodings) {
      if (endsWith(name, e)) {
        name = name.drop_back(llvm::StringRef(e).size());
        stripped = true;
        break;
      }
    }
    if (!stripped) return name;
  }
}

// Control flow: LLVM 15's real AMDGPU opcodes keep isBranch but drop
// isBarrier/isTerminator/isReturn/isCall (only the pseudos carry them), so the
// kind of transfer comes from the opcode name.
Flow flowOf(llvm::StringRef base, const llvm::MCInstrDesc &desc) {
  if (base == "S_BRANCH") return Flow::Branch;
  if (startsWith(base, "S_CBRANCH_")) return Flow::ConditionalBranch;
  if (startsWith(base, "S_ENDPGM")) return Flow::EndProgram;
  if (startsWith(base, "S_SETPC_")) return Flow::Indirect;
  if (startsWith(base, "S_SWAPPC_") || startsWith(base, "S_CALL_")) return Flow::Call;
  if (desc.isCall()) return Flow::Call;
  if (desc.isIndirectBranch()) return Flow::Indirect;
  if (desc.isReturn()) return Flow::EndProgram;
  if (desc.isBranch()) return Flow::ConditionalBranch;  // unknown branch: keep both paths
  return Flow::None;
}

InstrKind kindOf(llvm::StringRef base, const llvm::MCInstrDesc &desc, Flow flow) {
  const std::uint64_t f = desc.TSFlags;
  if (startsWith(base, "V_ACCVGPR_")) return InstrKind::AccvgprCopy;
  if (f & SIInstrFlags::IsMAI) return InstrKind::Mfma;
  if (startsWith(base, "S_WAITCNT")) return InstrKind::Waitcnt;
  if (flow != Flow::None && flow != Flow::EndProgram) return InstrKind::Branch;
  // Compiler-written HIP code reaches the private segment through scratch_*
  // (flat scratch) or buffer_* over the scratch resource; global memory goes
  // through global_*/flat_*. Buffer intrinsics written by hand would count
  // here too (docs/explain.md).
  if ((f & SIInstrFlags::FlatScratch) || (f & (SIInstrFlags::MUBUF | SIInstrFlags::MTBUF))) return InstrKind::Scratch;
  if (f & SIInstrFlags::DS) return InstrKind::Lds;
  if (f & SIInstrFlags::SMRD) return InstrKind::Smem;
  if (f & (SIInstrFlags::FLAT | SIInstrFlags::MIMG | SIInstrFlags::EXP))
    return desc.mayStore() ? InstrKind::VmemStore : InstrKind::VmemLoad;
  if (f & SIInstrFlags::VALU) return InstrKind::Valu;
  return InstrKind::Salu;
}

}  // namespace

RegisterSlots::RegisterSlots(const llvm::MCRegisterInfo &mri) : mri_(mri) {
  unit_slot_.assign(mri.getNumRegUnits(), -1);
  exec_units_.assign(mri.getNumRegUnits(), false);
  cache_.resize(mri.getNumRegs());

  auto addSlot = [&](unsigned reg, RegFile file, std::string name) {
    std::size_t slot = files_.size();
    if (slot >= kMaxSlots) throw Error("AMDGPU register file larger than regscope's slot table");
    std::vector<unsigned> units;
    for (llvm::MCRegUnitIterator u(reg, &mri); u.isValid(); ++u) {
      unit_slot_[*u] = static_cast<int>(slot);
      units.push_back(*u);
    }
    slot_units_.push_back(std::move(units));
    files_.push_back(file);
    names_.push_back(std::move(name));
    masks_[static_cast<int>(file)].set(slot);
  };
  // The register classes by their TableGen names: the enum values of
  // AMDGPU::VGPR_32RegClassID live in a generated header that is not installed.
  struct Class {
    const char *name;
    RegFile file;
    const char *prefix;
  };
  for (const Class &c : {Class{"VGPR_32", RegFile::Vgpr, "v"}, Class{"AGPR_32", RegFile::Agpr, "a"},
                         Class{"SGPR_32", RegFile::Sgpr, "s"}}) {
    for (const llvm::MCRegisterClass &rc : mri.regclasses()) {
      if (llvm::StringRef(mri.getRegClassName(&rc)) != c.name) continue;
      for (unsigned i = 0; i < rc.getNumRegs(); ++i) addSlot(rc.getRegister(i), c.file, c.prefix + std::to_string(i));
    }
  }
  if (mask(RegFile::Vgpr).none() || mask(RegFile::Sgpr).none())
    throw Error(std::string(amdgpu_mc::kLinkedLlvm) + "'s AMDGPU register classes not found");
  // VCC is two SGPRs at the top of the file; the compiler counts it in SGPRs.
  for (unsigned reg = 1; reg < mri.getNumRegs(); ++reg) {
    llvm::StringRef name = mri.getName(reg);
    if (name == "VCC_LO" || name == "VCC_HI") addSlot(reg, RegFile::Sgpr, name == "VCC_LO" ? "vcc_lo" : "vcc_hi");
    if (name == "EXEC_LO" || name == "EXEC_HI" || name == "EXEC")
      for (llvm::MCRegUnitIterator u(reg, &mri); u.isValid(); ++u) exec_units_[*u] = true;
  }
}

void RegisterSlots::slotsOf(unsigned reg, SlotSet &touched, SlotSet &covered) const {
  if (reg == 0 || reg >= cache_.size()) return;
  RegSlots &entry = cache_[reg];
  if (!entry.known) {
    std::vector<bool> mine(unit_slot_.size(), false);
    for (llvm::MCRegUnitIterator u(reg, &mri_); u.isValid(); ++u) {
      mine[*u] = true;
      if (unit_slot_[*u] >= 0) entry.touched.set(static_cast<std::size_t>(unit_slot_[*u]));
    }
    for (std::size_t s = 0; s < slot_units_.size(); ++s) {
      if (!entry.touched.test(s)) continue;
      bool all = true;
      for (unsigned u : slot_units_[s]) all = all && mine[u];
      if (all) entry.covered.set(s);
    }
    entry.known = true;
  }
  touched |= entry.touched;
  covered |= entry.covered;
}

bool RegisterSlots::isExec(unsigned reg) const {
  if (reg == 0) return false;
  for (llvm::MCRegUnitIterator u(reg, &mri_); u.isValid(); ++u)
    if (exec_units_[*u]) return true;
  return false;
}

RegFile RegisterSlots::file(std::size_t slot) const { return files_[slot]; }
std::string RegisterSlots::name(std::size_t slot) const { return names_[slot]; }

InstrFacts describe(const AmdgpuTarget &target, const RegisterSlots &slots, const llvm::MCInst &inst) {
  InstrFacts facts;
  const llvm::MCInstrDesc &desc = target.mii->get(inst.getOpcode());
  llvm::StringRef base = baseName(target.opcodeName(inst));
  facts.flow = flowOf(base, desc);
  facts.kind = kindOf(base, desc, facts.flow);
  facts.partial_write = (desc.TSFlags & SIInstrFlags::SDWA) != 0;

  SlotSet unused;
  bool writes_exec = false;
  const unsigned defs = desc.getNumDefs();
  for (unsigned i = 0; i < inst.getNumOperands(); ++i) {
    const llvm::MCOperand &op = inst.getOperand(i);
    if (op.isExpr()) {
      if (const auto *ref = llvm::dyn_cast<llvm::MCSymbolRefExpr>(op.getExpr()))
        if (facts.branch_target.empty()) facts.branch_target = ref->getSymbol().getName().str();
      continue;
    }
    if (!op.isReg() || op.getReg() == 0) continue;
    // Tied sources (s_mulk_i32's src, v_mac/v_fmac's src2, v_writelane's
    // vdst_in) are operands past the defs: reads of the destination.
    if (i < defs) {
      slots.slotsOf(op.getReg(), facts.defs, facts.full_defs);
      facts.sdst.push_back(op.getReg());
      writes_exec = writes_exec || slots.isExec(op.getReg());
    } else {
      slots.slotsOf(op.getReg(), facts.uses, unused);
      facts.sources.push_back(op.getReg());
    }
  }
  // LLVM 16 gave the implicit registers as ArrayRefs (implicit_defs());
  // LLVM 15 as zero-terminated arrays with their counts.
#if LLVM_VERSION_MAJOR >= 16
  const llvm::ArrayRef<llvm::MCPhysReg> implicit_defs = desc.implicit_defs(), implicit_uses = desc.implicit_uses();
#else
  const llvm::ArrayRef<llvm::MCPhysReg> implicit_defs(desc.getImplicitDefs(), desc.getNumImplicitDefs()),
      implicit_uses(desc.getImplicitUses(), desc.getNumImplicitUses());
#endif
  for (llvm::MCPhysReg reg : implicit_defs) {
    slots.slotsOf(reg, facts.defs, facts.full_defs);
    writes_exec = writes_exec || slots.isExec(reg);
  }
  for (llvm::MCPhysReg reg : implicit_uses) slots.slotsOf(reg, facts.uses, unused);
  SlotSet vector_slots = slots.mask(RegFile::Vgpr) | slots.mask(RegFile::Agpr);
  facts.vector_write = (facts.defs & vector_slots).any();

  bool reads_exec = false;
  for (unsigned reg : facts.sources) reads_exec = reads_exec || slots.isExec(reg);
  const bool narrowing =
      startsWith(base, "S_AND_SAVEEXEC_") || startsWith(base, "V_CMPX_") ||
      (reads_exec && (base == "S_AND_B64" || base == "S_AND_B32" || base == "S_ANDN2_B64" || base == "S_ANDN2_B32"));
  facts.exec_resume = writes_exec && !narrowing;
  if (base.contains("SAVEEXEC")) {
    facts.exec = ExecEffect::SaveAndMask;
  } else if (writes_exec && (base == "S_OR_B64" || base == "S_OR_B32" || base == "S_MOV_B64" || base == "S_MOV_B32")) {
    facts.exec = ExecEffect::Restore;
    for (unsigned i = 0; i < inst.getNumOperands(); ++i)
      if (inst.getOperand(i).isImm() && inst.getOperand(i).getImm() == -1 && startsWith(base, "S_MOV_"))
        facts.sets_all_lanes = true;
  } else if (writes_exec) {
    facts.exec = ExecEffect::Other;
  } else if (reads_exec && (base == "S_MOV_B64" || base == "S_MOV_B32")) {
    facts.exec = ExecEffect::Copy;
  }
  return facts;
}

}  // namespace regscope::isa_detail
