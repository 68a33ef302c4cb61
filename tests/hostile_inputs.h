// The hostile inputs of issue 16, built here from small recipes (and, for
// code objects, from the real hipcc 5.2.3 code object in fixtures/). The
// regression tests (hostile_input_test.cpp) run each one, and
// tests/fuzz/make_regressions.cpp writes them under tests/fuzz/regressions/
// so that every fuzz target replays them too.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_util.h"

namespace regscope::hostile {

// One remark block, as hipcc 5.2.3 prints it with --save-temps.
inline std::string remarkBlock(const std::string &name, const std::string &location = "k.hip:4:0") {
  std::string out;
  auto line = [&](const std::string &text) {
    out += "remark: " + location + ": " + text + " [-Rpass-analysis=kernel-resource-usage]\n";
  };
  line("Function Name: " + name);
  for (const char *field :
       {"    SGPRs: 6", "    VGPRs: 70", "    AGPRs: 0", "    ScratchSize [bytes/lane]: 0",
        "    Occupancy [waves/SIMD]: 7", "    SGPRs Spill: 0", "    VGPRs Spill: 0", "    LDS Size [bytes/block]: 0"})
    line(field);
  return out;
}

// Item 2: a CI log whose link line runs to 200 KB, with ": " in it, before a
// real remark block. std::regex recursed once per character (the stack gave
// out at 50-80 KB).
inline std::string longLogLine() {
  std::string log = "FAILED: bin/app\n/usr/bin/ld: ";
  for (int i = 0; i < 15000; ++i) log += "obj/f" + std::to_string(i) + ".o: ";
  log += "\n" + remarkBlock("_Z6kernelPf");
  return log;
}

// Lines as long inside ptxas output (140 KB) and PTX (100 KB).
inline std::string longPtxasLine() {
  std::string out =
      "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_80'\n"
      "ptxas info    : Function properties for _Z1kPf\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 32 registers";
  for (int i = 0; i < 10000; ++i) out += ", 0 bytes smem";
  out += "\n.visible .entry _Z1kPf" + std::string(100000, ' ') + "(\n";
  return out;
}

// Item 2: an LLVM 20 .s whose ".set" names 2,000 callees (48 KB on one line).
inline std::string longSetLine() {
  std::string s = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"\n";
  std::string list = "max(1";
  for (int i = 0; i < 2000; ++i) {
    s += "\t.set callee_" + std::to_string(i) + ".num_vgpr, " + std::to_string(i % 97) + "\n";
    list += ", callee_" + std::to_string(i) + ".num_vgpr";
  }
  s += "\t.set _Z1kPf.num_vgpr, " + list + ")\n";
  s += "\t.type _Z1kPf,@function\n; Kernel info:\n; NumVgprs: _Z1kPf.num_vgpr\n";
  s += "\t.amdhsa_kernel _Z1kPf\n\t\t.amdhsa_group_segment_fixed_size 0\n\t.end_amdhsa_kernel\n";
  return s;
}

// A .s with one kernel whose "; NumVgprs:" value is `vgprs`, after `sets`.
inline std::string asmWithVgprs(const std::string &vgprs, const std::string &sets = "") {
  return "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"\n" + sets +
         "\t.type _Z1kPf,@function\n; Kernel info:\n; NumVgprs: " + vgprs +
         "\n; NumSgprs: 10\n; NumAgprs: 0\n; LDSByteSize: 0\n"
         "\t.amdhsa_kernel _Z1kPf\n\t\t.amdhsa_group_segment_fixed_size 0\n\t.end_amdhsa_kernel\n";
}

// Item 3: ~30,000 nested parentheses.
inline std::string deepParentheses() { return std::string(30000, '(') + "1" + std::string(30000, ')'); }

// Item 3: s_0 = 1, s_i = s_{i-1} + s_{i-1}: 2^63 evaluations without
// memoisation; s_62 = 2^62 and s_63 overflows.
inline std::string doublingChain(int n = 63) {
  std::string sets = "\t.set s_0, 1\n";
  for (int i = 1; i <= n; ++i)
    sets += "\t.set s_" + std::to_string(i) + ", s_" + std::to_string(i - 1) + " + s_" + std::to_string(i - 1) + "\n";
  return sets;
}

// The same chain for the expression fuzz target: the expression on the first
// line, then one "NAME, EXPR" per line.
inline std::string doublingChainForEvaluator() {
  std::string text = "s_63\ns_0, 1\n";
  for (int i = 1; i <= 63; ++i)
    text += "s_" + std::to_string(i) + ", s_" + std::to_string(i - 1) + " + s_" + std::to_string(i - 1) + "\n";
  return text;
}

// ---- Code objects: the real gfx90a code object, patched ----

inline std::uint64_t readLe(const std::string &bytes, std::size_t at, int size) {
  std::uint64_t v = 0;
  std::memcpy(&v, bytes.data() + at, size);
  return v;
}
inline void writeLe(std::string &bytes, std::size_t at, std::uint64_t v, int size) {
  std::memcpy(&bytes[at], &v, size);
}

struct MetadataNote {
  std::size_t section_header;  // the SHT_NOTE section's header
  std::size_t desc;            // the NT_AMDGPU_METADATA descriptor
  std::size_t desc_size;
};

// Where the metadata note of an ELF64 code object lies.
inline MetadataNote findMetadataNote(const std::string &elf) {
  const std::uint64_t shoff = readLe(elf, 0x28, 8), shentsize = readLe(elf, 0x3A, 2), shnum = readLe(elf, 0x3C, 2);
  for (std::uint64_t i = 0; i < shnum; ++i) {
    const std::size_t header = shoff + i * shentsize;
    if (readLe(elf, header + 4, 4) != 7) continue;  // SHT_NOTE
    std::size_t at = readLe(elf, header + 0x18, 8);
    const std::size_t end = at + readLe(elf, header + 0x20, 8);
    while (at + 12 <= end) {
      const std::size_t namesz = readLe(elf, at, 4), descsz = readLe(elf, at + 4, 4), type = readLe(elf, at + 8, 4);
      const std::size_t desc = at + 12 + (namesz + 3) / 4 * 4;
      if (type == 32 && elf.compare(at + 12, 6, "AMDGPU") == 0) return {header, desc, descsz};
      at = desc + (descsz + 3) / 4 * 4;
    }
  }
  throw std::runtime_error("no AMDGPU metadata note in the fixture");
}

inline std::string realCodeObject() { return test::fixture("hipcc-5.2.3/probe-gfx90a.hsaco"); }

// The code object with its metadata note's first bytes replaced by `msgpack`
// (the reader takes one object: the rest of the old note is never read).
inline std::string codeObjectWithMetadata(const std::string &msgpack) {
  std::string elf = realCodeObject();
  const MetadataNote note = findMetadataNote(elf);
  if (msgpack.size() > note.desc_size) throw std::runtime_error("replacement metadata too long");
  elf.replace(note.desc, msgpack.size(), msgpack);
  return elf;
}

// Item 4: a metadata map whose keys are arrays: {[1]: 1, [2]: 2}.
inline std::string codeObjectWithArrayKeys() {
  return codeObjectWithMetadata(std::string("\x82\x91\x01\x01\x91\x02\x02", 7));
}

// Item 4: a metadata array that claims 268 million elements.
inline std::string codeObjectWithHugeArray() {
  return codeObjectWithMetadata(
      std::string("\x81\xae"
                  "amdhsa.kernels"
                  "\xdd\x0f\xff\xff\xff",
                  21));
}

// Item 4: the SHT_NOTE section's offset + size wraps around 2^64.
inline std::string codeObjectWithWrappingNoteSection() {
  std::string elf = realCodeObject();
  const MetadataNote note = findMetadataNote(elf);
  writeLe(elf, note.section_header + 0x18, 0x40, 8);
  writeLe(elf, note.section_header + 0x20, ~std::uint64_t{0} - 0x20 + 1, 8);  // 0x40 + size = 0x20
  return elf;
}

// The header of the first section of `type` (SHT_SYMTAB 2, SHT_STRTAB 3, ...).
inline std::size_t sectionHeaderOfType(const std::string &elf, std::uint32_t type) {
  const std::uint64_t shoff = readLe(elf, 0x28, 8), shentsize = readLe(elf, 0x3A, 2), shnum = readLe(elf, 0x3C, 2);
  for (std::uint64_t i = 0; i < shnum; ++i)
    if (readLe(elf, shoff + i * shentsize + 4, 4) == type) return shoff + i * shentsize;
  throw std::runtime_error("no section of that type in the fixture");
}

// Found by fuzzing code_object after wrap (2026-11-23): a symbol table that
// lies beyond the file. LLVM 15's symbol iterator aborts on it
// (report_fatal_error) where the kernels' instructions are counted.
inline std::string codeObjectWithSymtabBeyondTheFile() {
  std::string elf = realCodeObject();
  writeLe(elf, sectionHeaderOfType(elf, 2) + 0x18, 0x800002028, 8);
  return elf;
}

// The code object with its metadata's target CPU (gfx90a) renamed `cpu` (6 letters).
inline std::string codeObjectForCpu(const std::string &cpu) {
  std::string elf = realCodeObject();
  const std::size_t at = elf.find("amdgcn-amd-amdhsa--gfx90a");
  if (at == std::string::npos) throw std::runtime_error("no target string in the fixture");
  elf.replace(at + 19, 6, cpu);
  return elf;
}

// Found by fuzzing code_object after wrap (2026-11-23): metadata naming
// "hawaii" (gfx701), a CPU LLVM knows but whose disassembler aborts
// ("Disassembly not yet supported for subtarget").
inline std::string codeObjectForHawaii() { return codeObjectForCpu("hawaii"); }

// Item 18: a code object whose metadata names gfx9zz.
inline std::string codeObjectForUnknownArch() { return codeObjectForCpu("gfx9zz"); }

// Item 5: 67 bytes. Entry 0's triple length takes the read offset back to
// entry 0 itself, and the bundle claims 2^64 - 1 entries.
inline std::string loopingBundle() {
  std::string b = "__CLANG_OFFLOAD_BUNDLE__";
  b.resize(67, '\0');
  writeLe(b, 24, ~std::uint64_t{0}, 8);       // entries
  writeLe(b, 32, 0, 8);                       // offset
  writeLe(b, 40, 0, 8);                       // size
  writeLe(b, 48, ~std::uint64_t{0} - 23, 8);  // triple length: 56 + this wraps to 32
  return b;
}

// Item 6: ptxas reporting 4294966272 bytes of shared memory.
inline std::string ptxasWithHugeSmem() {
  return "ptxas info    : 0 bytes gmem\n"
         "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_80'\n"
         "ptxas info    : Function properties for _Z1kPf\n"
         "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
         "ptxas info    : Used 32 registers, used 1 barriers, 4294966272 bytes smem, 360 bytes cmem[0]\n";
}

// Item 7: a remark naming line 99999999999.
inline std::string remarkWithHugeLine() { return remarkBlock("_Z1kPf", "k.hip:99999999999:0"); }

// Item 7: a kernel name that is not UTF-8.
inline std::string remarksWithBinaryName() { return remarkBlock(std::string("_Z1k\xff\xfe\xc3", 7)); }

// Item 7: a baseline whose "demangled" is a number.
inline std::string baselineWithNumericDemangled() {
  return R"({"regscope_baseline": "1.0", "kernels": [{"file": "k.hip", "name": "_Z1kPf", "demangled": 5,
             "arch": "gfx90a", "occupancy": 8, "occupancy_by_registers": 8, "registers": 32, "spills": 0,
             "scratch_bytes": 0}]})";
}

// Found while fixing item 7: JSON nested 100,000 deep. nlohmann's parser is
// iterative, but printing a value (dump) recurses.
inline std::string deepJson(int n = 100000) { return std::string(n, '[') + std::string(n, ']'); }
inline std::string compileDatabaseNestedDeeply() {
  return R"([{"directory": "/tmp", "file": "k.hip", "arguments": )" + deepJson() + "}]";
}
inline std::string configNestedDeeply() {
  return R"({"version": )" + deepJson() + R"(, "kernels": [)" + deepJson() + "]}";
}

// Item 7: a .s whose metadata block is not YAML (LLVM printed its diagnostic).
inline std::string asmWithBrokenMetadata() {
  return "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"\n\t.amdgpu_metadata\n---\namdhsa.kernels: [ {\n"
         "  .name: k\n  ]: \"\n\t.end_amdgpu_metadata\n";
}

// Item 18: the real gfx90a .s cut off inside its metadata block.
inline std::string truncatedAsm() {
  const std::string s = test::fixture("hipcc-5.2.3/probe-gfx90a.s");
  const std::size_t block = s.find(".amdgpu_metadata");
  return s.substr(0, s.find("amdhsa.kernels", block) + 200);
}

// Found by the remark_yaml fuzz target: a NUL byte inside a DebugLoc
// mapping gives LLVM 15's remark parser a null key, which it dereferences.
inline std::string remarkRecordWithNul() {
  static const char kRecord[] =
      "--- !Analysis\nPass: kernel-resource-usage\nName: NumSGPR\n"
      "DebugLoc: { File: p?\0ne: 15 }\nFunction: k\nArgs:\n  - NumSGPR: 6\n...\n";
  return std::string(kRecord, sizeof kRecord - 1);
}

// Found by the remark_yaml fuzz target later: a byte that is not UTF-8 in a
// key of a flow mapping after "?" gives the same null key (SIGSEGV).
inline std::string remarkRecordWithInvalidUtf8() {
  return "--- !Analysis\nPass: x\nName: NumSGPR\nDebugLoc: ? { F\x93ile: probe.hip, Line: 3, Column: 0 }\n...\n";
}

// Found by the baseline fuzz target: nlohmann's parser throws out_of_range,
// not parse_error, for a number beyond double ("6e766").
inline std::string jsonNumberBeyondDouble() { return R"({"regscope_baseline": "1.0", "kernels": [6e766]})"; }

// ---- the Intel backend's parsers (fuzz targets ocloc_log, ze_info) ----

// A .ze_info with one kernel "k" whose execution_env and buffers are `body`
// (YAML lines, indented for the kernel's mapping).
inline std::string zeInfoKernel(const std::string &body) {
  return "---\nversion:         '1.8'\nkernels:\n  - name:            k\n" + body + "...\n";
}

// slm_size beyond int: the Intel model narrowed it to 0 with a cast.
inline std::string zeInfoSlmBeyondInt() {
  return zeInfoKernel("    execution_env:\n      grf_count: 128\n      simd_size: 16\n      slm_size: 4294967296\n");
}

// required_work_group_size whose product overflows int64 (UBSan: signed overflow).
inline std::string zeInfoWorkGroupSizeOverflow() {
  return zeInfoKernel(
      "    execution_env:\n      simd_size: 16\n"
      "      required_work_group_size: [ 4294967296, 4294967296, 4 ]\n");
}

// Two scratch buffers whose sizes sum past int64 (UBSan: signed overflow).
inline std::string zeInfoBufferSizesOverflow() {
  return zeInfoKernel(
      "    execution_env:\n      simd_size: 16\n    per_thread_memory_buffers:\n"
      "      - type: scratch\n        size: 9223372036854775807\n"
      "      - type: scratch\n        size: 9223372036854775807\n");
}

// 60,000 nested flow sequences: LLVM's YAML scanner took seconds (size times depth).
inline std::string zeInfoDeepFlowNesting() {
  return "version: '1.8'\nextra: " + std::string(60000, '[') + std::string(60000, ']') + "\n";
}

// IGC's spill warning with a GRF count whose bytes overflow int64 (x 64-byte GRFs).
inline std::string oclocLogWithHugeSpill() {
  return "warning: kernel k  compiled SIMD32 allocated 128 regs and spilled around 9223372036854775807\n";
}

// Every reproducer with the fuzz target that replays it.
struct Reproducer {
  const char *target;
  const char *name;
  std::string bytes;
};
inline std::vector<Reproducer> reproducers() {
  return {
      {"remark_text", "long-log-line.log", longLogLine()},
      {"artifacts", "long-log-line.log", longLogLine()},
      {"remark_text", "huge-line-number.log", remarkWithHugeLine()},
      {"artifacts", "binary-kernel-name.log", remarksWithBinaryName()},
      {"ptxas", "long-ptxas-line.txt", longPtxasLine()},
      {"ptxas", "huge-smem.txt", ptxasWithHugeSmem()},
      {"asm", "long-set-line.s", longSetLine()},
      {"asm", "int64-min-divided.s", asmWithVgprs("(-9223372036854775807-1)/-1")},
      {"asm", "int64-min-remainder.s", asmWithVgprs("(-9223372036854775807-1)%-1")},
      {"asm", "deep-parentheses.s", asmWithVgprs(deepParentheses())},
      {"asm", "doubling-chain.s", asmWithVgprs("s_63", doublingChain())},
      {"asm", "1e23.s", asmWithVgprs("100000000000000000000000")},
      {"asm", "broken-metadata.s", asmWithBrokenMetadata()},
      {"asm", "truncated-metadata.s", truncatedAsm()},
      {"mc_expr", "int64-min-divided", "(-9223372036854775807-1)/-1"},
      {"mc_expr", "deep-parentheses", deepParentheses()},
      {"mc_expr", "doubling-chain", doublingChainForEvaluator()},
      {"mc_expr", "shift-64", "1 << 64"},
      {"mc_expr", "digits-overflow", "99999999999999999999 + 1"},
      {"code_object", "array-keys.hsaco", codeObjectWithArrayKeys()},
      {"code_object", "huge-array.hsaco", codeObjectWithHugeArray()},
      {"code_object", "wrapping-note-section.hsaco", codeObjectWithWrappingNoteSection()},
      {"code_object", "looping-bundle.bin", loopingBundle()},
      {"code_object", "symtab-beyond-file.hsaco", codeObjectWithSymtabBeyondTheFile()},
      {"code_object", "hawaii.hsaco", codeObjectForHawaii()},
      {"artifacts", "unknown-arch.hsaco", codeObjectForUnknownArch()},
      {"remark_yaml", "nul-in-debugloc.opt.yaml", remarkRecordWithNul()},
      {"remark_yaml", "invalid-utf8-in-debugloc.opt.yaml", remarkRecordWithInvalidUtf8()},
      {"baseline", "numeric-demangled.json", baselineWithNumericDemangled()},
      {"baseline", "number-beyond-double.json", jsonNumberBeyondDouble()},
      {"config", "number-beyond-double.json", jsonNumberBeyondDouble()},
      {"compile_db", "number-beyond-double.json", jsonNumberBeyondDouble()},
      {"compile_db", "nested-deeply.json", compileDatabaseNestedDeeply()},
      {"config", "nested-deeply.json", configNestedDeeply()},
      {"ze_info", "slm-beyond-int.yaml", zeInfoSlmBeyondInt()},
      {"ze_info", "work-group-size-overflow.yaml", zeInfoWorkGroupSizeOverflow()},
      {"ze_info", "buffer-sizes-overflow.yaml", zeInfoBufferSizesOverflow()},
      {"ze_info", "deep-flow-nesting.yaml", zeInfoDeepFlowNesting()},
      {"ocloc_log", "huge-spill.log", oclocLogWithHugeSpill()},
  };
}

}  // namespace regscope::hostile
