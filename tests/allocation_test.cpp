// The allocation the hardware reads (issue 30, item 1): the kernel descriptor's
// VGPR count, checked against what the code uses, and what follows from it.
//
// Expected figures come from the compilers' own text, read here without
// regscope: Triton 3.6's .amdgcn (fixtures/triton/cache-wpe1-gfx942, made by
// fixtures/triton/make_wpe.py on the GPU machine) prints
// `.amdhsa_next_free_vgpr 257`, `; NumVGPRsForWavesPerEU: 257`,
// `; Occupancy: 1` and `.vgpr_count: 144` for attn_d64 at waves_per_eu=1. The
// hardware reads 257 in granules of 8 (COMPUTE_PGM_RSRC1 on gfx942,
// AMDGPUUsage.rst): 264 VGPRs of a 512-entry file, 1 wave per SIMD.
//
// The hostile code objects are the real hipcc 5.2.3 gfx90a code object
// (fixtures/hipcc-5.2.3/probe-gfx90a.hsaco) with one metadata value changed in
// place at run time (patchMetadata below); its kernel descriptors are as the
// compiler wrote them (agpr_heavy: 136 VGPRs from RSRC1, AGPRs from v72 in RSRC3,
// no private segment, wave64).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "hostile_inputs.h"
#include "regscope/backends/amd/collect.h"
#include "regscope/collect/collect.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::sourcePath;

const char *kPaddedEntry = "fixtures/triton/cache-wpe1-gfx942/3YXIY32RYCLNTK3JZSCKWEME63QXI2FFVZCT3JLYFYKBBXIGNGIQ";

// A line of the .amdgcn the compiler wrote: "KEY VALUE" or "; KEY: VALUE".
long printed(const std::string &text, const std::string &key) {
  const std::size_t at = text.find(key);
  if (at == std::string::npos) throw std::runtime_error("no " + key + " in the .amdgcn");
  return std::stol(text.substr(text.find_first_of("0123456789", at + key.size())));
}

struct Scratch {
  fs::path dir;
  Scratch() {
    dir = fs::temp_directory_path() / ("regscope-alloc-" + std::to_string(::getpid()));
    fs::create_directories(dir / "cache");
  }
  ~Scratch() { fs::remove_all(dir); }
  test::RunResult run(const std::vector<std::string> &args) {
    return test::runRegscope(args, sourcePath(""), dir.string(), (dir / "cache").string());
  }
};

json kernelNamed(const json &report, const std::string &name) {
  for (const json &k : report.at("kernels"))
    if (k.at("name") == name) return k;
  throw std::runtime_error("no kernel " + name);
}

// The padded entry three ways that must agree: the entry (its .amdgcn and .hsaco together), the
// .amdgcn alone and the code object alone.
std::vector<std::string> paddedEntryInputs() {
  const std::string entry = kPaddedEntry;
  return {entry, entry + "/attn_fwd_kernel.amdgcn", entry + "/attn_fwd_kernel.hsaco"};
}

TEST(Allocation, TheDescriptorsPaddedAllocationIsWhatOccupancyCounts) {
  const std::string amdgcn = test::readText(sourcePath(std::string(kPaddedEntry) + "/attn_fwd_kernel.amdgcn"));
  ASSERT_EQ(printed(amdgcn, ".amdhsa_next_free_vgpr"), 257);
  ASSERT_EQ(printed(amdgcn, ".vgpr_count:"), 144);
  ASSERT_EQ(printed(amdgcn, "; Occupancy:"), 1);
  Scratch s;
  for (const std::string &input : paddedEntryInputs()) {
    const test::RunResult r = s.run({"parse", input, "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << input << r.err;
    const json k = kernelNamed(json::parse(r.out), "attn_fwd_kernel");
    EXPECT_EQ(k.at("vgprs_total"), 264) << input;  // 257 in granules of 8
    EXPECT_EQ(k.at("vgprs_used"), 144) << input;
    EXPECT_EQ(k.at("accum_offset"), 128) << input;
    EXPECT_EQ(k.at("occupancy").at("waves_per_simd"), 1) << input;  // the compiler's "; Occupancy: 1"
    EXPECT_EQ(k.at("unknown"), json::array()) << input;
    EXPECT_EQ(r.err.find("disagree"), std::string::npos) << input << r.err;  // the padding is explained
  }
  const test::RunResult text = s.run({"parse", kPaddedEntry, "--wide"});  // NEXT STEP on one line
  EXPECT_NE(text.out.find("125 (264)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("the compiler padded the allocation"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("lower the waves-per-eu padding: 144 VGPRs used -> 3 waves/SIMD"), std::string::npos)
      << text.out;
  // A gate judges the allocation: 1 wave/SIMD fails a rule of 2.
  EXPECT_EQ(s.run({"gate", kPaddedEntry, "--min-occupancy", "2"}).exit_code, 1);
}

TEST(Allocation, AnUnpaddedAllocationStaysTheCountTheCodeUses) {
  // waves_per_eu=1 on softmax (512 threads): the compiler printed 14 VGPRs, 14 allocated.
  const json report = json::parse(
      Scratch()
          .run({"parse", "fixtures/triton/cache-wpe1-gfx942/EXZPOEEULHANEKVMLLK77EH4CA34QGY3FNZLVH2QWOPLIX6Y6EJA",
                "--format", "json"})
          .out);
  const json k = kernelNamed(report, "softmax_kernel");
  EXPECT_EQ(k.at("vgprs_total"), 14);
  EXPECT_EQ(k.at("vgprs_used"), 14);
}

// Replaces, in place, the msgpack value after the `nth` (from 0) occurrence of
// the metadata key `key` in the note with `value` (of the same encoded width).
std::string patchMetadata(const std::string &key, int nth, const std::string &value) {
  std::string elf = hostile::realCodeObject();
  const hostile::MetadataNote note = hostile::findMetadataNote(elf);
  const std::string encoded = std::string(1, static_cast<char>(0xa0 | key.size())) + key;
  std::size_t at = note.desc;
  for (int i = 0; i <= nth; ++i) {
    at = elf.find(encoded, i == 0 ? at : at + 1);
    if (at == std::string::npos || at >= note.desc + note.desc_size) throw std::runtime_error("no " + key);
  }
  elf.replace(at + encoded.size(), value.size(), value);
  return elf;
}

const KernelFacts &onlyKernelWith(const std::vector<CodeObject> &objects, Field unknown) {
  const KernelFacts *found = nullptr;
  int count = 0;
  for (const KernelFacts &k : objects.at(0).facts.kernels)
    if (std::find(k.missing.begin(), k.missing.end(), unknown) != k.missing.end()) {
      found = &k;
      ++count;
    }
  if (count != 1) throw std::runtime_error(std::to_string(count) + " kernels have the figure unknown");
  return *found;
}

TEST(Allocation, MetadataThatContradictsTheDescriptorMakesTheFigureUnknown) {
  // The unpatched code object: every figure read, nothing disputed.
  for (const KernelFacts &k : parseCodeObjects(hostile::realCodeObject()).at(0).facts.kernels) {
    EXPECT_TRUE(k.warnings.empty()) << k.name;
    EXPECT_TRUE(k.get(Field::VgprsTotal)) << k.name;
  }
  struct Case {
    const char *key;
    int nth;
    std::string value;
    Field unknown;
    const char *words;
  } cases[] = {
      // agpr_heavy (the first kernel): the code uses 255 VGPRs; the descriptor allocates 136
      {".vgpr_count", 0, std::string("\xcc\xff", 2), Field::VgprsTotal, "allocates 136 VGPRs but"},
      // 127 AGPRs from v72 need 199 VGPRs; the descriptor allocates 136
      {".agpr_count", 0, "\x7f", Field::VgprsTotal, "127 AGPRs from v72 need 199"},
      // a wavefront size of 0 beside the descriptor's wave64
      {".wavefront_size", 0, std::string("\x00", 1), Field::WaveSize, "the metadata says 0"},
      // a private segment of 127 bytes beside the descriptor's 0
      {".private_segment_fixed_size", 0, "\x7f", Field::ScratchBytes, "the kernel descriptor says 0"},
      // 127 SGPRs used beside RSRC1's one granule of 16 (gfx9; the compiler wrote .sgpr_count 6)
      {".sgpr_count", 0, "\x7f", Field::Sgprs, "allocates 16 SGPRs but the code uses 127"},
  };
  for (const Case &c : cases) {
    const std::vector<CodeObject> objects = parseCodeObjects(patchMetadata(c.key, c.nth, c.value));
    const KernelFacts &k = onlyKernelWith(objects, c.unknown);
    EXPECT_EQ(k.name, "_Z10agpr_heavyPf") << c.key;
    EXPECT_FALSE(k.get(c.unknown)) << c.key;
    ASSERT_EQ(k.warnings.size(), 1u) << c.key;
    EXPECT_NE(k.warnings[0].find(c.words), std::string::npos) << k.warnings[0];
  }
}

TEST(Allocation, AnUnknownAllocationFeedsNoOccupancyAndNoGate) {
  Scratch s;
  const fs::path hsaco = s.dir / "k.hsaco";
  std::ofstream(hsaco, std::ios::binary) << patchMetadata(".vgpr_count", 0, std::string("\xcc\xff", 2));
  const test::RunResult r = s.run({"parse", hsaco.string(), "--format", "json"});
  const json k = kernelNamed(json::parse(r.out), "_Z10agpr_heavyPf");
  EXPECT_TRUE(k.at("occupancy").is_null()) << k.dump();
  EXPECT_TRUE(k.at("vgprs_total").is_null());
  EXPECT_NE(k.at("unknown").dump().find("vgprs_total"), std::string::npos) << k.dump();
  // No occupancy, so a gate with an occupancy rule cannot judge it (exit 2), never passes.
  EXPECT_EQ(s.run({"gate", hsaco.string(), "--min-occupancy", "1"}).exit_code, 2);
  // An edited private segment: the scratch rule cannot judge it either.
  std::ofstream(hsaco, std::ios::binary) << patchMetadata(".private_segment_fixed_size", 0, "\x7f");
  EXPECT_EQ(s.run({"gate", hsaco.string(), "--max-scratch", "0"}).exit_code, 2);
}

// ---- SGPRs (gfx9): .amdhsa_next_free_sgpr plus the .amdhsa_reserve_* extras, RSRC1's granules of 16 ----

// The metadata's `.sgpr_count` of each kernel of a .s, in order, read here without regscope.
std::vector<long> sgprCounts(const std::string &text) {
  std::vector<long> counts;
  for (std::size_t at = text.find(".sgpr_count:"); at != std::string::npos; at = text.find(".sgpr_count:", at + 1))
    counts.push_back(printed(text.substr(at), ".sgpr_count:"));
  return counts;
}

TEST(Allocation, TheSgprAllocationAgreesWithTheUseOnEveryRealGfx9Kernel) {
  // Every real gfx9 .s and code object of the fixtures: hipcc 5.2.3 (which reserves an XNACK pair its
  // `; NumSgprs` leaves out: private_array's 14 + 4 = 18 beside 16, two granules in its code object),
  // clang 19 (gfx90a, and gfx942 with architected flat scratch), Triton 3.6 (gfx942/gfx950, and
  // waves_per_eu padding: 96 + 6 = 102 beside 23) and compressed bundles. None is a contradiction:
  // the figure is the use, and nothing is said.
  Scratch s;
  for (const char *dir :
       {"fixtures/hipcc-5.2.3", "fixtures/clang-19", "fixtures/spills", "fixtures/triton/cache-gfx942",
        "fixtures/triton/cache-gfx950", "fixtures/triton/cache-wpe1-gfx942", "fixtures/triton/cache-wpe2-gfx942",
        "fixtures/triton/cache-squeezed-gfx942", "fixtures/ccob-clang-19"}) {
    const test::RunResult r = s.run({"parse", dir, "--format", "json"});
    EXPECT_EQ(r.err.find("SGPRs but"), std::string::npos) << dir << r.err;
    int read = 0, allocated = 0;
    const json report = json::parse(r.out);
    for (const json &k : report.at("kernels"))  // fixtures/spills holds NVIDIA cubins too (nvidia/)
      if (k.at("vendor") == "amd" && k.at("sgprs").is_number()) {
        ++read;
        // The allocation, where read, is whole granules of 16 and holds the use.
        if (!k.at("sgprs_allocated").is_null()) {
          EXPECT_EQ(k.at("sgprs_allocated").get<int>() % 16, 0) << dir << k.dump();
          EXPECT_GE(k.at("sgprs_allocated").get<int>(), k.at("sgprs").get<int>()) << dir << k.dump();
          ++allocated;
          // A .s's count before the rounding rounds to it.
          if (!k.at("sgprs_requested").is_null()) {
            EXPECT_LE(k.at("sgprs_requested").get<int>(), k.at("sgprs_allocated").get<int>()) << dir << k.dump();
            EXPECT_GT(k.at("sgprs_requested").get<int>(), k.at("sgprs_allocated").get<int>() - 16) << dir << k.dump();
          }
        }
      }
    EXPECT_GT(read, 0) << dir;
    EXPECT_GT(allocated, 0) << dir;
  }
  // The figure is the metadata's own .sgpr_count, kernel by kernel, where the allocation's exact
  // count differs from it (wideload: 102 + 4 extras = 106 beside 104; private_array 18 beside 16).
  for (const char *file : {"fixtures/hipcc-5.2.3/lines/wideload-gfx90a.s", "fixtures/hipcc-5.2.3/probe-gfx90a.s",
                           "fixtures/clang-19/probe-gfx90a.s", "fixtures/spills/spill_depths-clang-19-gfx942.s"}) {
    const std::vector<long> expected = sgprCounts(test::readText(sourcePath(file)));
    const json kernels = json::parse(s.run({"parse", file, "--format", "json"}).out).at("kernels");
    ASSERT_EQ(kernels.size(), expected.size()) << file;
    for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(kernels[i].at("sgprs"), expected[i]) << file;
  }
}

// A copy of a real fixture in the scratch directory, under its own name, with `from` replaced by
// `to` (a hand edit made at run time, which each test says).
fs::path editedCopy(const Scratch &s, const std::string &fixture, const std::string &from, const std::string &to) {
  std::string text = test::readText(sourcePath(fixture));
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << fixture << " lacks " << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  const fs::path edited = s.dir / fs::path(fixture).filename();
  std::ofstream(edited) << text;
  return edited;
}

TEST(Allocation, ThePaddedSgprAllocationIsShownAndCounted) {
  // waves_per_eu=1: the compiler padded the SGPRs to 102 (.amdhsa_next_free_sgpr 96 + 6 extras on
  // gfx942; the code object's RSRC1: 7 granules of 16) while the code uses 23 (.sgpr_count). The
  // use stays `sgprs`; the hardware's allocation, 112, is `sgprs_allocated`, and the .amdgcn's 102
  // `sgprs_requested`, shown and counted (its term allows 7 waves; the VGPR padding already limits
  // the kernel to 1).
  const std::string amdgcn = test::readText(sourcePath(std::string(kPaddedEntry) + "/attn_fwd_kernel.amdgcn"));
  ASSERT_EQ(printed(amdgcn, ".amdhsa_next_free_sgpr"), 96);
  ASSERT_EQ(printed(amdgcn, ".sgpr_count:"), 23);
  Scratch s;
  for (const std::string &input : paddedEntryInputs()) {
    const test::RunResult r = s.run({"parse", input, "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << input << r.err;
    const json k = kernelNamed(json::parse(r.out), "attn_fwd_kernel");
    EXPECT_EQ(k.at("sgprs"), 23) << input;
    EXPECT_EQ(k.at("sgprs_allocated"), 112) << input;
    const bool code_object = (input.size() > 6 && input.compare(input.size() - 6, 6, ".hsaco") == 0);
    EXPECT_EQ(k.at("sgprs_requested"), code_object ? json(nullptr) : json(102)) << input;
    EXPECT_EQ(k.at("unknown"), json::array()) << input;
    EXPECT_EQ(k.at("occupancy").at("waves_per_simd"), 1) << input;
    const test::RunResult text = s.run({"parse", input, "--wide"});
    EXPECT_NE(text.out.find(code_object ? "23 (112)" : "23 (102)"), std::string::npos) << input << text.out;
    EXPECT_NE(text.out.find(code_object ? "occupancy counts the 112 SGPRs the kernel descriptor allocates; the code "
                                          "uses 23: the compiler padded"
                                        : "occupancy counts the 102 SGPRs the kernel descriptor allocates, 112 in "
                                          "the hardware's granules of 16; the code uses 23: the compiler padded"),
              std::string::npos)
        << input << text.out;
  }
}

TEST(Allocation, TheHardwareCountsSgprGranulesWhereTheCompilerPrintsItsTable) {
  // hipcc 5.2.3 (fixtures/src/sgpr_granule.hip): `reserved` uses 94 SGPRs by the compiler's count,
  // and its descriptor reserves the XNACK pair beside them (.amdhsa_next_free_sgpr 94 + 4);
  // `counted` uses 98. The compiler printed 8 waves/SIMD for both (its step table: up to 100); the
  // hardware allocates seven granules of 16, 112 SGPRs, of its 800 per SIMD: 7.
  const std::string s_file = sourcePath("fixtures/hipcc-5.2.3/sgpr_granule-gfx90a.s");
  const std::string text = test::readText(s_file);
  ASSERT_EQ(printed(text, "; NumSgprs:"), 94);
  ASSERT_EQ(printed(text, "; Occupancy:"), 8);
  Scratch s;
  for (const std::string &input : {s_file, sourcePath("fixtures/hipcc-5.2.3/sgpr_granule-gfx90a.hsaco")}) {
    const test::RunResult r = s.run({"parse", input, "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << input << r.err;
    const json report = json::parse(r.out);
    const bool code_object = (input.size() > 6 && input.compare(input.size() - 6, 6, ".hsaco") == 0);
    // The .s's exact counts (94 + 4, 98 + 4); a code object records only the granules.
    for (const auto &[name, used] : {std::pair<const char *, int>{"_Z8reservedPf", 94}, {"_Z7countedPf", 98}}) {
      const json k = kernelNamed(report, name);
      const int requested = used + 4, counted = code_object ? 112 : requested;
      EXPECT_EQ(k.at("sgprs"), used) << input << name;
      EXPECT_EQ(k.at("sgprs_allocated"), 112) << input << name;
      EXPECT_EQ(k.at("sgprs_requested"), code_object ? json(nullptr) : json(requested)) << input << name;
      EXPECT_EQ(k.at("occupancy").at("waves_per_simd"), 7) << input << name;
      EXPECT_EQ(k.at("occupancy").at("limiter"), "sgpr") << input << name;
      EXPECT_EQ(k.at("occupancy").at("next").at("sgprs_to_free"), counted - 96) << input << name;
      EXPECT_NE(s.run({"parse", input, "--wide"})
                    .out.find("at most 96 SGPRs allocated (now " + std::to_string(counted) + ") -> 8 waves/SIMD"),
                std::string::npos)
          << input;
    }
  }
  // The .s carries the compiler's figure: the note says which term differs, and why.
  const test::RunResult r = s.run({"parse", s_file, "--wide"});
  EXPECT_NE(r.out.find("the compiler printed 8 waves/SIMD: its SGPR term gives 8, the hardware's 7: the hardware "
                       "allocates 112 SGPRs in granules of 16 out of 800 per SIMD, LLVM before 23 counts 94 by a "
                       "table (llvm-project #201342)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("counts 98 by a table"), std::string::npos) << r.out;
  // Only where the allocation, not the use, takes the term a step down is it shown beside the use.
  EXPECT_NE(r.out.find("94 (98)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("98 (102)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("occupancy counts the 98 SGPRs the kernel descriptor allocates, 112 in the hardware's "
                       "granules of 16; the code uses 94: the assembler reserves SGPRs (VCC, XNACK, flat scratch) "
                       "beside the compiler's count"),
            std::string::npos)
      << r.out;
  // A gate at the compiler's figure fails on the hardware's.
  EXPECT_EQ(s.run({"gate", s_file, "--min-occupancy", "8"}).exit_code, 1);
  // Two copies side by side: one note for both, each kernel named with its file.
  const fs::path copy = s.dir / "copy.s";
  fs::copy_file(s_file, copy);
  const test::RunResult both = s.run({"parse", s_file, copy.string(), "--wide"});
  EXPECT_NE(both.out.find("reserved(float*) [gfx90a] in sgpr_granule-gfx90a.s, reserved(float*) [gfx90a] in "
                          "copy.s: occupancy counts the 98 SGPRs"),
            std::string::npos)
      << both.out;
}

TEST(Allocation, ABaselineBefore15IsComparedUnderItsSgprRule) {
  // Baselines before 1.5 recorded gfx9 occupancy with LLVM's SGPR table: 8 for both kernels of the
  // real .s above, where the hardware's granules give 7. Such an entry is compared under its own
  // rule (no regression from the upgrade alone), said once; a 1.5 entry of 8 is a regression.
  Scratch s;
  const std::string input = sourcePath("fixtures/hipcc-5.2.3/sgpr_granule-gfx90a.s");
  const fs::path recorded = s.dir / "b.json";
  ASSERT_EQ(s.run({"baseline", input, "-o", recorded.string()}).exit_code, 0);
  json doc = json::parse(test::readText(recorded.string()));
  ASSERT_EQ(doc.at("regscope_baseline"), "1.5");
  for (json &k : doc.at("kernels")) {
    ASSERT_EQ(k.at("occupancy"), 7) << k.dump();
    k["occupancy"] = 8;  // hand-edited at run time: what a 1.4 regscope wrote
  }
  for (const char *version : {"1.4", "1.5"}) {
    doc["regscope_baseline"] = version;
    const fs::path edited = s.dir / (std::string("b-") + version + ".json");
    std::ofstream(edited) << doc.dump(2);
    const test::RunResult r = s.run({"gate", input, "--baseline", edited.string()});
    if (std::string(version) == "1.4") {
      EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
      EXPECT_NE(r.out.find("2 kernels (reserved(float*) [gfx90a], counted(float*) [gfx90a]) compared with a "
                           "baseline entry written before 1.5, under its rule"),
                std::string::npos)
          << r.out;
    } else {
      EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
      EXPECT_NE(r.out.find("occupancy 8 -> 7"), std::string::npos) << r.out;
    }
  }
  // Updating a 1.4 baseline records the kernels again under 1.5.
  doc["regscope_baseline"] = "1.4";
  std::ofstream(recorded) << doc.dump(2);
  ASSERT_EQ(s.run({"baseline", input, "-o", recorded.string()}).exit_code, 0);
  const json again = json::parse(test::readText(recorded.string()));
  EXPECT_EQ(again.at("regscope_baseline"), "1.5");
  for (const json &k : again.at("kernels")) {
    EXPECT_EQ(k.at("occupancy"), 7) << k.dump();
    EXPECT_FALSE(k.contains("sgpr_rule")) << k.dump();
  }
}

TEST(Allocation, AnSgprAllocationOverWhatAWaveCanHaveCannotLaunch) {
  // Hand-edited at run time (marked so): the real .s above with `reserved`'s
  // `.amdhsa_next_free_sgpr 94` raised to 120 (124 with the XNACK pair: eight granules, 128 SGPRs,
  // where gfx9 gives a wave at most 112).
  Scratch s;
  const fs::path edited = editedCopy(s, "fixtures/hipcc-5.2.3/sgpr_granule-gfx90a.s", ".amdhsa_next_free_sgpr 94",
                                     ".amdhsa_next_free_sgpr 120");
  const test::RunResult r = s.run({"parse", edited.string(), "--format", "json"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("128 SGPRs allocated, more than the 112 a wave can have on gfx90a"), std::string::npos) << r.err;
}

TEST(Allocation, AnSgprAllocationBelowTheUseIsUnknownAndJudgesNothing) {
  // Hand-edited at run time (marked so): the real hipcc 5.2.3 probe-gfx90a.s with recursive's
  // `.amdhsa_next_free_sgpr 42` (48 with its 6 extras; `; NumSgprs: 48`) lowered to 10: 16 SGPRs
  // allocated for a code that uses 48, which no rule explains.
  Scratch s;
  const fs::path edited =
      editedCopy(s, "fixtures/hipcc-5.2.3/probe-gfx90a.s", ".amdhsa_next_free_sgpr 42", ".amdhsa_next_free_sgpr 10");
  const test::RunResult r = s.run({"parse", edited.string(), "--format", "json"});
  const json k = kernelNamed(json::parse(r.out), "_Z9recursivePii");
  EXPECT_TRUE(k.at("sgprs").is_null()) << k.dump();
  EXPECT_TRUE(k.at("occupancy").is_null()) << k.dump();
  EXPECT_NE(r.err.find("allocates 16 SGPRs but the code uses 48"), std::string::npos) << r.err;
  // The other kernels keep their figures; a gate cannot judge recursive (exit 2), never passes.
  EXPECT_EQ(kernelNamed(json::parse(r.out), "_Z6cappedPf").at("sgprs"), 6);
  EXPECT_EQ(s.run({"gate", edited.string(), "--min-occupancy", "1"}).exit_code, 2);
}

}  // namespace
}  // namespace regscope
