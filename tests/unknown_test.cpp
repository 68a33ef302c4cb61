// Issue 21, items 1-6: a figure is read, or unknown and said so, or the run
// stops with one error. Each input is a real compiler output from fixtures/
// with one thing changed (a line deleted, a value corrupted), as the issue's
// cases are; the expected figures are the fixtures' own, read by eye.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "regscope/backends/amd/collect.h"
#include "regscope/backends/amd/driver.h"
#include "regscope/backends/intel/collect.h"
#include "regscope/backends/nvidia/collect.h"
#include "regscope/collect/collect.h"
#include "regscope/gate/findings.h"
#include "regscope/gate/gate.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/source/launch_sites.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"
#include "regscope/views/views.h"
#include "test_util.h"

namespace regscope {
namespace {

// `text` without the lines that contain `needle` (all of them, or only the `nth`, 0-based).
std::string withoutLines(const std::string &text, const std::string &needle, int nth = -1) {
  std::string out;
  int seen = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end + 1;
    const std::string line = text.substr(at, end - at);
    const bool match = line.find(needle) != std::string::npos;
    if (!match || (nth >= 0 && seen != nth)) out += line;
    seen += match;
    at = end;
  }
  return out;
}

std::string replaced(std::string text, const std::string &from, const std::string &to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos) throw std::runtime_error("fixture lacks '" + from + "'");
  return text.replace(at, from.size(), to);
}

// The first arch's blocks of a two-arch remark log (hipcc compiles gfx908 first).
std::string firstArch(const std::string &log) {
  const std::size_t again =
      log.find("Function Name: _Z10agpr_heavyPf", log.find("Function Name: _Z10agpr_heavyPf") + 1);
  return log.substr(0, log.rfind('\n', again) + 1);
}

Report parsed(const std::string &bytes, const std::string &name, const std::string &arch = "") {
  Artifact a = collectArtifact(bytes, name, arch);
  Report report;
  addKernels(report, a.records);
  report.warnings.insert(report.warnings.end(), a.warnings.begin(), a.warnings.end());
  for (KernelReport &k : report.kernels) k.display_file = k.record.file;
  return report;
}

const KernelReport *kernel(const Report &report, const std::string &name) {
  for (const KernelReport &k : report.kernels)
    if (k.record.name == name) return &k;
  return nullptr;
}

bool mentions(const std::vector<std::string> &lines, const std::string &text) {
  for (const std::string &l : lines)
    if (l.find(text) != std::string::npos) return true;
  return false;
}

bool isUnknown(const KernelReport &k, Field f) {
  return !k.record.has(f) && std::find(k.unknown.begin(), k.unknown.end(), f) != k.unknown.end();
}

// ---- 1. unknown is not zero ----

TEST(Unknown, RemarkLogWithoutAVgprsLine) {
  const std::string log = withoutLines(firstArch(test::fixture("hipcc-5.2.3/probe.remarks.txt")), "VGPRs: 2 ", 0);
  const Report report = parsed(log, "probe.log", "gfx908");
  const KernelReport *capped = kernel(report, "_Z6cappedPf");
  ASSERT_TRUE(capped);
  EXPECT_TRUE(isUnknown(*capped, Field::Vgprs));
  EXPECT_EQ(capped->summary.limiter, Limiter::Unknown);  // was 0 VGPRs: "8/8, at maximum"
  EXPECT_EQ(capped->record.value(Field::Sgprs), 6);      // the other figures stay
  EXPECT_TRUE(mentions(report.warnings, "kernel capped(float*) [gfx908] in probe.hip: vgprs unknown"))
      << ::testing::PrintToString(report.warnings);
  // The other kernels keep their occupancy.
  ASSERT_TRUE(kernel(report, "_Z9lds_heavyPf"));
  EXPECT_NE(kernel(report, "_Z9lds_heavyPf")->summary.limiter, Limiter::Unknown);

  const nlohmann::json json =
      nlohmann::json::parse(render(*kernelTableView(report, "t", analysisFindings(report)), Format::Json));
  for (const auto &k : json["kernels"])
    if (k["name"] == "_Z6cappedPf") {
      EXPECT_TRUE(k["vgprs"].is_null());
      EXPECT_TRUE(k["occupancy"].is_null());
      EXPECT_EQ(k["unknown"], nlohmann::json::array({"vgprs"}));
    }
  const std::string text = render(*kernelTableView(report, "t", analysisFindings(report)), Format::Text);
  EXPECT_NE(text.find("unknown: vgprs not read"), std::string::npos) << text;
}

TEST(Unknown, RemarkSpelledWithATabIsRead) {
  const std::string log =
      replaced(firstArch(test::fixture("hipcc-5.2.3/probe.remarks.txt")), "    VGPRs: 2 ", "    VGPRs:\t2 ");
  const Report report = parsed(log, "probe.log", "gfx908");
  ASSERT_TRUE(kernel(report, "_Z6cappedPf"));
  EXPECT_EQ(kernel(report, "_Z6cappedPf")->record.value(Field::Vgprs), 2);
  EXPECT_TRUE(kernel(report, "_Z6cappedPf")->unknown.empty());
  // CRLF line ends, as a log copied from Windows has them.
  std::string crlf;
  for (char c : firstArch(test::fixture("hipcc-5.2.3/probe.remarks.txt")))
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const Report r2 = parsed(crlf, "probe.log", "gfx908");
  ASSERT_TRUE(kernel(r2, "_Z6cappedPf"));
  EXPECT_EQ(kernel(r2, "_Z6cappedPf")->record.value(Field::Vgprs), 2);
  EXPECT_TRUE(kernel(r2, "_Z6cappedPf")->unknown.empty());
}

TEST(Unknown, AsmWithoutItsVgprCounts) {
  // agpr_heavy: "; NumVgprs: 70", "; NumVGPRsForWavesPerEU: 136", ".vgpr_count: 136".
  std::string s = test::fixture("hipcc-5.2.3/probe-gfx90a.s");
  const Report whole = parsed(s, "probe-gfx90a.s");
  ASSERT_TRUE(kernel(whole, "_Z10agpr_heavyPf"));
  EXPECT_EQ(kernel(whole, "_Z10agpr_heavyPf")->summary.registers, 136);
  EXPECT_EQ(kernel(whole, "_Z10agpr_heavyPf")->summary.limiter, Limiter::Invalid);  // 1024 threads never fit
  s = withoutLines(s, "; NumVgprs: 70");
  s = withoutLines(s, "; NumVGPRsForWavesPerEU: 136");
  s = withoutLines(s, ".vgpr_count:     136");
  // The descriptor's allocation alone is what the hardware reads: enough for an occupancy.
  const Report descriptor_only = parsed(withoutLines(s, "; TotalNumVgprs: 136"), "probe-gfx90a.s");
  ASSERT_TRUE(kernel(descriptor_only, "_Z10agpr_heavyPf"));
  EXPECT_EQ(kernel(descriptor_only, "_Z10agpr_heavyPf")->summary.registers, 136);
  s = withoutLines(s, "; TotalNumVgprs: 136");
  s = withoutLines(s, ".amdhsa_next_free_vgpr 136");
  const Report report = parsed(s, "probe-gfx90a.s");
  const KernelReport *k = kernel(report, "_Z10agpr_heavyPf");
  ASSERT_TRUE(k);
  EXPECT_TRUE(isUnknown(*k, Field::Vgprs));
  EXPECT_EQ(k->summary.limiter, Limiter::Unknown);
  EXPECT_EQ(k->record.value(Field::Agprs), 64);
}

// Each key renamed in place (the msgpack stays valid), and the kernel
// descriptors' symbols too ("NAME.kd" -> "NAME.kX"): no source says the figure.
// With the descriptors, the allocation and the LDS are theirs (the hardware's).
TEST(Unknown, CodeObjectWithoutVgprCountOrLds) {
  const std::string object = test::fixture("hipcc-5.2.3/probe-gfx90a.hsaco");
  std::string no_descriptors = object;
  for (std::size_t at = no_descriptors.find(std::string(".kd\0", 4)); at != std::string::npos;
       at = no_descriptors.find(std::string(".kd\0", 4), at + 1))
    no_descriptors[at + 2] = 'X';
  for (const std::string key : {".vgpr_count", ".group_segment_fixed_size"}) {
    std::string with_descriptors = object;
    const std::string name = std::string(1, static_cast<char>(0xa0 | key.size())) + key;
    for (std::size_t at = with_descriptors.find(name); at != std::string::npos;
         at = with_descriptors.find(name, at + 1))
      with_descriptors[at + name.size() - 1] = 'X';
    for (const KernelReport &k : parsed(with_descriptors, "probe-gfx90a.hsaco").kernels)
      EXPECT_NE(k.summary.limiter, Limiter::Unknown) << key << " " << k.record.name;
    std::string bytes = no_descriptors;
    // Each kernel's key renamed in place (the msgpack stays valid): the figure is gone.
    const std::string needle = std::string(1, static_cast<char>(0xa0 | key.size())) + key;
    int renamed = 0;
    for (std::size_t at = bytes.find(needle); at != std::string::npos; at = bytes.find(needle, at + 1), ++renamed)
      bytes[at + needle.size() - 1] = 'X';
    ASSERT_GT(renamed, 0) << key;
    const Report report = parsed(bytes, "probe-gfx90a.hsaco");
    ASSERT_FALSE(report.kernels.empty());
    for (const KernelReport &k : report.kernels) {
      EXPECT_EQ(k.summary.limiter, Limiter::Unknown) << key << " " << k.record.name;  // was "8/8"
      EXPECT_FALSE(k.unknown.empty()) << key;
    }
  }
}

TEST(Unknown, PtxasWithoutUsedRegisters) {
  const std::string log = withoutLines(test::fixture("ptxas-11.8/kernels.ptxas.txt"), "Used 14 registers");
  Report report;
  addKernels(report, mergeFacts({parsePtxas(log, "sm_80")}));
  const KernelReport *k = kernel(report, "_Z14smem_transposePKfPfii");
  ASSERT_TRUE(k);
  EXPECT_TRUE(isUnknown(*k, Field::Registers));
  EXPECT_EQ(k->summary.limiter, Limiter::Unknown);  // was 0 registers: 100 %
  ASSERT_TRUE(kernel(report, "_Z9use_constPf"));
  EXPECT_EQ(kernel(report, "_Z9use_constPf")->record.value(Field::Registers), 8);
}

TEST(Unknown, ZeInfoWithGrfCountZeroOrNoSimdSize) {
  const std::string yaml = test::fixture("ocloc-22.43/probe.pvc.small.ze_info.yaml");
  {
    Report report;
    const std::string zero = replaced(yaml, "grf_count:       128", "grf_count:       0");
    addKernels(report, mergeFacts({FactSet{".ze_info", parseZeInfo(zero, "pvc"), {}}}));
    const KernelReport *k = kernel(report, "light");
    ASSERT_TRUE(k);
    EXPECT_EQ(k->summary.limiter, Limiter::Invalid);  // was 100 %
    EXPECT_NE(k->impossible.find("grf_count 0"), std::string::npos) << k->impossible;
  }
  {
    Report report;
    const std::string none = withoutLines(yaml, "simd_size:       32", 0);
    addKernels(report, mergeFacts({FactSet{".ze_info", parseZeInfo(none, "pvc"), {}}}));
    const KernelReport *k = kernel(report, "light");
    ASSERT_TRUE(k);
    EXPECT_TRUE(isUnknown(*k, Field::SimdSize));
    EXPECT_EQ(k->summary.limiter, Limiter::Unknown);
  }
}

// ---- 2. the gate never passes what it cannot judge ----

TEST(Unknown, GateCannotJudgeAKernelWithAnUnknownFigure) {
  const std::string log = withoutLines(firstArch(test::fixture("hipcc-5.2.3/probe.remarks.txt")), "VGPRs: 2 ", 0);
  const Report report = parsed(log, "probe.log", "gfx908");
  Config config;
  config.defaults.max_spills = 0;
  const GateResult result = checkThresholds(report, config);
  ASSERT_EQ(result.unjudged.size(), 1u);
  EXPECT_EQ(result.unjudged[0].rule, Rule::CannotJudge);
  EXPECT_EQ(result.unjudged[0].message, "cannot judge kernel capped(float*) [gfx908] in probe.hip: vgprs unknown");
  EXPECT_EQ(result.kernels_checked, static_cast<int>(report.kernels.size()) - 1);
  const std::string text = render(*gateView(report, result, gateFindings(result), nullptr, ""), Format::Text);
  EXPECT_NE(text.find("CANNOT JUDGE"), std::string::npos) << text;
  EXPECT_NE(text.find("kernels judged, 1 not judged"), std::string::npos) << text;
}

// From the command line: hipcc wrapped so that its .s loses the VGPR counts
// (as a damaged toolchain or a post-processing step might), the rest real.
TEST(Unknown, GateAndBaselineExitTwoOnAKernelTheyCannotJudge) {
  if (!test::haveHipcc()) GTEST_SKIP() << "hipcc is not installed";
  TempDir cwd, tmp, cache;
  const std::string dir = cwd.path();
  std::ofstream(dir + "/k.hip")
      << "#include <hip/hip_runtime.h>\n__global__ void k(float *p) { p[threadIdx.x] *= 2.0f; }\n";
  const std::string wrapper = dir + "/damaging-hipcc";
  std::ofstream(wrapper)
      << "#!/bin/bash\n"
      << findHipCompiler("") << " \"$@\"; rc=$?\n"
      << "for f in *.s; do [ -f \"$f\" ] && sed -i '/NumVgprs\\|vgpr_count\\|NumVGPRsForWavesPerEU/d' \"$f\"; done\n"
      << "exit $rc\n";
  std::filesystem::permissions(wrapper, std::filesystem::perms::owner_all);
  const std::vector<std::string> compile = {"--compiler", wrapper};
  auto run = [&](std::vector<std::string> args) {
    args.insert(args.end(), compile.begin(), compile.end());
    return test::runRegscope(args, dir, tmp.path(), cache.path());
  };
  test::RunResult gate = run({"gate", "k.hip", "--max-spills", "0"});
  EXPECT_EQ(gate.exit_code, 2) << gate.out << gate.err;
  // The descriptor's .amdhsa_next_free_vgpr is left: what the code uses is the figure no source gave.
  EXPECT_NE(gate.err.find("regscope: error: cannot judge kernel k(float*) [gfx90a] in k.hip: vgprs_used unknown"),
            std::string::npos)
      << gate.err;
  const std::string none =
      "CANNOT JUDGE: judged none of the 1 kernel its inputs held (1 with a figure not read); "
      "0 failures in 0 kernels judged, 1 not judged";
  EXPECT_NE(gate.out.find(none), std::string::npos) << gate.out;
  // --allow-unknown lets the judged kernels decide; with none judged there is no verdict to pass.
  test::RunResult allowed = run({"gate", "k.hip", "--max-spills", "0", "--allow-unknown"});
  EXPECT_EQ(allowed.exit_code, 2) << allowed.err;
  EXPECT_NE(allowed.out.find(none), std::string::npos) << allowed.out;
  test::RunResult baseline = run({"baseline", "k.hip", "-o", "b.json"});
  EXPECT_EQ(baseline.exit_code, 2) << baseline.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/b.json")) << "a baseline was written with a figure never read";
}

// A template kernel never instantiated compiles to no code: the file defines
// a kernel, the compile reports none. Was "no kernels found", exit 0.
TEST(Unknown, ASourceWithKernelsThatCompilesToNoneIsAnError) {
  if (!test::haveHipcc()) GTEST_SKIP() << "hipcc is not installed";
  TempDir cwd, tmp, cache;
  std::ofstream(cwd.path() + "/t.hip")
      << "#include <hip/hip_runtime.h>\ntemplate <typename T> __global__ void k(T *p) { p[0] = 1; }\n";
  const test::RunResult r =
      test::runRegscope({"gate", "t.hip", "--max-spills", "0"}, cwd.path(), tmp.path(), cache.path());
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("t.hip: defines kernels (__global__ or __kernel) but the compile reported none"),
            std::string::npos)
      << r.err;
}

TEST(Unknown, DefinesKernelsSeesTokensNotText) {
  EXPECT_TRUE(definesKernels("__global__ void k(int *p) { p[0] = 1; }\n"));
  EXPECT_TRUE(definesKernels("__kernel void k(__global int *p) { p[0] = 1; }\n"));
  EXPECT_FALSE(definesKernels("// __global__ void k();\nint f();\n"));
  EXPECT_FALSE(definesKernels("const char *s = \"__global__\";\n"));
  EXPECT_FALSE(definesKernels("#define KERNEL __global__\nint f();\n"));
}

// ---- 3. remarks by name, never by position ----

TEST(Unknown, OrphanedRemarksBelongToNoKernel) {
  // capped's "Function Name" line gone: its figures were given to agpr_heavy, printed before.
  const std::string log =
      withoutLines(firstArch(test::fixture("hipcc-5.2.3/probe.remarks.txt")), "Function Name: _Z6cappedPf");
  const Report report = parsed(log, "probe.log", "gfx908");
  EXPECT_FALSE(kernel(report, "_Z6cappedPf"));
  const KernelReport *heavy = kernel(report, "_Z10agpr_heavyPf");
  ASSERT_TRUE(heavy);
  EXPECT_EQ(heavy->record.value(Field::Vgprs), 70);  // not capped's 2
  EXPECT_TRUE(mentions(report.warnings, "8 resource remarks at probe.hip:10 belong to no kernel"))
      << ::testing::PrintToString(report.warnings);
}

// ---- 4. impossible is not a figure ----

TEST(Unknown, VgprsOverTheFileIsAnErrorInParse) {
  TempDir dir;
  const std::string path = dir.path() + "/probe.log";
  std::ofstream(path) << replaced(firstArch(test::fixture("hipcc-5.2.3/probe.remarks.txt")), "VGPRs: 2 ",
                                  "VGPRs: 600 ");
  try {
    parseArtifacts({path}, "gfx908", {});
    FAIL() << "600 VGPRs were modelled";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("600 VGPRs, more than the 256 a kernel can address on gfx908"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(Unknown, DynamicLdsThatOverflowsOrExceedsTheMaximumCannotLaunch) {
  const std::string s = test::fixture("hipcc-5.2.3/probe-gfx90a.s");
  for (int dynamic : {2147483137, 70000}) {
    Artifact a = collectArtifact(s, "probe-gfx90a.s", "");
    Report report;
    LaunchOverrides launch;
    launch.dynamic_lds = dynamic;
    addKernels(report, a.records, launch);
    for (const KernelReport &k : report.kernels) {
      EXPECT_EQ(k.summary.limiter, Limiter::Invalid) << dynamic << " " << k.record.name;  // was 7/8, 1/8
      EXPECT_NE(k.impossible.find("more than gfx90a's 65536"), std::string::npos) << k.impossible;
    }
  }
}

// A launch regscope could not evaluate (issue 30): dynamic LDS unknown makes
// the occupancy unknown; a block size unknown is modelled at the assumed size
// but marked; the gate judges neither until the flag gives the size.
TEST(Unknown, ALaunchNotReadIsUnknownUntilTheFlagGivesIt) {
  const std::string s = test::fixture("hipcc-5.2.3/probe-gfx90a.s");
  auto modelled = [&](const LaunchOverrides &launch) {
    Artifact a = collectArtifact(s, "probe-gfx90a.s", "");
    Report report;
    addKernels(report, a.records, launch);
    for (KernelReport &k : report.kernels) k.display_file = k.record.file;
    return report;
  };
  LaunchOverrides dynamic;
  dynamic.dynamic_unread_at = "h.hip:28";
  const Report unknown_lds = modelled(dynamic);
  ASSERT_FALSE(unknown_lds.kernels.empty());
  Config config;
  config.defaults.min_occupancy = 1;
  for (const KernelReport &k : unknown_lds.kernels) {
    if (!k.impossible.empty()) continue;  // agpr_heavy can never be resident: its own reason
    EXPECT_EQ(k.summary.limiter, Limiter::Unknown) << k.record.name;
    EXPECT_NE(cannotJudge(k).find("its launch at h.hip:28 passes dynamic shared memory (LDS) regscope cannot "
                                  "evaluate: give the bytes with --dynamic-lds"),
              std::string::npos)
        << cannotJudge(k);
  }
  EXPECT_EQ(checkThresholds(unknown_lds, config).kernels_checked, 0);
  dynamic.dynamic_lds = 1024;  // given: modelled, judged
  for (const KernelReport &k : modelled(dynamic).kernels)
    if (k.impossible.empty()) {
      EXPECT_NE(k.summary.limiter, Limiter::Unknown) << k.record.name;
      EXPECT_EQ(cannotJudge(k), "") << k.record.name;
    }

  LaunchOverrides block;
  block.block_size_unread_at = "m.hip:7";
  for (const KernelReport &k : modelled(block).kernels) {
    if (!k.impossible.empty()) continue;
    EXPECT_NE(k.summary.limiter, Limiter::Unknown) << k.record.name;  // modelled at the assumption
    EXPECT_EQ(k.launch.block_size_unread_at, "m.hip:7");
    EXPECT_NE(cannotJudge(k).find("its launch at m.hip:7 passes a block size regscope cannot evaluate"),
              std::string::npos)
        << cannotJudge(k);
  }
  block.block_size = 64;  // given: no longer an assumption
  for (const KernelReport &k : modelled(block).kernels) EXPECT_EQ(k.launch.block_size_unread_at, "");
}

TEST(Unknown, MaxWorkgroupSizeZeroCannotLaunch) {
  const std::string s = replaced(test::fixture("hipcc-5.2.3/probe-gfx90a.s"), ".max_flat_workgroup_size: 1024",
                                 ".max_flat_workgroup_size: 0");
  const Report report = parsed(s, "probe-gfx90a.s");
  int invalid = 0;
  for (const KernelReport &k : report.kernels)
    if (k.summary.limiter == Limiter::Invalid) {
      ++invalid;
      EXPECT_NE(k.impossible.find("a maximum workgroup size of 0"), std::string::npos) << k.impossible;
    }
  EXPECT_EQ(invalid, 1);
}

// ---- 5. two sources that disagree, a .set cycle ----

TEST(Unknown, MetadataAndCommentThatDisagreeAreNamedAndUnknown) {
  // What agpr_heavy uses: "; TotalNumVgprs: 136" against a corrupted ".vgpr_count".
  std::string s =
      replaced(test::fixture("hipcc-5.2.3/probe-gfx90a.s"), ".vgpr_count:     136", ".vgpr_count:     4294967432");
  const Report report = parsed(s, "probe-gfx90a.s");
  const KernelReport *k = kernel(report, "_Z10agpr_heavyPf");
  ASSERT_TRUE(k);
  EXPECT_FALSE(k->record.has(Field::VgprsUsed));
  EXPECT_TRUE(
      mentions(report.warnings, "vgprs_used: the .s comment says 136, the .s metadata says 4294967432: unknown"))
      << ::testing::PrintToString(report.warnings);
  EXPECT_FALSE(mentions(report.warnings, "no source gave")) << ::testing::PrintToString(report.warnings);
  // The allocation: "; NumVGPRsForWavesPerEU: 136" against a corrupted ".amdhsa_next_free_vgpr".
  s = replaced(test::fixture("hipcc-5.2.3/probe-gfx90a.s"), ".amdhsa_next_free_vgpr 136", ".amdhsa_next_free_vgpr 96");
  const Report allocation = parsed(s, "probe-gfx90a.s");
  ASSERT_TRUE(kernel(allocation, "_Z10agpr_heavyPf"));
  EXPECT_FALSE(kernel(allocation, "_Z10agpr_heavyPf")->record.has(Field::VgprsTotal));
  EXPECT_EQ(kernel(allocation, "_Z10agpr_heavyPf")->summary.limiter, Limiter::Unknown);
  EXPECT_TRUE(mentions(allocation.warnings, "vgprs_total: the .s comment says 136, the .s descriptor says 96: unknown"))
      << ::testing::PrintToString(allocation.warnings);
}

TEST(Unknown, RemarkAndAsmThatDisagreeAreNamedAndUnknown) {
  std::vector<FactSet> sets;
  sets.push_back(parseAsm(test::fixture("hipcc-5.2.3/probe-gfx90a.s")).facts);
  sets.push_back(parseRemarkText(
      replaced(firstArch(test::fixture("hipcc-5.2.3/probe.remarks.txt")), "VGPRs: 2 ", "VGPRs: 68 "), "gfx90a"));
  for (KernelFacts &f : sets[0].kernels) f.arch = "gfx90a";
  const std::vector<KernelRecord> records = mergeFacts(sets);
  for (const KernelRecord &r : records)
    if (r.name == "_Z6cappedPf") {
      EXPECT_FALSE(r.has(Field::Vgprs));
      EXPECT_TRUE(mentions(r.warnings, "vgprs: .s says 2, remarks says 68: unknown"))
          << ::testing::PrintToString(r.warnings);
    }
}

TEST(Unknown, SetCycleIsAnErrorNamingTheSymbol) {
  const std::string s = replaced(test::fixture("llvm20/k.s"), ".set _Z6simplePf.num_vgpr, 42",
                                 ".set _Z6simplePf.num_vgpr, _Z6simplePf.num_vgpr+1");
  try {
    collectArtifact(s, "k.s", "");
    FAIL() << "a .set cycle was left unresolved until link";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("symbol '_Z6simplePf.num_vgpr'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace regscope
