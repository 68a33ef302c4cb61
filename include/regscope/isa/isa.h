// The isa stage: a kernel's final instructions -> where its registers go.
//
// AMD: the device assembly (.s, ideally compiled with -gline-tables-only so it
// carries .loc directives) is read with LLVM 15's own MC layer (the AMDGPU asm
// parser into a recording MCStreamer). Per function: a CFG, backward liveness
// over VGPR/AGPR/SGPR register units, per-source-line peak pressure, the point of
// maximum VGPR pressure with what is live there, the instruction mix, and a
// static per-block estimate from LLVM's MCA library (one wave, in order).
// NVIDIA: nvdisasm's own liveness (-plr) joined with its line table (-g).
//
// This header is the stage's vendor-neutral part (the report every backend
// fills); the readers are in the backends: analyzeAmdgpuAssembly
// (include/regscope/backends/amd/isa.h), joinNvdisasm
// (include/regscope/backends/nvidia/isa.h).
// Plain data in, plain data out: no file I/O, no printing. docs/explain.md has
// the method, its limits and the agreements measured.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "regscope/support/source_place.h"

namespace regscope {

// What an instruction is, for the instruction mix. Each instruction has exactly
// one kind; the first that applies wins, in this order: Unknown, AccvgprCopy,
// Mfma, Waitcnt, Branch, Scratch, Lds, Smem, VmemLoad, VmemStore, Valu, Salu.
enum class InstrKind {
  Valu,         // vector ALU (VOP1/2/3/3P/C, DPP, SDWA, DOT, transcendental)
  Salu,         // scalar ALU and other scalar program control (s_endpgm, s_barrier, s_nop)
  VmemLoad,     // global/flat/buffer/image loads (atomics count as stores)
  VmemStore,    // global/flat/buffer/image stores and atomics
  Smem,         // scalar memory (s_load_*, s_buffer_load_*, s_store_*, s_dcache_*)
  Lds,          // LDS/GDS (ds_*)
  Mfma,         // matrix cores (v_mfma_*, v_smfmac_*)
  Branch,       // s_branch, s_cbranch_*, s_setpc, s_swappc, s_call
  Waitcnt,      // s_waitcnt and its split forms
  Scratch,      // private segment: scratch_* and buffer_* over the scratch resource (spills, stack arrays)
  AccvgprCopy,  // v_accvgpr_read/write/mov: values moved between the VGPR and AGPR files
  Unknown,      // a line LLVM 15's parser could not read as an instruction
};
inline constexpr std::size_t kInstrKindCount = 12;

// Stable lower-case key ("valu", "vmem_load", ...) for JSON and tables.
const char *instrKindKey(InstrKind kind);

struct InstructionMix {
  std::array<int, kInstrKindCount> counts{};
  int total = 0;
  int alu = 0;     // Valu + Salu + Mfma
  int memory = 0;  // VmemLoad + VmemStore + Smem + Lds + Scratch
  // The Stream KernelAnalyzer's ALU:Fetch, as ALU / memory instructions; 0 when
  // the function has no memory instruction.
  double alu_per_memory = 0;

  int count(InstrKind kind) const { return counts[static_cast<std::size_t>(kind)]; }
};

// A source file named by .file (AMD) or by nvdisasm's line table (NVIDIA).
struct SourceFile {
  std::string directory;     // may be empty
  std::string name;          // as the compiler wrote it; may be absolute
  std::string path() const;  // name when absolute or directory empty, else directory/name
};

// One machine instruction. Live counts are 32-bit registers live across the
// instruction: live-in, live-out and written (see docs/explain.md).
// NVIDIA: vgprs are general registers (R), sgprs uniform registers (UR).
struct IsaInstruction {
  std::string text;   // AMD: as LLVM's instruction printer writes it; NVIDIA: the SASS text
  int asm_line = 0;   // AMD: 1-based line in the .s
  long address = -1;  // NVIDIA: the SASS offset; -1 when not printed
  // The source line: the innermost frame of the inline chain that lies in the
  // function's own file. Code inlined from headers (pow, threadIdx) counts for
  // the kernel's line that called it; code of a device function in the same
  // file, for that function's line. file: index into IsaReport::files, -1
  // none; line 0: none.
  int file = -1;
  int line = 0;
  // The innermost location (AMD: the .loc; NVIDIA: the first //## line):
  // differs from file/line in inlined code.
  int leaf_file = -1;
  int leaf_line = 0;
  int block = 0;                        // AMD: index into StaticEstimate::blocks
  int loop_depth = 0;                   // how many natural loops of the CFG hold its block (0: none)
  InstrKind kind = InstrKind::Unknown;  // NVIDIA: always Unknown (SASS is not classified; the mix stays empty)
  int live_vgprs = 0;
  int live_agprs = 0;
  int live_sgprs = 0;
};

// Per source line: the peak over the instructions that line produced.
struct LinePressure {
  int file = -1;
  int line = 0;
  int instructions = 0;
  int peak_vgprs = 0;
  int peak_agprs = 0;
  int peak_sgprs = 0;
};

// Registers whose value was written by a source line and is live across the
// peak: the long live ranges an edit can shorten.
struct LiveAcross {
  int file = -1;
  int line = 0;
  int vgprs = 0;
  int agprs = 0;
  int sgprs = 0;
};

// The instruction of maximum VGPR pressure (AMD; the first of ties), or of
// maximum live general registers (NVIDIA).
struct PressurePeak {
  int instruction = -1;  // index into IsaFunction::instructions; -1: no instruction
  int vgprs = 0;
  int agprs = 0;
  int sgprs = 0;
  std::vector<std::string> live_registers;  // one per 32-bit register: "v7", "a3", "s4", "vcc_lo"; NVIDIA "R12"
  std::vector<LiveAcross> live_across;      // most registers first
};

struct BlockEstimate {
  std::string label;          // ".LBB0_2"; empty for a block entered by fall-through only
  int first_instruction = 0;  // index into IsaFunction::instructions
  int instructions = 0;
  std::vector<int> successors;
  bool in_loop = false;    // on a cycle closed by a back edge of the CFG
  int loop_depth = 0;      // how many natural loops hold the block (nested loops: 2, ...)
  bool estimated = false;  // false: MCA could not model an instruction of it
  long cycles = 0;         // MCA: one pass through the block by one wave
  double ipc = 0;
};

// LLVM MCA over each basic block (one wave, in order, s_waitcnt stalls from the
// AMDGPU custom behaviour). `cycles` adds every block once, loop blocks
// included once: a latency estimate of one wave through the code, not a run time.
struct StaticEstimate {
  bool available = false;  // false: not asked for, or the target has no scheduling model
  std::vector<BlockEstimate> blocks;
  long cycles = 0;
  long loop_cycles = 0;  // the part of `cycles` in blocks inside loops
  int unmodelled_instructions = 0;
};

// Where a spilled value goes and comes back from.
enum class SpillMedium {
  Scratch,   // AMD private memory (scratch_* or buffer_* over the scratch resource)
  Agpr,      // AMD: a VGPR kept in an AGPR (v_accvgpr_write/read the compiler marks "Reload Reuse")
  VgprLane,  // AMD: an SGPR kept in a lane of a VGPR (v_writelane/v_readlane with a constant lane)
  Local,     // NVIDIA: local memory (STL/LDL)
};
const char *spillMediumKey(SpillMedium medium);  // "scratch", "agpr", "vgpr_lane", "local"

// One instruction that stores a value the register allocator could not keep in
// a register (a spill) or loads it back (a reload), or, with `spill` false, a
// private-memory access the compiler did not mark as a spill (a stack array,
// a value whose address is taken).
struct SpillSite {
  int instruction = -1;  // index into IsaFunction::instructions
  bool store = false;    // a spill (store); false: a reload (load)
  SpillMedium medium = SpillMedium::Scratch;
  int bytes = 0;              // per lane (AMD) or thread (NVIDIA)
  int loop_depth = 0;         // the instruction's block's (IsaInstruction::loop_depth)
  bool spill = true;          // false: a private access not marked as a spill
  bool from_comment = false;  // AMD: the compiler's own comment ("4-byte Folded Spill") says it is a spill
};

// A function's spill sites summed up.
struct SpillTotals {
  int accesses = 0;   // spill stores and reloads (SpillSite::spill)
  int in_loops = 0;   // ... of them at loop depth 1 or more
  int max_depth = 0;  // the deepest of them
  int stores = 0;
  int store_dwords =
      0;  // the dwords the spill stores write to scratch and AGPRs: what AMD's compiler counts as VGPRs spilled
  int lane_stores = 0;       // SGPRs written into VGPR lanes: what AMD's compiler counts as SGPRs spilled
  int private_accesses = 0;  // private accesses not marked as spills (stack arrays)
  int private_in_loops = 0;
  long store_bytes = 0;  // the spill stores' bytes per lane or thread (NVIDIA: what ptxas -v counts)
  long load_bytes = 0;   // ... and the reloads'
  // false: the CFG has a branch whose targets are not known (NVIDIA's BRX/JMX), so a
  // loop may be missed: the depths are a lower bound and loop_spills is not read.
  bool loops_known = true;
};

struct IsaFunction {
  std::string name;        // the symbol (mangled)
  bool is_kernel = false;  // AMD: has an .amdhsa_kernel descriptor; NVIDIA: always true
  bool has_line_info = false;
  // false: no per-instruction liveness was read (NVIDIA, when nvdisasm -plr
  // failed): lines, peak and live counts are unknown, not 0.
  bool has_liveness = true;
  std::vector<IsaInstruction> instructions;
  std::vector<LinePressure> lines;  // by file, then line; instructions without a line under file -1
  PressurePeak peak;
  int max_vgprs = 0;  // peaks over the function
  int max_agprs = 0;
  int max_sgprs = 0;
  InstructionMix mix;
  StaticEstimate estimate;
  // Every spill store and reload and every other private-memory access,
  // ranked: the deepest loop first, then the most bytes, then in code order.
  std::vector<SpillSite> spills;
  SpillTotals spill_totals;
  // One sentence each: no line information, where liveness is conservative
  // (indirect branches, calls), instructions LLVM 15 could not read.
  std::vector<std::string> notes;
};

struct IsaReport {
  std::string arch;
  std::vector<SourceFile> files;
  std::vector<IsaFunction> functions;  // in the order of the input
  std::vector<std::string> notes;      // input-level: lines skipped outside functions, ...
};

struct IsaOptions {
  bool estimate = true;  // run MCA per basic block
  // Only the CFG's loop depths and the spill sites, each instruction with its
  // line (no liveness, per-line table, peak, mix or estimate; instructions
  // without their text): what collect counts.
  bool spills_only = false;
};

// The `n` hottest source lines of a function: by peak VGPRs, then AGPRs, then
// SGPRs, then instruction count; lines without a source location are left out.
std::vector<LinePressure> hottestLines(const IsaFunction &function, std::size_t n);

// The line of the first spill site (in the ranking of IsaFunction::spills: the
// deepest loop first) inside a loop whose instruction has one, its file as
// `report`'s line table names it: where a gate's loop-spill verdict points.
// Line 0 when no spill in a loop has a line.
SourcePlace firstLoopSpill(const IsaReport &report, const IsaFunction &function);

}  // namespace regscope
