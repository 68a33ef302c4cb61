// The isa stage on real compiler output (fixtures/*/lines/, written by
// fixtures/regenerate.sh) and on small hand-written snippets that pin one rule
// each (marked as such below).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "regscope/backends/amd/collect.h"
#include "regscope/backends/amd/isa.h"
#include "regscope/backends/nvidia/isa.h"
#include "regscope/collect/collect.h"
#include "regscope/isa/isa.h"
#include "regscope/support/error.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using test::fixture;
using test::readText;
using test::sourcePath;

const IsaFunction *findFunction(const IsaReport &r, const std::string &name) {
  for (const IsaFunction &f : r.functions)
    if (f.name == name) return &f;
  return nullptr;
}

const IsaFunction &onlyFunction(const IsaReport &r) {
  if (r.functions.size() != 1)
    throw std::runtime_error("expected one function, got " + std::to_string(r.functions.size()));
  return r.functions.front();
}

// The index of the first instruction whose printed text starts with `prefix`.
int instructionAt(const IsaFunction &f, const std::string &prefix) {
  for (std::size_t i = 0; i < f.instructions.size(); ++i)
    if (f.instructions[i].text.rfind(prefix, 0) == 0) return static_cast<int>(i);
  throw std::runtime_error("no instruction starting with " + prefix);
}

bool hasNote(const IsaFunction &f, const std::string &text) {
  for (const std::string &note : f.notes)
    if (note.find(text) != std::string::npos) return true;
  return false;
}

// The first source line of `file` (1-based) that contains `needle`.
int lineContaining(const std::string &file, const std::string &needle) {
  std::string text = readText(sourcePath(file));
  std::size_t at = text.find(needle);
  if (at == std::string::npos) throw std::runtime_error(needle + " not in " + file);
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

// Hand-written: a minimal function around `body`, for rules that need one
// instruction pattern in isolation.
std::string snippet(const std::string &body) {
  return "\t.text\n\t.globl f\n\t.p2align 8\n\t.type f,@function\nf:\n" + body +
         "\ts_endpgm\n.Lfunc_end0:\n"
         "\t.size f, .Lfunc_end0-f\n";
}

// --- Classification: LLVM 15's TSFlags positions, checked on the real library.

TEST(IsaSemantics, ClassifiesFromLlvm15Flags) {
  IsaReport r = analyzeAmdgpuAssembly(snippet("\tv_add_f32_e32 v0, v1, v2\n"
                                              "\ts_add_u32 s0, s1, s2\n"
                                              "\tglobal_load_dword v3, v[4:5], off\n"
                                              "\tglobal_store_dword v[4:5], v3, off\n"
                                              "\tflat_load_dword v3, v[4:5]\n"
                                              "\tds_read_b32 v6, v7\n"
                                              "\ts_load_dword s4, s[0:1], 0x0\n"
                                              "\tbuffer_store_dword v1, off, s[0:3], 0 offset:4\n"
                                              "\tscratch_load_dword v1, off, s8\n"
                                              "\tv_mfma_f32_32x32x1f32 a[0:31], v0, v1, a[0:31]\n"
                                              "\tv_accvgpr_read_b32 v2, a3\n"
                                              "\tv_accvgpr_write_b32 a4, v2\n"
                                              "\ts_waitcnt vmcnt(0)\n"
                                              "\ts_cbranch_scc1 .LBB0_1\n"
                                              ".LBB0_1:\n"),
                                      "gfx90a");
  const IsaFunction &f = onlyFunction(r);
  const std::vector<InstrKind> want = {
      InstrKind::Valu,        InstrKind::Salu,        InstrKind::VmemLoad, InstrKind::VmemStore, InstrKind::VmemLoad,
      InstrKind::Lds,         InstrKind::Smem,        InstrKind::Scratch,  InstrKind::Scratch,   InstrKind::Mfma,
      InstrKind::AccvgprCopy, InstrKind::AccvgprCopy, InstrKind::Waitcnt,  InstrKind::Branch,    InstrKind::Salu};
  ASSERT_EQ(f.instructions.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(instrKindKey(f.instructions[i].kind), std::string(instrKindKey(want[i]))) << f.instructions[i].text;
  EXPECT_EQ(f.mix.count(InstrKind::Scratch), 2);
  EXPECT_EQ(f.mix.alu, 4);  // v_add, s_add, the MFMA and s_endpgm (program control counts as SALU)
  EXPECT_EQ(f.mix.memory, 7);
}

// --- Liveness rules, each on a hand-written snippet.

TEST(IsaLiveness, ReadModifyWriteReadsItsDestination) {
  // RGA issue #124: s_mulk_i32 reads s4; a plain s_mov_b32 does not.
  const std::string tail = "\tv_mov_b32_e32 v0, s4\n\tglobal_store_dword v[2:3], v0, off\n";
  IsaReport rmw =
      analyzeAmdgpuAssembly(snippet("\ts_mov_b32 s4, 7\n\ts_nop 0\n\ts_mulk_i32 s4, 0x3\n" + tail), "gfx90a");
  IsaReport mov = analyzeAmdgpuAssembly(snippet("\ts_mov_b32 s4, 7\n\ts_nop 0\n\ts_mov_b32 s4, 3\n" + tail), "gfx90a");
  int at = instructionAt(onlyFunction(rmw), "s_nop");
  EXPECT_EQ(onlyFunction(rmw).instructions[at].live_sgprs, onlyFunction(mov).instructions[at].live_sgprs + 1);
}

TEST(IsaLiveness, TiedAccumulatorsAreRead) {
  // v_fmac's tied src2 and an MFMA's accumulator input are live before them.
  IsaReport fmac = analyzeAmdgpuAssembly(snippet("\tv_mov_b32_e32 v0, 1.0\n\ts_nop 0\n\tv_fmac_f32_e32 v0, v1, v2\n"
                                                 "\tglobal_store_dword v[4:5], v0, off\n"),
                                         "gfx90a");
  const IsaFunction &f = onlyFunction(fmac);
  EXPECT_EQ(f.instructions[instructionAt(f, "s_nop")].live_vgprs, 5);  // v0 v1 v2 v4 v5

  const std::string accumulators =
      "\tv_accvgpr_write_b32 a0, 0\n\tv_accvgpr_write_b32 a1, 0\n\tv_accvgpr_write_b32 a2, 0\n"
      "\tv_accvgpr_write_b32 a3, 0\n\ts_nop 0\n";
  const std::string tail = "\tv_accvgpr_read_b32 v2, a0\n\tglobal_store_dword v[4:5], v2, off\n";
  IsaReport accumulate =
      analyzeAmdgpuAssembly(snippet(accumulators + "\tv_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3]\n" + tail), "gfx908");
  // The same, but the MFMA accumulates onto a[4:7], written after the s_nop:
  // a[0:3] are overwritten unread, so nothing is live in AGPRs at the s_nop.
  IsaReport fresh = analyzeAmdgpuAssembly(
      snippet(accumulators +
              "\tv_accvgpr_write_b32 a4, 0\n\tv_accvgpr_write_b32 a5, 0\n\tv_accvgpr_write_b32 a6, 0\n"
              "\tv_accvgpr_write_b32 a7, 0\n\tv_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[4:7]\n" +
              tail),
      "gfx908");
  const IsaFunction &m = onlyFunction(accumulate);
  EXPECT_EQ(m.instructions[instructionAt(m, "s_nop")].live_agprs, 4);
  EXPECT_EQ(onlyFunction(fresh).instructions[instructionAt(m, "s_nop")].live_agprs, 0);
  EXPECT_EQ(m.mix.count(InstrKind::Mfma), 1);
  EXPECT_EQ(m.mix.count(InstrKind::AccvgprCopy), 5);
}

TEST(IsaLiveness, WriteUnderPartialExecKeepsOtherLanesValue) {
  // x = 1; if (lane < 4) x = 2; store x: the first value stays live through
  // the masked write, for the lanes that skip it.
  const std::string head =
      "\tv_mov_b32_e32 v5, 1\n\tv_cmp_gt_u32_e32 vcc, 4, v0\n\ts_and_saveexec_b64 s[2:3], vcc\n"
      "\tv_mov_b32_e32 v5, 2\n\ts_or_b64 exec, exec, s[2:3]\n";
  IsaReport merged = analyzeAmdgpuAssembly(snippet(head + "\tglobal_store_dword v[6:7], v5, off\n"), "gfx90a");
  const IsaFunction &f = onlyFunction(merged);
  EXPECT_EQ(f.instructions[instructionAt(f, "s_and_saveexec")].live_vgprs, 3);  // v5 v6 v7
  // Overwritten in full exec after the join: the first value is dead under the mask.
  IsaReport dead =
      analyzeAmdgpuAssembly(snippet(head + "\tv_mov_b32_e32 v5, 3\n\tglobal_store_dword v[6:7], v5, off\n"), "gfx90a");
  const IsaFunction &d = onlyFunction(dead);
  EXPECT_EQ(d.instructions[instructionAt(d, "s_and_saveexec")].live_vgprs, 2);  // v6 v7
}

TEST(IsaLiveness, AccvgprCopiesMoveValuesBetweenFiles) {
  IsaReport r = analyzeAmdgpuAssembly(
      snippet("\tv_mov_b32_e32 v1, 5\n\tv_accvgpr_write_b32 a0, v1\n\ts_nop 0\n\tv_accvgpr_read_b32 v2, a0\n"
              "\tglobal_store_dword v[4:5], v2, off\n"),
      "gfx908");
  const IsaFunction &f = onlyFunction(r);
  const IsaInstruction &parked = f.instructions[instructionAt(f, "s_nop")];
  EXPECT_EQ(parked.live_agprs, 1);
  EXPECT_EQ(parked.live_vgprs, 2);  // v4 v5: v1 is dead once parked in a0
}

TEST(IsaLiveness, IndirectBranchIsConservativeAndSaysWhere) {
  IsaReport r = analyzeAmdgpuAssembly(
      "\t.text\n\t.type g,@function\ng:\n\tv_mov_b32_e32 v1, 2\n\ts_setpc_b64 s[30:31]\n.Lfunc_end0:\n"
      "\t.size g, .Lfunc_end0-g\n",
      "gfx90a");
  const IsaFunction &f = onlyFunction(r);
  EXPECT_EQ(f.instructions.back().live_vgprs, 1);  // v1 taken as live at the unknown exit
  EXPECT_TRUE(hasNote(f, "indirect branch at instruction 1"));
}

// --- Bad input.

TEST(IsaInput, GarbageIsAnErrorNotACrash) {
  EXPECT_THROW(analyzeAmdgpuAssembly("", "gfx90a"), Error);
  EXPECT_THROW(analyzeAmdgpuAssembly("hello world\n{}\n", "gfx90a"), Error);
  std::string bytes;
  for (int i = 0; i < 4096; ++i) bytes += static_cast<char>((i * 7919 + 13) % 256);
  EXPECT_THROW(analyzeAmdgpuAssembly(bytes, "gfx90a"), Error);
  EXPECT_THROW(analyzeAmdgpuAssembly(snippet("\ts_nop 0\n"), "gfx9999"), Error);
  EXPECT_THROW(analyzeAmdgpuAssembly(snippet("\ts_nop 0\n"), ""), Error);
}

TEST(IsaInput, UnknownInstructionIsCountedNotFatal) {
  IsaReport r = analyzeAmdgpuAssembly(snippet("\tv_mov_b32_e32 v0, 1\n\tv_frobnicate_b32 v0, v1\n"), "gfx90a");
  const IsaFunction &f = onlyFunction(r);
  EXPECT_EQ(f.mix.count(InstrKind::Unknown), 1);
  EXPECT_EQ(f.mix.total, 3);
  EXPECT_TRUE(hasNote(f, "v_frobnicate_b32"));
}

// Real compiler output, damaged the ways that made LLVM 15 loop or abort when
// this stage was fuzzed (an unterminated string running into the next lines,
// control characters, data inside a function, a lost label, a corrupted DIE),
// plus seeded random damage: each gives a result or regscope::Error.
TEST(IsaInput, DamagedCompilerOutputNeverCrashes) {
  const std::string base = fixture("hipcc-5.2.3/lines/bitonic-gfx90a.s");
  std::vector<std::string> lines;
  for (std::size_t start = 0; start <= base.size();) {
    std::size_t end = base.find('\n', start);
    if (end == std::string::npos) end = base.size();
    lines.push_back(base.substr(start, end - start));
    start = end + 1;
  }
  auto join = [](const std::vector<std::string> &l) {
    std::string out;
    for (const std::string &x : l) out += x + "\n";
    return out;
  };
  auto lineWith = [&](const std::string &needle) {
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (lines[i].find(needle) != std::string::npos) return i;
    throw std::runtime_error("no line with " + needle);
  };
  std::vector<std::string> cases;
  {
    std::vector<std::string> l = lines;
    l[lineWith(".amdhsa_reserve_flat_scratch")] = "\t\t.\"mdhsa_reserve_flat_scratch 0";
    cases.push_back(join(l));
  }
  {
    std::vector<std::string> l = lines;
    l[lineWith("s_mul_i32")] = std::string(
        "C/\xb9"
        "F\x11\t\x9f",
        7);
    cases.push_back(join(l));
  }
  {
    std::vector<std::string> l = lines;
    l.insert(l.begin() + static_cast<long>(lineWith("v_mul_f32")), "\t.byte\t4");
    cases.push_back(join(l));
  }
  {
    std::vector<std::string> l = lines;
    l.erase(l.begin() + static_cast<long>(lineWith(".Ltmp1:")));
    cases.push_back(join(l));
  }
  {
    std::vector<std::string> l = lines;
    std::size_t abbrev = lineWith("DW_TAG_inlined_subroutine");
    l[abbrev] = "\t.byte\t77";
    cases.push_back(join(l));
  }
  std::uint32_t seed = 12345;
  auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
  for (int n = 0; n < 30; ++n) {
    std::vector<std::string> l = lines;
    for (int k = 0; k < 8; ++k) {
      std::size_t i = next() % l.size();
      switch (n % 4) {
        case 0:
          l.erase(l.begin() + static_cast<long>(i));
          break;
        case 1:
          l.insert(l.begin() + static_cast<long>(i), l[next() % l.size()]);
          break;
        case 2:
          if (!l[i].empty()) l[i][next() % l[i].size()] = static_cast<char>(32 + next() % 95);
          break;
        default:
          l[i] = l[i].substr(0, l[i].size() / 2);
          break;
      }
    }
    cases.push_back(join(l));
  }
  for (std::size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE("case " + std::to_string(c));
    try {
      IsaReport r = analyzeAmdgpuAssembly(cases[c], "gfx90a");
      for (const IsaFunction &f : r.functions) EXPECT_LE(f.max_vgprs, 512);
    } catch (const Error &) {
    }
  }
}

TEST(IsaInput, WithoutLineInfoStillGetsPressureAndMix) {
  // The line-tables fixture with every .loc removed: the same pressure and mix
  // per instruction, a note instead of lines.
  const std::string with = fixture("hipcc-5.2.3/lines/lbm-gfx90a.s");
  std::string without;
  for (std::size_t start = 0; start < with.size();) {
    std::size_t end = with.find('\n', start);
    end = end == std::string::npos ? with.size() : end + 1;
    if (with.compare(start, 5, "\t.loc") != 0) without.append(with, start, end - start);
    start = end;
  }
  const IsaFunction p = onlyFunction(analyzeAmdgpuAssembly(without, "gfx90a"));
  const IsaFunction l = onlyFunction(analyzeAmdgpuAssembly(with, "gfx90a"));
  EXPECT_FALSE(p.has_line_info);
  EXPECT_TRUE(l.has_line_info);
  EXPECT_TRUE(hasNote(p, "no line information"));
  ASSERT_EQ(p.instructions.size(), l.instructions.size());
  for (std::size_t i = 0; i < p.instructions.size(); ++i)
    ASSERT_EQ(p.instructions[i].live_vgprs, l.instructions[i].live_vgprs);
  EXPECT_EQ(p.mix.counts, l.mix.counts);
  EXPECT_EQ(p.estimate.cycles, l.estimate.cycles);
  ASSERT_EQ(p.lines.size(), 1u);  // everything under "no line"
  EXPECT_EQ(p.lines.front().file, -1);
}

TEST(IsaInput, AnalysisCompileCarriesTheSameCode) {
  // regscope's own compile (--save-temps -fsave-optimization-record, no -g)
  // already writes .loc; its code equals the -gline-tables-only compile's.
  const IsaFunction a = onlyFunction(analyzeAmdgpuAssembly(fixture("hipcc-5.2.3/lbm-gfx90a.s"), "gfx90a"));
  const IsaFunction g = onlyFunction(analyzeAmdgpuAssembly(fixture("hipcc-5.2.3/lines/lbm-gfx90a.s"), "gfx90a"));
  ASSERT_EQ(a.instructions.size(), g.instructions.size());
  for (std::size_t i = 0; i < a.instructions.size(); ++i) ASSERT_EQ(a.instructions[i].text, g.instructions[i].text);
  EXPECT_TRUE(a.has_line_info);
  EXPECT_EQ(hottestLines(a, 5).front().line, hottestLines(g, 5).front().line);
}

TEST(IsaInput, Clang19AssemblyReadsWithNotes) {
  // LLVM 15 does not know clang 19's .amdhsa_code_object_version 5 or its new
  // kernel-descriptor fields: skipped with one note, the code still read.
  IsaReport r = analyzeAmdgpuAssembly(fixture("clang-19/lines/bitonic-gfx90a.s"), "gfx90a");
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.front().find(".amdhsa_code_object_version"), std::string::npos) << r.notes.front();
  for (const IsaFunction &f : r.functions) {
    EXPECT_TRUE(f.is_kernel) << f.name;
    EXPECT_EQ(f.mix.count(InstrKind::Unknown), 0) << f.name;
    EXPECT_TRUE(f.has_line_info);
  }
}

// --- Peak live registers never exceed what the compiler allocated.

struct Allocation {
  std::string file, arch, kernel;
  std::int64_t vgprs = 0, agprs = 0, sgprs = 0;
  int live_vgprs = 0, live_agprs = 0, live_sgprs = 0;
};

std::vector<Allocation> allocations() {
  std::vector<Allocation> out;
  for (const char *dir : {"hipcc-5.2.3/lines", "clang-19/lines", "hipcc-5.2.3", "clang-19"}) {
    for (const auto &entry : fs::directory_iterator(sourcePath(std::string("fixtures/") + dir))) {
      if (entry.path().extension() != ".s") continue;
      std::string text = readText(entry.path().string());
      AsmFile parsed = parseAsm(text);
      IsaReport report = analyzeAmdgpuAssembly(text, parsed.arch);
      for (const KernelFacts &k : parsed.facts.kernels) {
        if (!k.is_kernel) continue;
        const IsaFunction *f = findFunction(report, k.name);
        if (!f) throw std::runtime_error(k.name + " not analysed in " + entry.path().string());
        Allocation a{std::string(dir) + "/" + entry.path().filename().string(), parsed.arch, k.name};
        auto value = [&](Field field) { return k.values[static_cast<std::size_t>(field)].value_or(0); };
        a.vgprs = value(Field::Vgprs);
        a.agprs = value(Field::Agprs);
        a.sgprs = value(Field::Sgprs);
        a.live_vgprs = f->max_vgprs;
        a.live_agprs = f->max_agprs;
        a.live_sgprs = f->max_sgprs;
        out.push_back(a);
      }
    }
  }
  return out;
}

TEST(IsaFixtures, PeakLiveWithinTheAllocation) {
  std::vector<Allocation> all = allocations();
  EXPECT_GE(all.size(), 30u);
  std::map<std::int64_t, int> gaps;
  for (const Allocation &a : all) {
    SCOPED_TRACE(a.file + " " + a.kernel);
    EXPECT_GT(a.live_vgprs, 0);
    EXPECT_LE(a.live_vgprs, a.vgprs);
    EXPECT_LE(a.live_agprs, a.agprs);
    EXPECT_LE(a.live_sgprs, a.sgprs);  // the allocation adds VCC, flat_scratch and XNACK
    // Not vacuous on the reference kernels (optimised, no calls, no asm
    // clobbers): the live peak comes within a few registers of the allocation,
    // which counts up to the highest register used (gfx90a also aligns pairs).
    if (a.file.find("/lines/") != std::string::npos) EXPECT_LE(a.vgprs - a.live_vgprs, 8);
    ++gaps[a.vgprs - a.live_vgprs];
  }
  // The distribution docs/explain.md reports.
  std::cout << "allocated - peak live VGPRs over " << all.size() << " kernels:";
  for (auto [gap, n] : gaps) std::cout << " " << gap << ":" << n;
  std::cout << "\n";
  for (const Allocation &a : all)
    std::cout << "  " << a.file << " " << a.kernel << " allocated " << a.vgprs << " live " << a.live_vgprs << "\n";
}

// --- LBM (seed 000): the peak falls with the variants' VGPRs, and the lines
// each step changed are hot in the variant before it.

struct Variant {
  const char *name;
  int vgprs;
  int peak;
  const IsaFunction *f;
};

TEST(IsaLbm, PeakFallsAsTheVariantsVgprsFall) {
  const char *names[] = {"lbm", "lbm_nopow", "lbm_rearrange", "lbm_restrict_g14", "lbm_restrict_g7"};
  std::vector<std::pair<std::int64_t, int>> figures;  // allocated, live peak
  for (const char *name : names) {
    std::string text = fixture(std::string("hipcc-5.2.3/lines/") + name + "-gfx90a.s");
    AsmFile parsed = parseAsm(text);
    IsaReport r = analyzeAmdgpuAssembly(text, "gfx90a");
    figures.push_back({parsed.facts.kernels.front().values[static_cast<std::size_t>(Field::Vgprs)].value_or(0),
                       onlyFunction(r).max_vgprs});
  }
  // docs/modelling.md's table: 102, 100, 96, 94, 96.
  EXPECT_EQ(figures[0].first, 102);
  EXPECT_EQ(figures[3].first, 94);
  for (std::size_t i = 0; i < figures.size(); ++i)
    for (std::size_t j = 0; j < figures.size(); ++j)
      if (figures[i].first > figures[j].first)
        EXPECT_GE(figures[i].second, figures[j].second) << names[i] << " vs " << names[j];
  // The first three steps each lower the live peak.
  EXPECT_GT(figures[0].second, figures[1].second);
  EXPECT_GT(figures[1].second, figures[2].second);
}

// A line is hot when its peak is within 5% of the kernel's: on the pressure
// plateau that sets the allocation.
bool hot(const IsaFunction &f, int line) {
  for (const LinePressure &l : f.lines)
    if (l.line == line && l.peak_vgprs * 100 >= f.max_vgprs * 95) return true;
  return false;
}

TEST(IsaLbm, TheLinesEachStepChangedAreHotBeforeIt) {
  auto kernel = [](const char *name) {
    return analyzeAmdgpuAssembly(fixture(std::string("hipcc-5.2.3/lines/") + name + "-gfx90a.s"), "gfx90a");
  };
  // Step 1 changed the pow line: the hottest line of the original.
  IsaReport original = kernel("lbm");
  int pow_line = lineContaining("kernels/lbm/lbm.hip", "pow(current_phi");
  std::vector<LinePressure> top = hottestLines(onlyFunction(original), 1);
  ASSERT_EQ(top.size(), 1u);
  EXPECT_EQ(top.front().line, pow_line);
  // Step 2 moved the f0[m] update.
  IsaReport nopow = kernel("lbm_nopow");
  EXPECT_TRUE(hot(onlyFunction(nopow), lineContaining("kernels/lbm/lbm_nopow.hip", "f0[m] = itauphi1")));
  // Steps 3 and 4 declared g14, then g7, __restrict__: their loads are hot.
  auto anyHot = [&](const IsaFunction &f, const std::string &file, const std::string &access) {
    std::string text = readText(sourcePath(file));
    int line = 1;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') ++line;
      if (text.compare(i, access.size(), access) == 0 && hot(f, line)) return true;
    }
    return false;
  };
  EXPECT_TRUE(anyHot(onlyFunction(kernel("lbm_rearrange")), "kernels/lbm/lbm_rearrange.hip", "g14[current_pos]"));
  EXPECT_TRUE(anyHot(onlyFunction(kernel("lbm_restrict_g14")), "kernels/lbm/lbm_restrict_g14.hip", "g7[current_pos]"));
}

TEST(IsaLbm, InlinedCodeCountsForTheCallingLine) {
  // pow's body comes from __clang_hip_math.h; it counts for the kernel's line.
  IsaReport r = analyzeAmdgpuAssembly(fixture("hipcc-5.2.3/lines/lbm-gfx90a.s"), "gfx90a");
  const IsaFunction &f = onlyFunction(r);
  int pow_line = lineContaining("kernels/lbm/lbm.hip", "pow(current_phi");
  int inlined = 0;
  for (const IsaInstruction &i : f.instructions) {
    if (i.line != pow_line) continue;
    ASSERT_GE(i.file, 0);
    const std::string path = r.files[i.file].path();
    EXPECT_EQ(path.substr(path.size() - 8), "/lbm.hip") << path;
    if (i.leaf_file != i.file) {
      ++inlined;
      EXPECT_NE(r.files[i.leaf_file].name.find("__clang_hip_math.h"), std::string::npos);
    }
  }
  EXPECT_GT(inlined, 100);
}

TEST(IsaLbm, Clang19InlinedCodeCountsForTheCallingLineToo) {
  // clang 19's descriptor fields end LLVM 15's .amdhsa_kernel block early, and
  // its .end_amdhsa_kernel is then unknown: still compiler output, so the inline
  // tree is read (it was skipped as "not compiler output" before).
  IsaReport r = analyzeAmdgpuAssembly(fixture("clang-19/lines/lbm-gfx90a.s"), "gfx90a");
  for (const std::string &note : r.notes) EXPECT_EQ(note.find("innermost .loc only"), std::string::npos) << note;
  const IsaFunction &f = onlyFunction(r);
  for (const std::string &note : f.notes) EXPECT_EQ(note.find("innermost .loc only"), std::string::npos) << note;
  const int pow_line = lineContaining("kernels/lbm/lbm.hip", "pow(current_phi");
  int inlined = 0;
  for (const IsaInstruction &i : f.instructions)
    if (i.line == pow_line && i.leaf_file != i.file &&
        r.files[i.leaf_file].name.find("__clang_hip_math.h") != std::string::npos)
      ++inlined;
  EXPECT_GT(inlined, 100);
}

// --- MCA: seed 001's ranking of the bitonic kernels.

TEST(IsaEstimate, BitonicIntegerKernelBelowTheFloatKernel) {
  for (const char *file : {"hipcc-5.2.3/lines/bitonic-gfx90a.s", "clang-19/lines/bitonic-gfx90a.s"}) {
    SCOPED_TRACE(file);
    IsaReport r = analyzeAmdgpuAssembly(fixture(file), "gfx90a");
    const IsaFunction *flt = findFunction(r, "_Z13bitonic_floatPKfPffffi");
    const IsaFunction *integer = findFunction(r, "_Z11bitonic_intPKfPfiiii");
    ASSERT_TRUE(flt && integer);
    ASSERT_TRUE(flt->estimate.available);
    EXPECT_EQ(flt->estimate.unmodelled_instructions, 0);
    EXPECT_LT(integer->estimate.cycles, flt->estimate.cycles);
    long sum = 0;
    for (const BlockEstimate &b : flt->estimate.blocks) sum += b.cycles;
    EXPECT_EQ(sum, flt->estimate.cycles);
  }
}

TEST(IsaEstimate, LoopBlocksFromBackEdges) {
  // The rolled contraction loops; its loop blocks carry part of the estimate.
  IsaReport r = analyzeAmdgpuAssembly(fixture("hipcc-5.2.3/lines/ax-gfx90a.s"), "gfx90a");
  const IsaFunction *rolled = findFunction(r, "_Z9ax_rolledPdPKdS1_S1_");
  ASSERT_TRUE(rolled);
  int loop_blocks = 0;
  for (const BlockEstimate &b : rolled->estimate.blocks) loop_blocks += b.in_loop;
  EXPECT_GT(loop_blocks, 0);
  EXPECT_GT(rolled->estimate.loop_cycles, 0);
  EXPECT_LT(rolled->estimate.loop_cycles, rolled->estimate.cycles);
}

// --- NVIDIA: the join of nvdisasm -plr and -g (hand-written samples, see
// fixtures/nvdisasm-handwritten/README.md).

TEST(IsaNvdisasm, JoinsGraphicalLifeRangesWithInlinedLineInfo) {
  IsaReport r =
      joinNvdisasm(fixture("nvdisasm-handwritten/saxpy.plr.txt"), fixture("nvdisasm-handwritten/saxpy.gi.txt"));
  const IsaFunction &f = onlyFunction(r);
  EXPECT_EQ(f.name, "_Z5saxpyifPKfPf");
  ASSERT_EQ(f.instructions.size(), 16u);
  EXPECT_EQ(f.max_vgprs, 6);
  EXPECT_EQ(f.max_sgprs, 2);
  ASSERT_EQ(f.peak.instruction, 9);
  EXPECT_EQ(f.instructions[9].text, "IMAD.WIDE R4, R0, R5, c[0x0][0x170]");
  EXPECT_EQ(f.instructions[9].address, 0x90);  // from the -g side
  EXPECT_EQ(f.instructions[9].line, 6);
  EXPECT_EQ(f.peak.live_registers, (std::vector<std::string>{"R0", "R1", "R2", "R3", "R4", "R5"}));
  std::map<int, int> across;
  for (const LiveAcross &a : f.peak.live_across) across[a.line] = a.vgprs;
  EXPECT_EQ(across, (std::map<int, int>{{3, 1}, {4, 1}, {6, 2}}));
  // The FFMA is line 2 inlined at line 6 of the same file: it counts for line
  // 2, the innermost line in the kernel's own file.
  const IsaInstruction &ffma = f.instructions[12];
  EXPECT_EQ(ffma.line, 2);
  EXPECT_EQ(ffma.leaf_line, 2);
  EXPECT_EQ(r.files[ffma.file].path(), "/home/dev/saxpy.cu");
}

TEST(IsaNvdisasm, JoinsCountsByOffset) {
  IsaReport r =
      joinNvdisasm(fixture("nvdisasm-handwritten/saxpy.plr-count.txt"), fixture("nvdisasm-handwritten/saxpy.g.txt"));
  const IsaFunction &f = onlyFunction(r);
  EXPECT_EQ(f.max_vgprs, 6);
  EXPECT_EQ(f.instructions[12].line, 2);  // -g names the innermost line only
  std::vector<LinePressure> top = hottestLines(f, 1);
  ASSERT_EQ(top.size(), 1u);
  EXPECT_EQ(top.front().line, 6);
  EXPECT_EQ(top.front().peak_vgprs, 6);
}

TEST(IsaNvdisasm, DisagreeingOutputsAreAnError) {
  std::string lines = fixture("nvdisasm-handwritten/saxpy.g.txt");
  lines.replace(lines.find("FFMA R7"), 7, "FMUL R7");
  EXPECT_THROW(joinNvdisasm(fixture("nvdisasm-handwritten/saxpy.plr.txt"), lines), Error);
  EXPECT_THROW(joinNvdisasm("nothing here\n", lines), Error);
}

// --- NVIDIA: real nvdisasm 13.0 output of the reference kernels for sm_90
// (fixtures/nvdisasm-13.0/README.md: recorded on the GPU machine).

TEST(IsaNvdisasmRecorded, TheTwoLifeRangeModesAgreeOnEveryInstruction) {
  for (const char *name : {"lbm", "bitonic", "laplacian", "ax"}) {
    SCOPED_TRACE(name);
    const std::string base = std::string("nvdisasm-13.0/") + name + "-sm_90";
    IsaReport graphical = joinNvdisasm(fixture(base + ".plr.txt"), fixture(base + ".gi.txt"));
    IsaReport counts = joinNvdisasm(fixture(base + ".plr-count.txt"), fixture(base + ".g.txt"));
    ASSERT_FALSE(graphical.functions.empty());
    ASSERT_EQ(graphical.functions.size(), counts.functions.size());
    for (std::size_t i = 0; i < graphical.functions.size(); ++i) {
      const IsaFunction &g = graphical.functions[i], &c = counts.functions[i];
      SCOPED_TRACE(g.name);
      EXPECT_EQ(g.name, c.name);
      ASSERT_EQ(g.instructions.size(), c.instructions.size());
      EXPECT_GT(g.max_vgprs, 0);
      EXPECT_EQ(g.max_vgprs, c.max_vgprs);
      std::size_t with_line = 0;
      for (std::size_t n = 0; n < g.instructions.size(); ++n) {
        EXPECT_EQ(g.instructions[n].live_vgprs, c.instructions[n].live_vgprs) << g.instructions[n].text;
        EXPECT_EQ(g.instructions[n].address, c.instructions[n].address);
        with_line += g.instructions[n].line > 0;
      }
      // -lineinfo gives nearly every instruction a line (the tail's BRA/NOP padding has none).
      EXPECT_GE(with_line * 10, g.instructions.size() * 9);
      EXPECT_EQ(g.peak.live_registers.size(), static_cast<std::size_t>(g.peak.vgprs));
    }
  }
}

// The registers live at the peak are named by their columns' numbers (nvdisasm
// 13 prints "# 0 1 ... 9 10 11" in one row): distinct, and the peak
// instruction's source registers among them, as it reads them there.
TEST(IsaNvdisasmRecorded, PeakRegistersAreNamedByTheirColumns) {
  std::size_t checked = 0;
  for (const char *name : {"lbm", "bitonic", "laplacian", "ax"}) {
    SCOPED_TRACE(name);
    const std::string base = std::string("nvdisasm-13.0/") + name + "-sm_90";
    IsaReport r = joinNvdisasm(fixture(base + ".plr.txt"), fixture(base + ".gi.txt"));
    for (const IsaFunction &f : r.functions) {
      SCOPED_TRACE(f.name);
      ASSERT_GE(f.peak.instruction, 0);
      const std::vector<std::string> &live = f.peak.live_registers;
      EXPECT_EQ(std::set<std::string>(live.begin(), live.end()).size(), live.size());
      const std::string &text = f.instructions[f.peak.instruction].text;
      const std::size_t comma = text.find(',');
      std::size_t sources = 0;
      std::cout << f.name.substr(0, 24) << ": peak at " << text << "\n";
      for (std::size_t at = text.find('R', comma); comma != std::string::npos && at != std::string::npos;
           at = text.find('R', at + 1)) {
        std::size_t end = at + 1;
        while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
        if (end == at + 1 || std::isalnum(static_cast<unsigned char>(text[at - 1]))) continue;  // RZ, UR4
        ++sources;
        EXPECT_NE(std::find(live.begin(), live.end(), text.substr(at, end - at)), live.end()) << text;
      }
      checked += sources;  // a peak at a CALL names none
    }
  }
  EXPECT_GE(checked, 4u);
}

TEST(IsaNvdisasmRecorded, LbmPowLineIsAmongTheHottest) {
  IsaReport r = joinNvdisasm(fixture("nvdisasm-13.0/lbm-sm_90.plr.txt"), fixture("nvdisasm-13.0/lbm-sm_90.gi.txt"));
  const IsaFunction &f = onlyFunction(r);
  const int pow_line = lineContaining("kernels/lbm/lbm.hip", "pow(current_phi");
  std::vector<LinePressure> top = hottestLines(f, 5);
  std::cout << "sm_90 lbm: max " << f.max_vgprs << " live R; hottest lines:";
  for (const LinePressure &l : top) std::cout << " " << l.line << "(" << l.peak_vgprs << ")";
  std::cout << "; pow line " << pow_line << "\n";
  EXPECT_TRUE(std::any_of(top.begin(), top.end(), [&](const LinePressure &l) { return l.line == pow_line; }));
}

}  // namespace
}  // namespace regscope
