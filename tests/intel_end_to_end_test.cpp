// The regscope binary on Intel kernels through the installed ocloc: analyze in
// both GRF modes against what ocloc printed and what the zebin says (read here
// from a run of ocloc of the test's own, by simple scans of the text), every
// output format, gate and baseline, the calculator and the table, the
// reference kernel, the result cache over an included header, and bad input.
// Skips without ocloc (Debian: intel-opencl-icd).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ocloc_text.h"
#include "regscope/backends/intel/collect.h"
#include "regscope/backends/intel/ocloc.h"
#include "regscope/support/files.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class IntelEndToEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    if (searchPath("ocloc").empty())
      GTEST_SKIP() << "ocloc is not installed (Debian: intel-opencl-icd): Intel end-to-end tests need it";
    cwd_ = std::make_unique<TempDir>();
    tmp_ = std::make_unique<TempDir>();
    cache_ = std::make_unique<TempDir>();
    src_ = std::make_unique<TempDir>();
  }
  // Every run must leave the working directory and $TMPDIR as it found them.
  void TearDown() override {
    if (!cwd_) return;
    EXPECT_TRUE(test::dirIsEmpty(cwd_->path())) << "files left in the working directory";
    EXPECT_TRUE(test::dirIsEmpty(tmp_->path())) << "files left in $TMPDIR";
  }
  test::RunResult run(const std::vector<std::string> &args, const std::vector<std::string> &environment = {}) {
    return test::runRegscope(args, cwd_->path(), tmp_->path(), cache_->path(), environment);
  }
  std::string writeSource(const std::string &name, const std::string &text) {
    const std::string path = src_->path() + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::unique_ptr<TempDir> cwd_, tmp_, cache_, src_;
};

const std::string kProbe = test::sourcePath("fixtures/src/ocloc_probe.cl");

// ocloc's own run of `source`, outside regscope: its spill warnings and, per
// kernel, the zebin's grf_count and simd_size.
struct OclocSays {
  std::map<std::string, test::Printed> warnings;
  std::map<std::string, std::pair<int, int>> zebin;
};

OclocSays runOclocDirectly(const std::string &source, const std::string &grf_option) {
  TempDir dir;
  std::vector<std::string> argv = {searchPath("ocloc"), "compile", "-file",   source, "-device",          "pvc",
                                   "--format",          "zebin",   "-output", "k",    "-output_no_suffix"};
  if (!grf_option.empty()) argv.insert(argv.end(), {"-options", grf_option});
  const ProcessOutput ran = runCaptured(argv, dir.path());
  return {test::printedWarnings(ran.out + ran.err), test::zebinSays(zeInfoSection(readFile(dir.path() + "/k")))};
}

// A light kernel, one that spills in small GRF mode only and one that spills
// in both: regscope's GRF count, SIMD width and spills are ocloc's, in both modes.
TEST_F(IntelEndToEnd, BothGrfModesAsOclocPrintedAndTheZebinSays) {
  const test::RunResult r = run({"analyze", kProbe, "--intel-device", "pvc", "--grf", "both", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);
  EXPECT_EQ(report["compiler"]["version"].get<std::string>().rfind("ocloc ", 0), 0u);
  ASSERT_EQ(report["kernels"].size(), 12u);
  const OclocSays small = runOclocDirectly(kProbe, ""),
                  large = runOclocDirectly(kProbe, "-cl-intel-256-GRF-per-thread");
  ASSERT_EQ(small.zebin.size(), 6u);
  int checked = 0;
  for (const json &k : report["kernels"]) {
    const std::string name = k["name"], arch = k["arch"];
    SCOPED_TRACE(name + " [" + arch + "]");
    const bool is_large = arch == "pvc:large-grf";
    ASSERT_TRUE(is_large || arch == "pvc");
    const OclocSays &says = is_large ? large : small;
    EXPECT_EQ(k["vendor"], "intel");
    EXPECT_EQ(k["grf_mode"], is_large ? "large" : "small");
    EXPECT_EQ(k["grf_count"], says.zebin.at(name).first);
    EXPECT_EQ(k["grf_count"], is_large ? 256 : 128);
    EXPECT_EQ(k["simd_size"], says.zebin.at(name).second);
    if (auto w = says.warnings.find(name); w != says.warnings.end()) {
      EXPECT_EQ(k["spill_grfs"], w->second.spill);
      EXPECT_EQ(k["spill_bytes"], w->second.spill * 64);  // PVC's GRFs are 64 bytes
      EXPECT_EQ(k["grf_count"], w->second.grf);
      EXPECT_EQ(k["simd_size"], w->second.simd);
    } else {
      EXPECT_EQ(k["spill_grfs"], 0);
      EXPECT_EQ(k["spill_bytes"], 0);
    }
    // Intel's rule on both records of each kernel, from the small-GRF spills.
    const bool spills_small = small.warnings.count(name) > 0;
    EXPECT_EQ(k["grf_recommendation"]["mode"], spills_small ? "large" : "small");
    // The occupancy level is threads per Xe-core of the 64 small-GRF slots.
    EXPECT_EQ(k["occupancy"]["max_thread_slots"], 64);
    EXPECT_EQ(k["occupancy"]["thread_slots"], is_large ? 32 : 64);
    EXPECT_EQ(k["occupancy"]["threads_per_eu"], is_large ? 4 : 8);
    ++checked;
  }
  EXPECT_EQ(checked, 12);
  // The three the issue names: light (no spills), spill_small_only, spill_both.
  EXPECT_FALSE(small.warnings.count("light"));
  EXPECT_TRUE(small.warnings.count("spill_small_only") && !large.warnings.count("spill_small_only"));
  EXPECT_TRUE(small.warnings.count("spill_both") && large.warnings.count("spill_both"));
}

TEST_F(IntelEndToEnd, TextTableShowsTheTradeAndTheRule) {
  // pvc is the default device; --wide: every column, the notes unwrapped.
  const test::RunResult r = run({"analyze", kProbe, "--grf", "both", "--wide"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char *part :
       {"THREADS/XE", "GRF RULE", "pvc:large-grf",
        // A note shared by kernels is said once, naming them all.
        "spill_small_only [pvc], spill_both [pvc:large-grf]: spills 1792 bytes per thread (28 GRF)",
        "spill_small_only [pvc]: Intel's GRF rule picks large GRF mode: it spills 1792 bytes per thread in small GRF "
        "mode; with 256 GRF it spills 0, at 32 instead of 64 threads/Xe-core",
        "private_array [pvc], private_array [pvc:large-grf]: 65536 bytes of scratch per thread without spills",
        "small GRF -> 5 work-groups/Xe-core"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
  EXPECT_NE(r.out.find("ocloc_probe.cl:5 "), std::string::npos) << r.out;  // light's declaration line
}

TEST_F(IntelEndToEnd, EveryOutputFormat) {
  const test::RunResult csv = run({"analyze", kProbe, "--grf", "both", "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  std::istringstream lines(csv.out);
  std::string header, row;
  std::getline(lines, header);
  EXPECT_EQ(header,
            "kernel,name,arch,file,line,simd_size,grf_count,spill_bytes,scratch_per_thread,slm_bytes,barriers,"
            "work_group_size,threads_per_eu,work_groups_per_xe_core,threads_per_xe_core,max_thread_slots,"
            "occupancy_percent,limiter,next_step,grf_recommendation");
  int rows = 0;
  bool found = false;
  while (std::getline(lines, row)) {
    ++rows;
    // spill_both in small GRF mode: 158 GRFs of 64 bytes, 16 KiB of scratch per thread.
    if (row.rfind("spill_both,spill_both,pvc,", 0) == 0) {
      found = true;
      EXPECT_NE(row.find(",32,128,10112,16384,0,0,256,8,8,64,64,100,none,at maximum,large"), std::string::npos) << row;
    }
  }
  EXPECT_EQ(rows, 12);
  EXPECT_TRUE(found) << csv.out;

  const test::RunResult markdown = run({"analyze", kProbe, "--format", "markdown"});
  ASSERT_EQ(markdown.exit_code, 0) << markdown.err;
  EXPECT_NE(markdown.out.find("| `spill_both` | pvc |"), std::string::npos) << markdown.out;
  EXPECT_NE(markdown.out.find("64/64 threads/Xe-core"), std::string::npos) << markdown.out;

  const test::RunResult sarif = run({"analyze", kProbe, "--format", "sarif"});
  ASSERT_EQ(sarif.exit_code, 0) << sarif.err;
  const json log = json::parse(sarif.out);
  bool spill_result = false;
  for (const json &result : log["runs"][0]["results"])
    spill_result |=
        result["message"]["text"].get<std::string>().find("10112 bytes of spill per thread") != std::string::npos;
  EXPECT_TRUE(spill_result) << sarif.out;

  const test::RunResult github = run({"analyze", kProbe, "--format", "github"});
  ASSERT_EQ(github.exit_code, 0) << github.err;
  EXPECT_NE(github.out.find("1792 bytes of spill per thread to scratch memory"), std::string::npos) << github.out;

  const test::RunResult junit = run({"analyze", kProbe, "--format", "junit"});
  ASSERT_EQ(junit.exit_code, 0) << junit.err;
  EXPECT_NE(junit.out.find("spill_simd16"), std::string::npos) << junit.out;
}

TEST_F(IntelEndToEnd, GateAndBaseline) {
  // --max-spills counts bytes of spill per thread; --min-occupancy threads per Xe-core.
  test::RunResult r = run({"gate", kProbe, "--intel-device", "pvc", "--max-spills", "0"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("spill_both [pvc]: max-spills: spills 10112 bytes/thread > 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3 failures in 6 kernels"), std::string::npos) << r.out;
  r = run({"gate", kProbe, "--grf", "large", "--min-occupancy", "33"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("light [pvc:large-grf]: min-occupancy: occupancy 32 threads/Xe-core < 33 (limited by threads)"),
            std::string::npos)
      << r.out;
  r = run({"gate", kProbe, "--grf", "large", "--min-occupancy", "32", "--format", "json"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(json::parse(r.out)["passed"], true);

  // A baseline of both modes; the same figures pass, one mode's edit is a regression.
  const std::string baseline = src_->path() + "/baseline.json";
  const std::string source = writeSource("k.cl", test::readText(kProbe));
  r = run({"baseline", source, "--grf", "both", "-o", baseline});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json entries = json::parse(readFile(baseline))["kernels"];
  ASSERT_EQ(entries.size(), 12u);
  for (const json &e : entries)
    if (e["name"] == "spill_both") EXPECT_EQ(e["spills"], e["arch"] == "pvc" ? 10112 : 1792) << e.dump();
  r = run({"gate", source, "--grf", "both", "--baseline", baseline});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // Another pressure in spill_both: each mode's verdict follows its own spills,
  // which IGC does not move the same way in both modes.
  std::string text = test::readText(kProbe);
  text.replace(text.find("PRESSURE(spill_both, 128, 32)"), 29, "PRESSURE(spill_both, 112, 32)");
  writeSource("k.cl", text);
  r = run({"analyze", source, "--grf", "both", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, int> was, now;
  for (const json &e : entries)
    if (e["name"] == "spill_both") was[e["arch"]] = e["spills"];
  const json after = json::parse(r.out);
  for (const json &k : after["kernels"])
    if (k["name"] == "spill_both") now[k["arch"]] = k["spill_bytes"];
  ASSERT_EQ(now.size(), 2u);
  r = run({"gate", source, "--grf", "both", "--baseline", baseline, "--format", "json"});
  const json gate = json::parse(r.out);
  bool regressed = false;
  for (const auto &[arch, bytes] : now) {
    SCOPED_TRACE(arch + ": " + std::to_string(was[arch]) + " -> " + std::to_string(bytes));
    const std::string change = "spills " + std::to_string(was[arch]) + " -> " + std::to_string(bytes) + " bytes/thread";
    const char *list = bytes > was[arch] ? "failures" : "improvements";
    bool found = false;
    for (const json &v : gate[list]) found |= v["arch"] == arch && v["message"] == change;
    EXPECT_EQ(found, bytes != was[arch]) << r.out;
    regressed |= bytes > was[arch];
  }
  EXPECT_EQ(r.exit_code, regressed ? 1 : 0) << r.out << r.err;
}

TEST_F(IntelEndToEnd, CalculatorAndTable) {
  test::RunResult r =
      run({"occupancy", "--arch", "pvc", "--grf", "256", "--simd", "32", "--block-size", "256", "--slm", "32768"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 256 / 32 = 8 threads; 32 slots / 8 = 4 work-groups; 128 KiB / 32 KiB = 4: threads first on a tie.
  EXPECT_NE(r.out.find("pvc (Xe-HPC): 4 work-groups/Xe-core, 32/64 threads/Xe-core (50%), limited by threads"),
            std::string::npos)
      << r.out;
  // Five work-groups need small GRF mode's slots and the 24 KiB SLM step.
  EXPECT_NE(r.out.find("next step: small GRF + free 8 KiB SLM -> 5 work-groups/Xe-core"), std::string::npos) << r.out;
  r = run({"occupancy", "--arch", "Max 1550", "--grf", "128", "--simd", "32", "--block-size", "256", "--slm", "40960",
           "--barriers", "1", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json occ = json::parse(r.out)["occupancy"];
  EXPECT_EQ(occ["slm_allocated"], 48 * 1024);
  EXPECT_EQ(occ["work_groups_per_xe_core"], 2);
  EXPECT_EQ(occ["limiter"], "slm");
  EXPECT_EQ(occ["next"]["slm_bytes_to_free"], 8192);
  r = run({"occupancy", "--arch", "pvc", "--grf", "256", "--simd", "16", "--block-size", "1024", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("resource,used,work_groups"), std::string::npos) << r.out;
  r = run({"occupancy", "--arch", "pvc", "--grf", "256", "--simd", "16", "--block-size", "1024"});
  EXPECT_NE(r.out.find("cannot launch: a work-group of 1024 work-items at SIMD16 needs 64 hardware threads; an "
                       "Xe-core has 32 with 256 GRF"),
            std::string::npos)
      << r.out;

  r = run({"table", "--arch", "pvc", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string header, row;
  std::getline(lines, header);
  EXPECT_EQ(header,
            "grf_count,simd_size,slm_bytes,threads_per_eu,work_groups_per_xe_core,threads_per_xe_core,"
            "occupancy_percent,limiter");
  std::vector<std::string> rows;
  while (std::getline(lines, row)) rows.push_back(row);
  ASSERT_EQ(rows.size(), 48u);                            // 2 GRF modes x 2 SIMD widths x 12 SLM steps
  EXPECT_EQ(rows[12 + 6], "128,32,24576,8,5,40,63,slm");  // the calculator's 5 at 24 KiB
  EXPECT_EQ(rows[36], "256,32,0,4,4,32,50,threads");
  r = run({"table", "--arch", "dg2", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["max_thread_slots"], 128);
}

// Seed 002's trade: unrolling spills with 128 GRF; 256 GRF removes the spills
// and halves the threads per Xe-core; Intel's rule picks large for ax_unrolled.
TEST_F(IntelEndToEnd, ReferenceKernelsOnPvc) {
  test::RunResult r = run({"kernels", "list", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ax_unrolled_cl,unroll/ax.cl"), std::string::npos) << r.out;
  r = run({"kernels", "analyze", "unroll", "--intel-device", "pvc", "--grf", "both", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, json> k;
  const json report = json::parse(r.out);
  for (const json &kernel : report["kernels"])
    k[kernel["name"].get<std::string>() + " " + kernel["arch"].get<std::string>()] = kernel;
  ASSERT_EQ(k.size(), 4u) << r.out;
  EXPECT_EQ(k["ax_rolled pvc"]["spill_bytes"], 0);
  EXPECT_GT(k["ax_unrolled pvc"]["spill_bytes"], 0);
  EXPECT_EQ(k["ax_unrolled pvc:large-grf"]["spill_bytes"], 0);
  EXPECT_EQ(k["ax_rolled pvc"]["grf_recommendation"]["mode"], "small");
  EXPECT_EQ(k["ax_unrolled pvc"]["grf_recommendation"]["mode"], "large");
  EXPECT_EQ(k["ax_unrolled pvc"]["required_work_group_size"], 576);
  EXPECT_GT(k["ax_unrolled pvc"]["occupancy"]["threads_per_xe_core"],
            k["ax_unrolled pvc:large-grf"]["occupancy"]["threads_per_xe_core"]);
  // The HIP forms are not compiled for Intel, nor the OpenCL C forms for AMD.
  r = run({"kernels", "analyze", "ax_rolled_cl"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--intel-device"), std::string::npos) << r.err;
}

// ocloc writes no dependency file: the includes the driver finds keep the
// cache honest. An edited header is a miss; an untouched one a hit.
TEST_F(IntelEndToEnd, ResultCacheSeesIncludedHeaders) {
  const std::string header = writeSource("tile.h", "#define TILE 256\n");
  const std::string source = writeSource("tile.cl",
                                         "#include \"tile.h\"\n__kernel void tiled(__global float *a) {\n"
                                         "  __local float t[TILE];\n  t[get_local_id(0)] = a[0];\n"
                                         "  barrier(CLK_LOCAL_MEM_FENCE);\n  a[1] = t[3];\n}\n");
  auto slm = [&] {
    const test::RunResult r = run({"analyze", source, "--format", "json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out)["kernels"][0]["slm_bytes"].get<int>();
  };
  EXPECT_EQ(slm(), 1024);
  EXPECT_FALSE(test::dirIsEmpty(cache_->path()));
  EXPECT_EQ(slm(), 1024);
  std::ofstream(header, std::ios::binary) << "#define TILE 512\n";
  EXPECT_EQ(slm(), 2048);
  // --no-cache and the compile agree.
  const test::RunResult r = run({"analyze", source, "--no-cache", "--format", "json"});
  EXPECT_EQ(json::parse(r.out)["kernels"][0]["slm_bytes"], 2048);
}

void expectOneErrorLine(const test::RunResult &r, const std::string &part) {
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
}

TEST_F(IntelEndToEnd, BadInput) {
  const std::string fake = writeSource("fake.spv", "__kernel void k() {}\n");
  expectOneErrorLine(run({"analyze", fake}), "fake.spv: not a SPIR-V module");
  expectOneErrorLine(run({"analyze", kProbe, "--intel-device", "bogus"}),
                     "unknown Intel device 'bogus'; known: pvc (Max 1100/Max 1450/Max 1550), dg2 (");
  expectOneErrorLine(run({"analyze", kProbe}, {"PATH=/nonexistent-regscope-test-dir"}),
                     "no ocloc on PATH (Intel's offline compiler: on Debian and Ubuntu it is in the package "
                     "intel-opencl-icd");
  // A compile error: ocloc's first error lines, under the file's own name.
  const std::string bad = writeSource("bad.cl", "__kernel void e(__global float *a) {\n  a[0] = b;\n  a[1] = c;\n}\n");
  const test::RunResult r = run({"analyze", bad});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("regscope: error: ocloc failed on " + bad + " for pvc (exit "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\n  " + bad + ":2:10: error: use of undeclared identifier 'b'\n  " + bad +
                       ":3:10: error: use of undeclared identifier 'c'"),
            std::string::npos)
      << r.err;
  // An option ocloc does not know is its error.
  const test::RunResult option = run({"analyze", kProbe, "--", "-ze-opt-auto-grf-mode"});
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_NE(option.err.find("Unrecognized build options: -ze-opt-auto-grf-mode"), std::string::npos) << option.err;
  // The user's files are untouched and alone.
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(src_->path())) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"bad.cl", "fake.spv"}));
}

}  // namespace
}  // namespace regscope
