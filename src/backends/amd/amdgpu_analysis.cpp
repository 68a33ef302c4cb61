// analyzeAmdgpuAssembly: the .s -> functions -> CFG, liveness, lines, mix, MCA.
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "inline_sites.h"
#include "instr_semantics.h"
#include "liveness.h"
#include "mc_reader.h"
#include "mc_target.h"
#include "mca_estimate.h"
#include "regscope/backends/amd/isa.h"
#include "regscope/isa/summary.h"
#include "regscope/support/error.h"
#include "regscope/support/plural.h"
#include "spill_sites.h"

namespace regscope {

namespace {

using namespace isa_detail;

// `unknown`: lines inside the function LLVM 15 could not read as instructions.
void countMix(IsaFunction &f, int unknown) {
  InstructionMix &mix = f.mix;
  for (const IsaInstruction &i : f.instructions) ++mix.counts[static_cast<std::size_t>(i.kind)];
  mix.counts[static_cast<std::size_t>(InstrKind::Unknown)] += unknown;
  mix.total = static_cast<int>(f.instructions.size()) + unknown;
  mix.alu = mix.count(InstrKind::Valu) + mix.count(InstrKind::Salu) + mix.count(InstrKind::Mfma);
  mix.memory = mix.count(InstrKind::VmemLoad) + mix.count(InstrKind::VmemStore) + mix.count(InstrKind::Smem) +
               mix.count(InstrKind::Lds) + mix.count(InstrKind::Scratch);
  mix.alu_per_memory = mix.memory ? static_cast<double>(mix.alu) / mix.memory : 0;
}

// The peak, what is live there, and the lines whose values live across it.
void findPeak(IsaFunction &f, const std::vector<std::pair<int, int>> &source_lines, const Cfg &cfg,
              const std::vector<InstrFacts> &facts, const Liveness &live, const RegisterSlots &slots) {
  const int best = peakInstruction(f);
  if (best < 0) return;
  PressurePeak &peak = f.peak;
  peak.instruction = best;
  peak.vgprs = f.instructions[best].live_vgprs;
  peak.agprs = f.instructions[best].live_agprs;
  peak.sgprs = f.instructions[best].live_sgprs;
  SlotSet occupied = live.live_in[best] | live.live_out[best] | facts[best].defs;
  for (std::size_t s = 0; s < slots.size(); ++s)
    if (occupied.test(s)) peak.live_registers.push_back(slots.name(s));

  // Values that are live into and out of the peak, by the line that wrote them.
  std::map<std::pair<int, int>, LiveAcross> by_line;
  SlotSet across = live.live_in[best] & live.live_out[best];
  for (std::size_t s = 0; s < slots.size(); ++s) {
    if (!across.test(s)) continue;
    std::vector<int> defs = reachingDefinitions(cfg, facts, best, s);
    std::vector<std::pair<int, int>> lines;
    for (int d : defs) lines.push_back(source_lines[d]);
    if (defs.empty()) lines.push_back({-1, 0});  // set at launch
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    for (auto key : lines) {
      LiveAcross &a = by_line[key];
      a.file = key.first;
      a.line = key.second;
      switch (slots.file(s)) {
        case RegFile::Vgpr:
          ++a.vgprs;
          break;
        case RegFile::Agpr:
          ++a.agprs;
          break;
        case RegFile::Sgpr:
          ++a.sgprs;
          break;
      }
    }
  }
  for (auto &entry : by_line) peak.live_across.push_back(entry.second);
  std::stable_sort(peak.live_across.begin(), peak.live_across.end(), [](const LiveAcross &a, const LiveAcross &b) {
    return std::tie(b.vgprs, b.agprs, b.sgprs) < std::tie(a.vgprs, a.agprs, a.sgprs);
  });
}

void estimate(IsaFunction &f, const RawFunction &raw, const Cfg &cfg, McaEstimator &mca) {
  StaticEstimate &e = f.estimate;
  e.available = mca.available();
  std::vector<llvm::MCInst> insts;
  for (const Block &b : cfg.blocks) {
    BlockEstimate be;
    be.label = b.label;
    be.first_instruction = b.first;
    be.instructions = b.end - b.first;
    be.successors = b.successors;
    be.in_loop = b.in_loop;
    be.loop_depth = b.loop_depth;
    if (e.available) {
      insts.clear();
      for (int i = b.first; i < b.end; ++i) insts.push_back(raw.instructions[i].inst);
      BlockCycles c = mca.estimate(insts);
      be.estimated = c.estimated && c.unmodelled == 0;
      be.cycles = c.cycles;
      be.ipc = c.ipc;
      e.unmodelled_instructions += c.unmodelled;
      e.cycles += c.cycles;
      if (b.in_loop) e.loop_cycles += c.cycles;
    }
    e.blocks.push_back(std::move(be));
  }
  if (e.unmodelled_instructions > 0)
    f.notes.push_back("MCA could not model " + std::to_string(e.unmodelled_instructions) +
                      " instructions; the estimate leaves them out");
}

// Moves each instruction's line from the .loc (innermost) to the innermost
// frame of its inline chain in the function's own file, when the assembly
// carries the inline tree.
void resolveCallSites(const AmdgpuTarget &target, std::string_view assembly, AsmModule &module) {
  std::size_t total = 0;
  bool any_loc = false;
  for (RawFunction &f : module.functions) {
    for (RawInstruction &r : f.instructions) {
      r.leaf_file = r.file;
      r.leaf_line = r.line;
      any_loc = any_loc || r.file >= 0;
    }
    total += f.instructions.size();
  }
  if (!any_loc) return;  // no line table: the inline tree alone would name only inlined code
  std::vector<std::vector<CallSite>> sites;
  std::string why;
  if (module.foreign_errors > 0) {
    // Assembling damaged text can send LLVM 15's layout into a loop that never
    // settles (relaxing .uleb128 over labels the damage left undefined).
    why = std::string(amdgpu_mc::kLinkedLlvm) + " cannot read " + plural(module.foreign_errors, "line", "lines") +
          " of it";
  } else if (readCallSites(target, assembly, sites, why) && sites.size() != total) {
    why = "the assembled object and the parsed text disagree on the instructions";
  }
  if (!why.empty()) {
    module.notes.push_back(
        "lines are the innermost .loc only (inlined code counts for the inlined function's "
        "line): " +
        why);
    return;
  }
  auto normal = [](const std::string &path) {
    llvm::SmallString<256> p(path);
    llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
    return std::string(p.str());
  };
  std::map<std::string, int> by_path;
  for (std::size_t i = 0; i < module.files.size(); ++i) by_path.emplace(normal(module.files[i].path()), i);
  std::size_t k = 0;
  for (RawFunction &f : module.functions) {
    for (RawInstruction &r : f.instructions) {
      const std::vector<CallSite> &chain = sites[k++];
      if (chain.empty() || r.leaf_file < 0 || chain.back().file.empty()) continue;
      // The frames innermost first: the .loc, then each call site. The line
      // is the first frame in the function's own file (the outermost call's).
      const std::string own = normal(chain.back().file);
      if (normal(module.files[r.leaf_file].path()) == own) continue;
      for (const CallSite &site : chain) {
        if (site.line <= 0 || normal(site.file) != own) continue;
        auto [it, added] = by_path.try_emplace(own, static_cast<int>(module.files.size()));
        if (added) module.files.push_back(SourceFile{"", site.file});
        r.file = it->second;
        r.line = site.line;
        break;
      }
    }
  }
}

// The comment the compiler wrote after each instruction (after `;` on its
// line of `lines`, the .s split at newlines).
std::vector<std::string_view> instructionComments(const RawFunction &raw, const std::vector<std::string_view> &lines) {
  std::vector<std::string_view> comments;
  comments.reserve(raw.instructions.size());
  for (const RawInstruction &r : raw.instructions) {
    std::string_view line =
        r.asm_line >= 1 && r.asm_line <= static_cast<int>(lines.size()) ? lines[r.asm_line - 1] : "";
    const std::size_t semicolon = line.find(';');
    comments.push_back(semicolon == std::string_view::npos ? std::string_view() : line.substr(semicolon + 1));
  }
  return comments;
}

// Each instruction's (file, line) as explain shows it. A .loc with line 0 marks
// code the compiler made that belongs to no source line (Triton writes one
// after each statement's first instructions); like LLVM's own line tables,
// which carry the previous row's line on until a new row, such an instruction
// counts for the previous real line of its block, and for no line (file -1)
// at the head of a block, where nothing precedes it.
std::vector<std::pair<int, int>> sourceLines(const RawFunction &raw, const Cfg &cfg) {
  std::vector<std::pair<int, int>> lines(raw.instructions.size(), {-1, 0});
  for (std::size_t i = 0; i < raw.instructions.size(); ++i) {
    const RawInstruction &r = raw.instructions[i];
    if (r.line > 0)
      lines[i] = {r.file, r.line};
    else if (i > 0 && cfg.block_of[i] == cfg.block_of[i - 1])
      lines[i] = lines[i - 1];
  }
  return lines;
}

IsaFunction analyzeFunction(const RawFunction &raw, const AmdgpuTarget &target, const RegisterSlots &slots,
                            const std::vector<std::string_view> &lines, bool spills_only, McaEstimator *mca) {
  IsaFunction f;
  f.name = raw.name;
  f.is_kernel = raw.is_kernel;
  const std::size_t n = raw.instructions.size();
  std::vector<InstrFacts> facts;
  facts.reserve(n);
  for (const RawInstruction &r : raw.instructions) facts.push_back(describe(target, slots, r.inst));

  Cfg cfg = buildCfg(raw.instructions, facts);
  const std::vector<std::pair<int, int>> source_lines = sourceLines(raw, cfg);
  // A refused instruction that could branch or reach private memory: the CFG or
  // the spill sites may miss it (summarizeSpills keeps the flag).
  if (raw.unknown_branch_or_private > 0) {
    f.spill_totals.loops_known = false;
    f.notes.push_back(std::to_string(raw.unknown_branch_or_private) + " of the instructions " + amdgpu_mc::kLinkedLlvm +
                      " cannot read could branch or reach private memory: spill counts and loop depths may be low");
  }
  if (spills_only) {
    f.instructions.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      f.instructions[i].asm_line = raw.instructions[i].asm_line;
      std::tie(f.instructions[i].file, f.instructions[i].line) = source_lines[i];
      f.instructions[i].block = cfg.block_of[i];
      f.instructions[i].loop_depth = cfg.blocks[cfg.block_of[i]].loop_depth;
      f.instructions[i].kind = facts[i].kind;
    }
    f.spills = findSpillSites(target, raw, facts, instructionComments(raw, lines));
    rankSpills(f);
    return f;
  }
  Liveness live = solveLiveness(cfg, facts, slots);
  const SlotSet &vgpr = slots.mask(RegFile::Vgpr);
  const SlotSet &agpr = slots.mask(RegFile::Agpr);
  const SlotSet &sgpr = slots.mask(RegFile::Sgpr);
  f.instructions.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const RawInstruction &r = raw.instructions[i];
    IsaInstruction inst;
    inst.text = target.print(r.inst);
    inst.asm_line = r.asm_line;
    std::tie(inst.file, inst.line) = source_lines[i];
    inst.leaf_file = r.leaf_file;
    inst.leaf_line = r.leaf_line;
    inst.block = cfg.block_of[i];
    inst.loop_depth = cfg.blocks[inst.block].loop_depth;
    inst.kind = facts[i].kind;
    // Registers in use while the instruction runs: live into it, or written by
    // it (a write nobody reads still takes a register).
    SlotSet occupied = live.live_in[i] | live.live_out[i] | facts[i].defs;
    inst.live_vgprs = static_cast<int>((occupied & vgpr).count());
    inst.live_agprs = static_cast<int>((occupied & agpr).count());
    inst.live_sgprs = static_cast<int>((occupied & sgpr).count());
    f.has_line_info = f.has_line_info || r.leaf_file >= 0;
    f.instructions.push_back(std::move(inst));
  }
  summarizeLines(f);
  countMix(f, raw.unknown_instructions);
  // The registers a refused instruction reads and writes are not known, so no
  // count of live registers is (an MFMA gfx942's parser refuses holds dozens).
  // Nor is a cycle estimate that leaves them out.
  f.has_liveness = raw.unknown_instructions == 0;
  if (f.has_liveness)
    findPeak(f, source_lines, cfg, facts, live, slots);
  else
    f.notes.push_back(plural(raw.unknown_instructions, "instruction", "instructions") + " " + amdgpu_mc::kLinkedLlvm +
                      " cannot read: live registers are not counted and no cycles estimated");
  f.spills = findSpillSites(target, raw, facts, instructionComments(raw, lines));
  rankSpills(f);
  if (!f.has_line_info && n > 0)
    f.notes.push_back(
        "no line information (.loc) in the assembly: pressure and mix are per instruction only; "
        "compile with -gline-tables-only for per-line figures");
  for (const std::string &note : raw.notes) f.notes.push_back(note);
  for (const std::string &note : cfg.notes) f.notes.push_back(note);
  for (const std::string &note : live.notes) f.notes.push_back(note);
  if (mca && f.has_liveness) estimate(f, raw, cfg, *mca);
  return f;
}

// True when the line holds a control character or leaves a string literal
// open: compiler output never does, and LLVM 15's asm lexer can loop forever on
// both (found by mutating real .s files: an unterminated string runs on into
// the next lines).
bool notCompilerText(std::string_view line) {
  bool in_string = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) return true;
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == ';') {
      // A comment: the rest is free text, but still no control characters.
      for (++i; i < line.size(); ++i) {
        const unsigned char d = static_cast<unsigned char>(line[i]);
        if ((d < 0x20 && d != '\t' && d != '\r') || d == 0x7f) return true;
      }
      return false;
    }
  }
  return in_string;
}

// Blanks such lines, keeping the line numbers. Returns how many.
int blankForeignLines(std::string &text) {
  int blanked = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (notCompilerText(std::string_view(text).substr(start, end - start))) {
      text.erase(start, end - start);
      end = start;
      ++blanked;
    }
    start = end + 1;
  }
  return blanked;
}

}  // namespace

IsaReport analyzeAmdgpuAssembly(std::string_view assembly, std::string_view arch, const IsaOptions &options) {
  AmdgpuTarget target(arch);
  std::string text(assembly);
  const int blanked = blankForeignLines(text);
  std::unique_ptr<AsmModule> module = readAssembly(target, text);
  if (blanked > 0)
    module->notes.push_back(std::to_string(blanked) + " line" + (blanked == 1 ? "" : "s") +
                            " skipped: control characters or an unterminated string, not compiler output");
  bool any = false;
  for (const RawFunction &f : module->functions) any = any || !f.instructions.empty();
  if (!any) {
    std::string why = module->notes.empty() ? std::string() : ": " + module->notes.front();
    throw Error("no AMDGPU instruction in the assembly" + why);
  }
  // Also for spill sites alone: a spill's line is explain's (the call site in the kernel's file, not
  // the inlined header's line: HeCBench rsbench's loop spills sit in __clang_hip_math.h's atan).
  resolveCallSites(target, text, *module);
  RegisterSlots slots(*target.mri);
  std::unique_ptr<McaEstimator> mca;
  if (options.estimate && !options.spills_only) mca = std::make_unique<McaEstimator>(target);

  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(std::string_view(text).substr(start, end - start));
    start = end + 1;
  }
  IsaReport report;
  report.arch = target.cpu;
  report.files = module->files;
  report.notes = module->notes;
  for (const RawFunction &raw : module->functions) {
    if (raw.instructions.empty() && raw.unknown_instructions == 0) continue;
    report.functions.push_back(analyzeFunction(raw, target, slots, lines, options.spills_only, mca.get()));
  }
  return report;
}

}  // namespace regscope
