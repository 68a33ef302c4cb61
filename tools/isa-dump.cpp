// Developer-only driver for the isa stage (not installed): prints what
// analyzeAmdgpuAssembly / joinNvdisasm found, for trying the library by hand.
//   regscope-isa-dump FILE.s ARCH [--instructions] [--no-estimate] [--top N] [--time]
//   regscope-isa-dump FILE.s ARCH --lines   (TSV: function, file, line, peak VGPRs/AGPRs/SGPRs, instructions)
//   regscope-isa-dump --nvdisasm PLR.txt LINES.txt
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "regscope/backends/amd/isa.h"
#include "regscope/backends/nvidia/isa.h"
#include "regscope/isa/isa.h"
#include "regscope/support/error.h"

namespace {

std::string readFile(const char *path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw regscope::Error(std::string("cannot read ") + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string where(const regscope::IsaReport &r, int file, int line) {
  if (file < 0) return line > 0 ? "?:" + std::to_string(line) : "(no line)";
  return r.files[file].name + ":" + std::to_string(line);
}

void print(const regscope::IsaReport &r, bool instructions, std::size_t top = 12) {
  for (const std::string &n : r.notes) std::printf("note: %s\n", n.c_str());
  for (const regscope::IsaFunction &f : r.functions) {
    std::printf("== %s%s: %zu instructions, max live v%d a%d s%d\n", f.name.c_str(), f.is_kernel ? " (kernel)" : "",
                f.instructions.size(), f.max_vgprs, f.max_agprs, f.max_sgprs);
    for (const std::string &n : f.notes) std::printf("   note: %s\n", n.c_str());
    if (f.peak.instruction >= 0) {
      const regscope::IsaInstruction &i = f.instructions[f.peak.instruction];
      std::printf("   peak: %d VGPRs at #%d [%s] %s (asm line %d)\n", f.peak.vgprs, f.peak.instruction,
                  where(r, i.file, i.line).c_str(), i.text.c_str(), i.asm_line);
      std::printf("   live across the peak, by the line that wrote them:\n");
      for (const regscope::LiveAcross &a : f.peak.live_across)
        std::printf("     %-40s v%-3d a%-3d s%-3d\n", where(r, a.file, a.line).c_str(), a.vgprs, a.agprs, a.sgprs);
    }
    std::printf("   hottest lines:\n");
    for (const regscope::LinePressure &l : regscope::hottestLines(f, top))
      std::printf("     %-40s v%-3d a%-3d s%-3d  %d instructions\n", where(r, l.file, l.line).c_str(), l.peak_vgprs,
                  l.peak_agprs, l.peak_sgprs, l.instructions);
    std::printf("   mix:");
    for (std::size_t k = 0; k < regscope::kInstrKindCount; ++k)
      if (f.mix.counts[k])
        std::printf(" %s=%d", regscope::instrKindKey(static_cast<regscope::InstrKind>(k)), f.mix.counts[k]);
    std::printf("  ALU:memory %.2f\n", f.mix.alu_per_memory);
    if (f.estimate.available) {
      std::printf("   estimate: %ld cycles (%ld in loops), %zu blocks\n", f.estimate.cycles, f.estimate.loop_cycles,
                  f.estimate.blocks.size());
      for (const regscope::BlockEstimate &b : f.estimate.blocks)
        std::printf("     block %-10s #%-5d n=%-4d cycles=%-6ld ipc=%.2f%s\n", b.label.c_str(), b.first_instruction,
                    b.instructions, b.cycles, b.ipc, b.in_loop ? " loop" : "");
    }
    if (instructions)
      for (const regscope::IsaInstruction &i : f.instructions)
        std::printf("   %4d v%-3d a%-3d s%-3d %-12s %-28s %s\n", i.asm_line, i.live_vgprs, i.live_agprs, i.live_sgprs,
                    regscope::instrKindKey(i.kind), where(r, i.file, i.line).c_str(), i.text.c_str());
  }
}

void printLines(const regscope::IsaReport &r) {
  for (const regscope::IsaFunction &f : r.functions)
    for (const regscope::LinePressure &l : f.lines)
      std::printf("%s\t%s\t%d\t%d\t%d\t%d\t%d\n", f.name.c_str(), l.file >= 0 ? r.files[l.file].path().c_str() : "",
                  l.line, l.peak_vgprs, l.peak_agprs, l.peak_sgprs, l.instructions);
}

}  // namespace

int main(int argc, char **argv) {
  try {
    if (argc == 4 && std::strcmp(argv[1], "--nvdisasm") == 0) {
      print(regscope::joinNvdisasm(readFile(argv[2]), readFile(argv[3])), true);
      return 0;
    }
    if (argc < 3) {
      std::fprintf(stderr, "usage: %s FILE.s ARCH [--instructions] [--no-estimate]\n", argv[0]);
      return 2;
    }
    bool instructions = false;
    bool lines = false;
    bool timing = false;
    std::size_t top = 12;
    regscope::IsaOptions options;
    for (int i = 3; i < argc; ++i) {
      if (std::strcmp(argv[i], "--instructions") == 0) instructions = true;
      if (std::strcmp(argv[i], "--lines") == 0) lines = true;
      if (std::strcmp(argv[i], "--time") == 0) timing = true;
      if (std::strcmp(argv[i], "--no-estimate") == 0) options.estimate = false;
      if (std::strcmp(argv[i], "--top") == 0 && i + 1 < argc) top = std::stoul(argv[++i]);
    }
    const std::string text = readFile(argv[1]);
    const auto start = std::chrono::steady_clock::now();
    regscope::IsaReport report = regscope::analyzeAmdgpuAssembly(text, argv[2], options);
    if (timing)
      std::fprintf(stderr, "analysis: %.1f ms\n",
                   std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    if (lines)
      printLines(report);
    else
      print(report, instructions, top);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "regscope-isa-dump: %s\n", e.what());
    return 2;
  }
  return 0;
}
