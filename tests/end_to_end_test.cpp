// The regscope binary against the installed hipcc. Skips, saying why, when
// no hipcc is installed.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "binary_test.h"
#include "regscope/driver/driver.h"
#include "regscope/support/process.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::runRegscope;

class EndToEnd : public test::BinaryWithHipcc {};

std::string kernel(const std::string &name) { return test::sourcePath("kernels/lbm/" + name + ".hip"); }

// Seed 000's table: VGPRs 102/100/96/94/96 and occupancy 4/4/5/5/5 on gfx90a.
// Debian's hipcc 5.2.3 reproduces them exactly; its SGPRs (98/94/94/90/82)
// differ from the post's ROCm 5.4 (98/98/94/86/78).
// The seed's occupancy is the compiler's remark, which counts registers per
// SIMD. The kernels have no launch bounds, so the compile (and, with no launch
// site, the model) assumes 1024-thread workgroups: 16 waves, 4 per SIMD. 94-96
// VGPRs allow 5 waves per SIMD = 20 slots per CU, which hold one whole
// workgroup: 4 waves/SIMD on the hardware (issue 22). With 256-thread
// workgroups (4 waves) 20 slots hold 5: the seed's 5.
// The SGPRs are checked for each compiler whose figures are recorded (a
// version-conditional assertion carries the values of every supported compiler,
// issue 26); any other compiler's SGPRs are unchecked, and the test says so (skipped).
TEST_F(EndToEnd, LbmVariantsReproduceTheSeedTable) {
  struct Expected {
    const char *file;
    int vgprs, waves, sgprs_hipcc523, sgprs_rocm54;
  };
  const Expected table[] = {{"lbm", 102, 4, 98, 98},
                            {"lbm_nopow", 100, 4, 94, 98},
                            {"lbm_rearrange", 96, 5, 94, 94},
                            {"lbm_restrict_g14", 94, 5, 90, 86},
                            {"lbm_restrict_g7", 96, 5, 82, 78}};
  std::string unchecked_sgprs;
  for (const Expected &e : table) {
    test::RunResult r = run({"analyze", kernel(e.file), "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json report = json::parse(r.out);
    EXPECT_EQ(report["schema_version"], "1.1");
    ASSERT_EQ(report["kernels"].size(), 1u) << e.file;
    const json &k = report["kernels"][0];
    EXPECT_EQ(k["arch"], "gfx90a");
    EXPECT_EQ(k["vgprs"], e.vgprs) << e.file;
    EXPECT_EQ(k["vgprs_total"], e.vgprs) << e.file;
    EXPECT_EQ(k["occupancy"]["waves_per_simd"], 4) << e.file;  // whole 1024-thread workgroups
    EXPECT_EQ(k["occupancy"]["compiler_reported"], e.waves) << e.file;
    EXPECT_EQ(k["occupancy"]["limiter"], "vgpr") << e.file;
    EXPECT_EQ(k["line"], 5) << e.file;  // the declaration, not the brace on line 19
    EXPECT_EQ(k["demangled"].get<std::string>().rfind("kernel(double*", 0), 0u);
    const std::string version = report["compiler"]["version"].get<std::string>();
    if (version.find("clang version 15.0.6") != std::string::npos)  // Debian's hipcc 5.2.3 (clang 15)
      EXPECT_EQ(k["sgprs"], e.sgprs_hipcc523) << e.file;
    else if (version.find("roc-5.4.") != std::string::npos)  // ROCm 5.4's clang, the post's compiler
      EXPECT_EQ(k["sgprs"], e.sgprs_rocm54) << e.file;
    else
      unchecked_sgprs = version;
    test::RunResult small = run({"analyze", kernel(e.file), "--block-size", "256", "--format", "json"});
    ASSERT_EQ(small.exit_code, 0) << small.err;
    EXPECT_EQ(json::parse(small.out)["kernels"][0]["occupancy"]["waves_per_simd"], e.waves) << e.file;
  }
  if (!unchecked_sgprs.empty())
    GTEST_SKIP() << "VGPRs and occupancy checked; SGPRs not: no figures recorded for '" << unchecked_sgprs << "'";
}

TEST_F(EndToEnd, TextTableNamesTheNextStep) {
  test::RunResult r = run({"analyze", kernel("lbm"), "--wide"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 1024-thread workgroups: 5 waves/SIMD would hold one workgroup, as 4 do; the
  // next step is two (8 waves/SIMD) at 512 / 8 = 64 VGPRs: 102 - 64 = 38 fewer,
  // and six granules of 16 SGPRs (96) where its 98 and the XNACK pair (100) take seven.
  EXPECT_NE(r.out.find("free 38 VGPRs + at most 96 SGPRs allocated (now 100) -> 8 waves/SIMD"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("lbm.hip:5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4/8"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\033["), std::string::npos) << "no colour when not a terminal";
}

TEST_F(EndToEnd, SeveralArchsInOneRunAndLdsExplanation) {
  test::RunResult r = run(
      {"analyze", test::sourcePath("fixtures/src/probe.hip"), "--offload-arch", "gfx90a,gfx908", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json report = json::parse(r.out);
  int gfx90a = 0, gfx908 = 0;
  for (const json &k : report["kernels"]) {
    (k["arch"] == "gfx90a" ? gfx90a : gfx908)++;
    if (k["name"] == "_Z9lds_heavyPf" && k["arch"] == "gfx90a") {
      EXPECT_EQ(k["lds_bytes"], 40960);
      EXPECT_EQ(k["occupancy"]["waves_per_simd"], 4);     // hardware: 16 waves over 4 SIMDs
      EXPECT_EQ(k["occupancy"]["compiler_reported"], 8);  // LLVM 15's figure
      EXPECT_EQ(k["occupancy"]["limiter"], "lds");
      EXPECT_NE(k["occupancy"]["explanation"].get<std::string>().find("LLVM 15"), std::string::npos);
    }
    if (k["name"] == "_Z10agpr_heavyPf" && k["arch"] == "gfx90a") {
      EXPECT_EQ(k["vgprs"], 70);
      EXPECT_EQ(k["agprs"], 64);
      EXPECT_EQ(k["vgprs_total"], 136);
      // LLVM 15 compiled it for 1024 threads and printed 3: 16 waves need 4 a SIMD, 136 VGPRs allow 3.
      EXPECT_EQ(k["occupancy"]["limiter"], "invalid");
      EXPECT_NE(k["occupancy"]["invalid_reason"].get<std::string>().find("never be resident"), std::string::npos);
    }
    EXPECT_NE(k["name"], "_Z3fibi") << "device functions are not kernels";
  }
  EXPECT_EQ(gfx90a, 5);
  EXPECT_EQ(gfx908, 5);
}

TEST_F(EndToEnd, ExtraCompilerFlagsAfterDashes) {
  TempDir src;
  std::ofstream(src.path() + "/k.hip") << "#include <hip/hip_runtime.h>\n"
                                          "#ifndef N\n#error N must be defined\n#endif\n"
                                          "__global__ void k(float *p) { p[threadIdx.x] = N; }\n";
  test::RunResult without = run({"analyze", src.path() + "/k.hip"});
  EXPECT_EQ(without.exit_code, 2);
  EXPECT_NE(without.err.find("N must be defined"), std::string::npos) << without.err;
  test::RunResult with = run({"analyze", src.path() + "/k.hip", "--", "-DN=64"});
  EXPECT_EQ(with.exit_code, 0) << with.err;
  EXPECT_NE(with.out.find("k(float*)"), std::string::npos);
}

TEST_F(EndToEnd, OutputFileIsWrittenAndInputsAreNeverOverwritten) {
  const std::string report = cwd_->path() + "/report.json";
  test::RunResult r = run({"analyze", kernel("lbm"), "--format", "json", "-o", report});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(test::readText(report))["kernels"][0]["vgprs"], 102);
  fs::remove(report);

  TempDir src;
  fs::copy_file(kernel("lbm"), src.path() + "/lbm.hip");
  const std::string before = test::readText(src.path() + "/lbm.hip");
  test::RunResult clobber = run({"analyze", src.path() + "/lbm.hip", "-o", src.path() + "/lbm.hip"});
  EXPECT_EQ(clobber.exit_code, 2);
  EXPECT_EQ(test::readText(src.path() + "/lbm.hip"), before);
}

TEST_F(EndToEnd, BadInputIsOneLineAndExitTwo) {
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  TempDir src;
  std::ofstream(src.path() + "/broken.hip") << "__global__ void k(float *p) { p[0] = undefined_name; }\n";
  const Case cases[] = {
      {{"analyze", "missing.hip"}, "missing.hip: no such file"},
      {{"analyze", src.path()}, "is a directory"},
      {{"analyze", src.path() + "/broken.hip"}, "undeclared identifier 'undefined_name'"},
      {{"analyze", kernel("lbm"), "--offload-arch", "gfx123"}, "known: gfx906"},
      {{"analyze", kernel("lbm"), "--compiler", "/no/hipcc"}, "compiler not found"},
      {{"analyze", kernel("lbm"), "--no-such-flag"}, "--no-such-flag"},
      {{"occupancy", "--arch", "gfx90a", "--vgprs", "999"}, "outside"},
      {{"table", "--arch", "nvidia"}, "unknown arch"},
  };
  for (const Case &c : cases) {
    test::RunResult r = run(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args[0] << " " << c.args[1];
    EXPECT_EQ(r.err.rfind("regscope: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST_F(EndToEnd, CtrlCRemovesTheTemporaryDirectory) {
  // Start a compile, interrupt it mid-way, expect exit 130 and nothing left.
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    setenv("TMPDIR", tmp_->path().c_str(), 1);
    setenv("XDG_CACHE_HOME", cache_->path().c_str(), 1);
    if (chdir(cwd_->path().c_str()) != 0) _exit(99);
    freopen("/dev/null", "w", stdout);
    freopen("/dev/null", "w", stderr);
    execl(REGSCOPE_BINARY, REGSCOPE_BINARY, "analyze", kernel("lbm").c_str(), (char *)nullptr);
    _exit(98);
  }
  // Wait until the compile has started (its temp dir exists), then interrupt.
  for (int i = 0; i < 200 && test::dirIsEmpty(tmp_->path()); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
}

TEST_F(EndToEnd, CalculatorAndTable) {
  test::RunResult occ = run({"occupancy", "--arch", "gfx90a", "--vgprs", "102", "--sgprs", "98", "--format", "json"});
  ASSERT_EQ(occ.exit_code, 0) << occ.err;
  json j = json::parse(occ.out);
  EXPECT_EQ(j["occupancy"]["waves_per_simd"], 4);
  // 1024-thread workgroups (the default): the next whole-workgroup step is two
  // workgroups, 8 waves/SIMD, at 64 VGPRs; at 256 threads it is 5 at 96 VGPRs.
  EXPECT_EQ(j["occupancy"]["next"]["vgprs_to_free"], 38);
  test::RunResult small = run(
      {"occupancy", "--arch", "gfx90a", "--vgprs", "102", "--sgprs", "98", "--block-size", "256", "--format", "json"});
  ASSERT_EQ(small.exit_code, 0) << small.err;
  EXPECT_EQ(json::parse(small.out)["occupancy"]["next"]["vgprs_to_free"], 6);

  test::RunResult table = run({"table", "--arch", "MI250X", "--format", "json"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  json t = json::parse(table.out);
  EXPECT_EQ(t["arch"], "gfx90a");
  EXPECT_EQ(t["rows"].size(), 8u);
  EXPECT_EQ(t["rows"][3]["max_vgprs"], 96);
  EXPECT_EQ(t["rows"][3]["waves_per_simd"], 5);
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

TEST_F(EndToEnd, GateThresholdsAndBaselineRegression) {
  TempDir src;
  const std::string k = src.path() + "/k.hip", base = src.path() + "/baseline.json";
  fs::copy_file(kernel("lbm_rearrange"), k);  // 96 VGPRs: 5 waves/SIMD at 256 threads (4 at 1024)
  // Launched in 256-thread workgroups (4 waves), whose 5 per SIMD are whole.
  const std::string bs = "--block-size=256";

  test::RunResult pass = run({"gate", k, bs, "--min-occupancy", "5", "--max-spills", "0"});
  EXPECT_EQ(pass.exit_code, 0) << pass.out << pass.err;
  EXPECT_NE(pass.out.find("pass, 0 failures in 1 kernel"), std::string::npos) << pass.out;

  test::RunResult fail = run({"gate", k, bs, "--min-occupancy", "6"});
  EXPECT_EQ(fail.exit_code, 1);
  EXPECT_NE(fail.out.find("k.hip:5: kernel(...) [gfx90a]: min-occupancy: occupancy 5 waves/SIMD < 6"),
            std::string::npos)
      << fail.out;
  EXPECT_EQ(run({"gate", k, bs, "--min-occupancy", "6", "--exit-zero"}).exit_code, 0);

  ASSERT_EQ(run({"baseline", k, bs, "-o", base}).exit_code, 0);
  const std::string recorded = test::readText(base);
  EXPECT_EQ(run({"gate", k, bs, "--baseline", base}).exit_code, 0);

  fs::copy_file(kernel("lbm"), k, fs::copy_options::overwrite_existing);  // 102 VGPRs, 4 waves
  test::RunResult regressed = run({"gate", k, bs, "--baseline", base, "--format", "json"});
  EXPECT_EQ(regressed.exit_code, 1);
  json verdict = json::parse(regressed.out);
  EXPECT_EQ(verdict["passed"], false);
  ASSERT_EQ(verdict["failures"].size(), 1u);
  EXPECT_EQ(verdict["failures"][0]["rule"], "occupancy-regression");
  const std::string message = verdict["failures"][0]["message"];
  EXPECT_EQ(message.rfind("occupancy 5 -> 4 waves/SIMD (registers ", 0), 0u) << message;  // and what cost it
  EXPECT_EQ(message.substr(message.size() - 8), " -> 102)") << message;
  EXPECT_EQ(test::readText(base), recorded) << "gate must not touch the baseline";

  EXPECT_EQ(run({"gate", k, bs, "--baseline", base, "--update-baseline"}).exit_code, 0);
  EXPECT_NE(test::readText(base).find("\"occupancy\": 4"), std::string::npos);
  EXPECT_EQ(run({"gate", k, bs, "--baseline", base}).exit_code, 0);
}

TEST_F(EndToEnd, GateBadInputsExitTwoAndTouchNothing) {
  TempDir src;
  const std::string broken = src.path() + "/broken.json";
  std::ofstream(broken) << "{\"regscope_baseline\": \"7.0\", \"kernels\": []}";
  test::RunResult r = run({"gate", kernel("lbm"), "--baseline", broken});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("baseline version 7.0 is not supported"), std::string::npos) << r.err;
  EXPECT_EQ(test::readText(broken), "{\"regscope_baseline\": \"7.0\", \"kernels\": []}");

  const std::string config = src.path() + "/cfg.json";
  std::ofstream(config) << "{\"defaults\": {\"min_occupancy\": 4}, \"colour\": true}";
  test::RunResult bad_config = run({"gate", kernel("lbm"), "--config", config});
  EXPECT_EQ(bad_config.exit_code, 2);
  EXPECT_NE(bad_config.err.find("unknown key 'colour'"), std::string::npos) << bad_config.err;

  EXPECT_EQ(run({"gate", kernel("lbm"), "--baseline", src.path() + "/none.json"}).exit_code, 2);
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

TEST_F(EndToEnd, CompileDatabaseRunKeepsGoingPastABrokenFile) {
  TempDir proj;
  const std::string p = proj.path();
  fs::create_directories(p + "/include");
  fs::create_directories(p + "/build");
  std::ofstream(p + "/include/scale.h") << "#define SCALE 3.0f\n";
  std::ofstream(p + "/a.hip") << "#include <hip/hip_runtime.h>\n#include \"scale.h\"\n"
                                 "__global__ void scale_kernel(float *q) { q[threadIdx.x] *= SCALE; }\n";
  std::ofstream(p + "/c.hip") << "__global__ void broken(float *q) { q[0] = nope; }\n";
  fs::copy_file(kernel("lbm"), p + "/b.hip");
  std::ofstream(p + "/build/compile_commands.json")
      << "[{\"directory\": \"" << p
      << "/build\", \"command\": \"hipcc -I../include -MD -MF a.d -c ../a.hip -o a.o\", \"file\": \"../a.hip\"},"
      << " {\"directory\": \"" << p
      << "/build\", \"command\": \"hipcc --offload-arch=gfx908 -c ../b.hip -o b.o\", \"file\": \"../b.hip\"},"
      << " {\"directory\": \"" << p << "/build\", \"command\": \"hipcc -c ../c.hip -o c.o\", \"file\": \"../c.hip\"}]";

  test::RunResult r = run({"analyze", "-p", p + "/build", "-j", "2", "--format", "json"});
  EXPECT_EQ(r.exit_code, 2) << "a broken file makes the run fail at the end";
  EXPECT_NE(r.err.find("use of undeclared identifier 'nope'"), std::string::npos) << r.err;
  json report = json::parse(r.out);
  ASSERT_EQ(report["kernels"].size(), 2u);
  EXPECT_EQ(report["kernels"][0]["demangled"], "scale_kernel(float*)");  // found scale.h via -I../include
  EXPECT_EQ(report["kernels"][0]["arch"], "gfx90a");
  EXPECT_EQ(report["kernels"][1]["arch"], "gfx908");  // the entry's own --offload-arch
  EXPECT_FALSE(fs::exists(p + "/build/a.d")) << "dependency files must not be written";
  EXPECT_FALSE(fs::exists(p + "/build/a.o"));
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

TEST_F(EndToEnd, CiFormatsAndColour) {
  test::RunResult github = run({"gate", kernel("lbm"), "--min-occupancy", "5", "--format", "github"});
  EXPECT_EQ(github.exit_code, 1);
  EXPECT_NE(github.out.find("::error file="), std::string::npos) << github.out;
  // CI formats carry the full signature: two instantiations never read alike.
  EXPECT_NE(github.out.find(",line=5,title=regscope min-occupancy::kernel(double*, double*,"), std::string::npos)
      << github.out;
  EXPECT_NE(github.out.find("double) [gfx90a]: occupancy 4"), std::string::npos) << github.out;

  test::RunResult junit = run({"analyze", kernel("lbm"), "--format", "junit"});
  EXPECT_EQ(junit.exit_code, 0);
  EXPECT_NE(junit.out.find("tests=\"1\" failures=\"0\""), std::string::npos) << junit.out;

  test::RunResult md = run({"analyze", kernel("lbm"), "--format", "markdown"});
  EXPECT_NE(md.out.find("| `kernel(double*, double*,"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("double)` | gfx90a |"), std::string::npos) << md.out;

  test::RunResult plain = run({"gate", kernel("lbm"), "--min-occupancy", "5"});
  EXPECT_EQ(plain.out.find("\033["), std::string::npos);
  test::RunResult forced = run({"gate", kernel("lbm"), "--min-occupancy", "5", "--color", "always"});
  EXPECT_NE(forced.out.find("\033[31m"), std::string::npos) << forced.out;

  EXPECT_EQ(run({"occupancy", "--vgprs", "10", "--format", "sarif"}).exit_code, 2);  // text/json only
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

TEST_F(EndToEnd, ResultCacheServesUnchangedSourcesAndMissesEdits) {
  TempDir src;
  const std::string k = src.path() + "/k.hip";
  fs::copy_file(kernel("lbm"), k);
  ASSERT_EQ(run({"analyze", k, "--format", "json"}).exit_code, 0);
  const fs::path dir = cache_->path() + "/regscope";
  ASSERT_TRUE(fs::is_directory(dir));
  std::vector<fs::path> entries(fs::directory_iterator(dir), fs::directory_iterator{});
  ASSERT_EQ(entries.size(), 1u);

  // Tamper with the cached VGPR count: the entry no longer matches its digest, so it is a miss
  // (recompiled), never served (issue 30: an edited cache entry never changes a figure).
  json entry = json::parse(test::readText(entries[0].string()));
  entry["records"][0]["values"]["vgprs"] = 7;  // values are stored by field key
  std::ofstream(entries[0]) << entry.dump();
  json hit = json::parse(run({"analyze", k, "--format", "json"}).out);
  EXPECT_EQ(hit["kernels"][0]["vgprs"], 102) << "an edited entry: recompiled";
  EXPECT_EQ(json::parse(run({"analyze", k, "--format", "json", "--no-cache"}).out)["kernels"][0]["vgprs"], 102);

  // Different flags are a different key; an edited source is a miss.
  EXPECT_EQ(json::parse(run({"analyze", k, "--format", "json", "--", "-DUNUSED=1"}).out)["kernels"][0]["vgprs"], 102);
  std::ofstream(k, std::ios::app) << "// edited\n";
  EXPECT_EQ(json::parse(run({"analyze", k, "--format", "json"}).out)["kernels"][0]["vgprs"], 102);
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

// A repository's layout: a header under include/ used by one of two sources
// under src/. A header-only change that adds scratch (a private array indexed
// at run time: 272 bytes/lane from hipcc 5.2.3 on gfx90a) must fail the gate
// through the source that includes it, and only through that one.
TEST_F(EndToEnd, AHeaderIsGatedThroughTheSourcesThatIncludeIt) {
  TempDir repo;
  fs::create_directories(repo.path() + "/.git");
  fs::create_directories(repo.path() + "/include");
  fs::create_directories(repo.path() + "/src");
  const std::string header = repo.path() + "/include/kern.h";
  std::ofstream(header) << "__device__ inline float pick(const float *a, int i) { return a[i] * 2.0f; }\n";
  std::ofstream(repo.path() + "/src/uses.hip")
      << "#include <hip/hip_runtime.h>\n#include \"../include/kern.h\"\n"
         "__global__ void uses(float *a, int i) { a[threadIdx.x] = pick(a, i); }\n";
  std::ofstream(repo.path() + "/src/other.hip")
      << "#include <hip/hip_runtime.h>\n__global__ void other(float *a) { a[threadIdx.x] += 1.0f; }\n";
  const std::string base = repo.path() + "/base.json";
  ASSERT_EQ(run({"baseline", repo.path() + "/src/uses.hip", repo.path() + "/src/other.hip", "-o", base}).exit_code, 0);
  const json recorded = json::parse(test::readText(base));
  EXPECT_EQ(recorded["regscope_baseline"], "1.5");
  EXPECT_EQ(recorded["dependencies"]["src/uses.hip"], json::array({"include/kern.h"}));
  EXPECT_EQ(recorded["dependencies"]["src/other.hip"], json::array());  // system headers are not the repository's

  test::RunResult same = run({"gate", header, "--baseline", base});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.err.find("include/kern.h: gated through the 1 source that includes it: src/uses.hip"),
            std::string::npos)
      << same.err;
  EXPECT_NE(same.out.find("in 1 kernel judged"), std::string::npos) << same.out;  // uses, not other

  std::ofstream(header) << "__device__ inline float pick(const float *a, int i) {\n"
                           "  float t[64];\n  for (int k = 0; k < 64; ++k) t[k] = a[k * i];\n  return t[i & 63];\n}\n";
  test::RunResult scratch = run({"gate", header, "--baseline", base, "--format", "json"});
  EXPECT_EQ(scratch.exit_code, 1) << scratch.out << scratch.err;
  const json verdict = json::parse(scratch.out);
  ASSERT_EQ(verdict["failures"].size(), 1u) << scratch.out;
  EXPECT_EQ(verdict["failures"][0]["rule"], "scratch-regression");
  EXPECT_EQ(verdict["failures"][0]["kernel"], "uses(float*, int)");

  // No baseline (or one without dependencies) and no database: nothing says
  // which kernels the header changes, so the gate refuses rather than passes.
  test::RunResult alone = run({"gate", header, "--max-scratch", "0"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("kern.h is a header: the gate judges it through the sources that include it"),
            std::string::npos)
      << alone.err;
  // A header no recorded source includes has no kernel to gate.
  std::ofstream(repo.path() + "/include/host_only.h") << "int host_only();\n";
  test::RunResult unused = run({"gate", repo.path() + "/include/host_only.h", "--baseline", base});
  EXPECT_EQ(unused.exit_code, 0) << unused.err;
  EXPECT_NE(unused.err.find("no source in the baseline includes it"), std::string::npos) << unused.err;
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

using test::haveNvcc;

// nvcc's own fatal line ("nvcc fatal   : Unknown option '--bogus-flag'", on
// stderr, without "error:") is what the user reads, never "the compiler said
// nothing".
TEST_F(EndToEnd, NvccsFatalLineIsShown) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc is not installed: CUDA end-to-end tests need CUDA's compiler";
  const std::string cu = test::sourcePath("fixtures/src/cuda_probe.cu");
  test::RunResult r = run({"analyze", cu, "--cuda-arch", "sm_90", "--no-cache", "--", "--bogus-flag"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nvcc fatal"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--bogus-flag"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("said nothing"), std::string::npos) << r.err;
}

TEST_F(EndToEnd, CudaSourcesWithNvcc) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc is not installed: CUDA end-to-end tests need CUDA's compiler";
  const std::string cu = test::sourcePath("fixtures/src/cuda_probe.cu");
  test::RunResult r = run({"analyze", cu, "--cuda-arch", "sm_80,sm_90", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json report = json::parse(r.out);
  EXPECT_EQ(report["kernels"].size(), 24u);
  bool saw = false;
  for (const json &k : report["kernels"]) {
    EXPECT_EQ(k["vendor"], "nvidia");
    if (k["name"] == "_Z15max_baseline_lbPKdS0_Pdi" && k["arch"] == "sm_90") {
      saw = true;
      EXPECT_EQ(k["line"], 59);
      EXPECT_EQ(k["occupancy"]["block_size"], 1024);  // from __launch_bounds__
      EXPECT_EQ(k["occupancy"]["block_size_source"], "launch_bounds");
      EXPECT_EQ(k["occupancy"]["blocks_per_sm"], 1);
      EXPECT_EQ(k["occupancy"]["max_warps_per_sm"], 64);
    }
  }
  EXPECT_TRUE(saw);

  // One arch: nvcc names the PTX differently; the launch bounds must still be read.
  test::RunResult single = run({"analyze", cu, "--cuda-arch", "sm_90", "--format", "json"});
  ASSERT_EQ(single.exit_code, 0) << single.err;
  const json single_report = json::parse(single.out);
  bool saw_bounds = false;
  for (const json &k : single_report["kernels"])
    if (k["name"] == "_Z18max_baseline_512x2PKdS0_Pdi") {
      saw_bounds = true;
      EXPECT_EQ(k["max_threads_per_block"], 512);
      EXPECT_EQ(k["min_blocks_per_sm"], 2);
      EXPECT_EQ(k["occupancy"]["block_size"], 512);
    }
  EXPECT_TRUE(saw_bounds);

  test::RunResult what_if = run(
      {"analyze", cu, "--cuda-arch", "sm_90", "--block-size", "128", "--dynamic-smem", "65536", "--format", "json"});
  ASSERT_EQ(what_if.exit_code, 0) << what_if.err;
  const json what_if_report = json::parse(what_if.out);
  EXPECT_EQ(what_if_report["kernels"].size(), 12u);
  for (const json &k : what_if_report["kernels"]) {
    EXPECT_EQ(k["occupancy"]["block_size"], 128);
    EXPECT_EQ(k["occupancy"]["dynamic_shared_bytes"], 65536);
  }

  // -rdc: the device link's figures are the final ones.
  test::RunResult rdc = run({"analyze", cu, "--cuda-arch", "sm_80", "--format", "json", "--", "-rdc=true"});
  ASSERT_EQ(rdc.exit_code, 0) << rdc.err;
  const json rdc_report = json::parse(rdc.out);
  EXPECT_EQ(rdc_report["kernels"].size(), 12u);
  for (const json &k : rdc_report["kernels"]) {
    EXPECT_EQ(k["sources"][0], "nvlink") << k["name"];
    if (k["name"] == "_Z10smem_heavyPKfPf") EXPECT_EQ(k["shared_bytes"], 12000);
  }

  // The gate works on CUDA kernels: spills are bytes of spill stores there.
  test::RunResult gate = run({"gate", cu, "--cuda-arch", "sm_80", "--max-spills", "0"});
  EXPECT_EQ(gate.exit_code, 1);
  EXPECT_NE(gate.out.find("spill_capped(float4 const*, float4*, int) [sm_80]: max-spills: spill stores 1068 bytes > 0"),
            std::string::npos)
      << gate.out;
}

TEST_F(EndToEnd, CudaBadInput) {
  TempDir src;
  std::ofstream(src.path() + "/bad.cu") << "__global__ void k(float *p) { p[0] = missing; }\n";
  test::RunResult unknown = run({"analyze", src.path() + "/bad.cu", "--cuda-arch", "sm_70"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown CUDA arch 'sm_70'; known: sm_75"), std::string::npos) << unknown.err;
  test::RunResult missing = run({"analyze", src.path() + "/bad.cu", "--cuda-arch", "sm_90", "--compiler", "/no/nvcc"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("compiler not found"), std::string::npos);
  if (!haveNvcc()) return;
  test::RunResult broken = run({"analyze", src.path() + "/bad.cu", "--cuda-arch", "sm_90"});
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_NE(broken.err.find("identifier \"missing\" is undefined"), std::string::npos) << broken.err;
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

TEST_F(EndToEnd, ReferenceKernels) {
  test::RunResult list = run({"kernels", "list", "--format", "json"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(json::parse(list.out)["cases"].size(), 22u);  // 20 HIP cases and ax.cl's two (Intel)

  // The LBM family keeps checking the seed's table, from any directory.
  test::RunResult lbm = run({"kernels", "analyze", "lbm", "--format", "json"});
  ASSERT_EQ(lbm.exit_code, 0) << lbm.err;
  std::vector<int> vgprs, waves;
  const json lbm_report = json::parse(lbm.out);
  for (const json &k : lbm_report["kernels"]) {
    vgprs.push_back(k["vgprs"]);
    waves.push_back(k["occupancy"]["waves_per_simd"]);
  }
  EXPECT_EQ(vgprs, (std::vector<int>{102, 100, 96, 94, 96})) << lbm.out << lbm.err;
  // No launch bounds, no launch site: 1024-thread workgroups, of which 5 waves/SIMD
  // (94-96 VGPRs) hold one, as 4 do (LbmVariantsReproduceTheSeedTable).
  EXPECT_EQ(waves, (std::vector<int>{4, 4, 4, 4, 4}));

  // One case of a many-kernel file.
  test::RunResult k5 = run({"kernels", "analyze", "laplacian_k5", "--format", "json"});
  ASSERT_EQ(k5.exit_code, 0) << k5.err;
  ASSERT_EQ(json::parse(k5.out)["kernels"].size(), 1u);
  EXPECT_EQ(json::parse(k5.out)["kernels"][0]["max_workgroup_size"], 256);  // __launch_bounds__(256)

  test::RunResult unknown = run({"kernels", "analyze", "nope"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("families: lbm, laplacian"), std::string::npos);

  if (!fs::exists("/dev/nvidiactl") && !fs::exists("/dev/kfd")) {
    test::RunResult norun = run({"kernels", "run"});
    EXPECT_EQ(norun.exit_code, 3);
    EXPECT_NE(norun.err.find("no GPU found"), std::string::npos) << norun.err;
    EXPECT_EQ(std::count(norun.err.begin(), norun.err.end(), '\n'), 1);
  }
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

TEST_F(EndToEnd, KernelsRunJoinsTheRunnerWithTheAnalysis) {
  if (!haveNvcc()) GTEST_SKIP() << "nvcc is not installed: the recorded H100 run names sm_90";
  // A stand-in runner that prints what the real one printed on the H100.
  TempDir fake;
  const std::string runner = fake.path() + "/runner";
  std::ofstream(runner) << "#!/bin/sh\ncat " << test::sourcePath("docs/h100/run.json") << "\n";
  fs::permissions(runner, fs::perms::owner_all);
  test::RunResult r = runRegscope({"kernels", "run", "laplacian", "--format", "json"}, cwd_->path(), tmp_->path(),
                                  cache_->path(), {"REGSCOPE_RUNNER=" + runner});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json run = json::parse(r.out);
  bool saw = false;
  for (const json &c : run["cases"])
    if (c["name"] == "laplacian_k5") {
      saw = true;
      EXPECT_EQ(c["registers"], 40);  // ptxas, sm_90, as regscope read it
      EXPECT_EQ(c["occupancy"], "48/64 warps/SM");
      EXPECT_TRUE(c["verified"].get<bool>());
    }
  EXPECT_TRUE(saw);
  // The stand-in prints every family; cases outside the selection get no figures.
  for (const json &c : run["cases"])
    if (c["family"] != "laplacian") EXPECT_FALSE(c.contains("registers")) << c["name"];
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

TEST_F(EndToEnd, Rdna2Wave32AndTheDeviceLibraryGap) {
  test::RunResult r = run(
      {"analyze", test::sourcePath("fixtures/src/probe.hip"), "--offload-arch", "gfx90a,gfx1030", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);
  int rdna = 0;
  for (const json &k : report["kernels"]) {
    if (k["arch"] != "gfx1030") continue;
    ++rdna;
    EXPECT_EQ(k["wave_size"], 32);
    EXPECT_EQ(k["occupancy"]["max_waves_per_simd"], 16);
    EXPECT_EQ(k["agprs"], 0);
    if (k["name"] == "_Z10agpr_heavyPf") {
      // 70 VGPRs -> 80 in wave32 granules: 12 waves/SIMD, as the compiler says; but 12 x 4
      // SIMDs = 48 wave slots of the WGP hold one 1024-thread workgroup (32 waves): 8.
      EXPECT_EQ(k["occupancy"]["compiler_reported"], 12);
      EXPECT_EQ(k["occupancy"]["waves_per_simd"], 8);
    } else if (k["name"] != "_Z9lds_heavyPf") {  // LLVM 15 differs only on the LDS term
      EXPECT_EQ(k["occupancy"]["waves_per_simd"], k["occupancy"]["compiler_reported"]) << k["name"];
    }
  }
  EXPECT_EQ(rdna, 5);

  // 40 KiB of dynamic LDS with 1024-thread workgroups: 4 waves, on a 12-VGPR kernel (the
  // launch's own 256 threads are read from the source; --block-size overrides them).
  const std::string bitonic = test::sourcePath("kernels/bitonic/bitonic.hip");
  test::RunResult lds = run({"analyze", bitonic, "--dynamic-lds", "40960", "--block-size", "1024", "--format", "json"});
  ASSERT_EQ(lds.exit_code, 0) << lds.err;
  const json lds_report = json::parse(lds.out);
  EXPECT_EQ(lds_report["kernels"][0]["occupancy"]["waves_per_simd"], 4);
  EXPECT_EQ(lds_report["kernels"][0]["occupancy"]["limiter"], "lds");
  // At the launch's own 256 threads, 40 KiB leaves room for one workgroup a CU: 1 wave/SIMD. The
  // launch is under #ifdef REGSCOPE_RUNNER: Clang's AST reads the file as its compile sees it.
  const json own = json::parse(
      run({"analyze", bitonic, "--dynamic-lds", "40960", "--format", "json", "--", "-DREGSCOPE_RUNNER"}).out);
  EXPECT_EQ(own["kernels"][0]["occupancy"]["waves_per_simd"], 1);
  EXPECT_EQ(own["kernels"][0]["occupancy"]["workgroup_size"], 256);
  EXPECT_EQ(own["kernels"][0]["occupancy"]["workgroup_size_source"], "launch_site");
  const json plain = json::parse(run({"analyze", bitonic, "--format", "json"}).out);
  EXPECT_EQ(plain["kernels"][0]["occupancy"]["waves_per_simd"], 8);

  test::RunResult missing = run({"analyze", kernel("lbm"), "--offload-arch", "gfx1100"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no bitcode for gfx"), std::string::npos) << missing.err;
}

// An arch regscope has a row for but the installed clang does not know
// (gfx942 under hipcc 5.2.3's clang 15: "invalid target ID 'gfx942'") fails
// alone, named; the file's other archs are still analysed.
TEST_F(EndToEnd, AnArchTheCompilerDoesNotKnowFailsAlone) {
  test::RunResult r = run({"analyze", kernel("lbm"), "--offload-arch", "gfx90a,gfx942", "--format", "json"});
  EXPECT_EQ(r.exit_code, 2);
  const json report = json::parse(r.out);
  ASSERT_FALSE(report["kernels"].empty());
  for (const json &k : report["kernels"]) EXPECT_EQ(k["arch"], "gfx90a");
  ASSERT_EQ(report["errors"].size(), 1u);
  EXPECT_EQ(report["errors"][0]["arch"], "gfx942");
  EXPECT_NE(report["errors"][0]["message"].get<std::string>().find("does not know the target gfx942"),
            std::string::npos);
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

TEST_F(EndToEnd, HiddenAgprSpillsOnGfx908) {
  test::RunResult r = run({"analyze", kernel("lbm"), "--offload-arch", "gfx908,gfx90a", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);
  ASSERT_EQ(report["kernels"].size(), 2u);
  for (const json &k : report["kernels"]) {
    if (k["arch"] == "gfx908") {
      EXPECT_TRUE(k["hidden_agpr_spills"].get<bool>());
      EXPECT_EQ(k["vgpr_spills"], 0);  // what the compiler says
      EXPECT_GT(k["agpr_copies"].get<int>(), 0);
      EXPECT_EQ(k["vgprs_total"], std::max(k["vgprs"].get<int>(), k["agprs"].get<int>()));
    } else {
      EXPECT_FALSE(k["hidden_agpr_spills"].get<bool>());  // gfx90a: no AGPRs used
    }
  }
  // --wide: the note whole on one line (at a width, notes wrap).
  test::RunResult text = run({"analyze", kernel("lbm"), "--offload-arch", "gfx908", "--wide"});
  EXPECT_NE(text.out.find("a spill the compiler reports as 0"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

// A .s that --save-temps left, and a host object with device code, named to
// baseline, gate and explain: read as they are (as parse reads them), never
// handed to hipcc as sources (which said "the compiler wrote no device assembly").
TEST_F(EndToEnd, BuildOutputsNamedToGateAndExplainAreReadNotCompiled) {
  TempDir in;
  fs::copy_file(test::sourcePath("fixtures/hipcc-5.2.3/probe-gfx90a.s"), in.path() + "/k.s");
  fs::copy_file(test::sourcePath("fixtures/hipcc-5.2.3/probe-host.o"), in.path() + "/k.o");
  const std::string base = in.path() + "/b.json";
  test::RunResult b = run({"baseline", in.path() + "/k.s", "-o", base});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  // agpr_heavy's 1024-thread workgroup can never be resident (136 VGPRs allow 3 waves a SIMD, it
  // needs 4): not recorded, and a failure of every gate whatever its thresholds.
  EXPECT_EQ(json::parse(test::readText(base))["kernels"].size(), 4u);
  EXPECT_NE(b.err.find("1 kernel that can never be resident not recorded"), std::string::npos) << b.err;
  auto failing = [](const json &gate) {
    std::vector<std::string> rules;
    for (const json &f : gate["failures"])
      rules.push_back(f["rule"].get<std::string>() + " " + f["kernel"].get<std::string>() + " " +
                      f["arch"].get<std::string>());
    return rules;
  };
  test::RunResult g = run({"gate", in.path() + "/k.s", "--baseline", base, "--format", "json"});
  EXPECT_EQ(g.exit_code, 1) << g.err;
  EXPECT_EQ(json::parse(g.out)["kernels_checked"], 5);
  EXPECT_EQ(failing(json::parse(g.out)), std::vector<std::string>{"cannot-launch agpr_heavy(float*) gfx90a"});
  test::RunResult o = run({"gate", in.path() + "/k.o", "--max-spills", "0", "--format", "json"});
  EXPECT_EQ(o.exit_code, 1) << o.err;
  EXPECT_EQ(json::parse(o.out)["kernels_checked"], 10);  // gfx90a and gfx908
  EXPECT_EQ(failing(json::parse(o.out)), (std::vector<std::string>{"cannot-launch agpr_heavy(float*) gfx908",
                                                                   "cannot-launch agpr_heavy(float*) gfx90a"}));
  test::RunResult e = run({"explain", in.path() + "/k.s", "--kernel", "capped", "--format", "json"});
  EXPECT_EQ(e.exit_code, 0) << e.err;
  EXPECT_EQ(e.err.find("no device assembly"), std::string::npos) << e.err;
}

// HeCBench's HIP benchmarks keep CUDA's names: hipcc compiles main.cu. With -p,
// a named .cu selects its database entry, whose hipcc command says it is HIP;
// it was refused as "a CUDA source" before the database was read.
TEST_F(EndToEnd, ANamedCuFileOfAHipccDatabaseEntryIsHip) {
  TempDir project;
  fs::copy_file(test::sourcePath("fixtures/src/probe.hip"), project.path() + "/main.cu");
  std::ofstream(project.path() + "/compile_commands.json")
      << json::array({{{"directory", project.path()},
                       {"arguments", {"hipcc", "-std=c++17", "-O3", "-c", "main.cu", "-o", "main.o"}},
                       {"file", "main.cu"}}})
             .dump();
  test::RunResult r = run({"analyze", "-p", project.path(), project.path() + "/main.cu", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["kernels"].size(), 5u);  // probe.hip's five kernels, on gfx90a
}

TEST_F(EndToEnd, ParseExistingArtifacts) {
  // A host object with two archs: same report, no compiler run.
  test::RunResult host = run({"parse", test::sourcePath("fixtures/hipcc-5.2.3/probe-host.o"), "--format", "json"});
  ASSERT_EQ(host.exit_code, 0) << host.err;
  const json report = json::parse(host.out);
  EXPECT_EQ(report["kernels"].size(), 10u);
  for (const json &k : report["kernels"])
    if (k["name"] == "_Z10agpr_heavyPf" && k["arch"] == "gfx90a") {
      EXPECT_TRUE(k["vgprs"].is_null());
      EXPECT_EQ(k["vgprs_total"], 136);
      EXPECT_EQ(k["occupancy"]["limiter"], "invalid");  // at 1024 threads: never resident (136 VGPRs allow 3)
    }

  // A .s file and a log give the LBM figures.
  test::RunResult s = run({"parse", test::sourcePath("fixtures/hipcc-5.2.3/lbm-gfx90a.s"), "--format", "json"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(json::parse(s.out)["kernels"][0]["occupancy"]["waves_per_simd"], 4);
  test::RunResult log = run({"parse", test::sourcePath("fixtures/hipcc-5.2.3/lbm.remarks-nosavetemps.txt"), "--arch",
                             "gfx90a", "--format", "json"});
  ASSERT_EQ(log.exit_code, 0) << log.err;
  EXPECT_EQ(json::parse(log.out)["kernels"][0]["vgprs"], 102);

  // An optimisation record names its arch in its file name.
  TempDir records;
  fs::copy_file(test::sourcePath("fixtures/hipcc-5.2.3/lbm-gfx908.opt.yaml"),
                records.path() + "/lbm-hip-amdgcn-amd-amdhsa-gfx908.opt.yaml");
  test::RunResult yaml =
      run({"parse", records.path() + "/lbm-hip-amdgcn-amd-amdhsa-gfx908.opt.yaml", "--format", "json"});
  ASSERT_EQ(yaml.exit_code, 0) << yaml.err;
  EXPECT_EQ(json::parse(yaml.out)["kernels"][0]["arch"], "gfx908");

  // Bad input: each one line, exit 2.
  TempDir src;
  std::ofstream(src.path() + "/empty.log") << "make: Nothing to be done for 'all'.\n";
  ASSERT_EQ(mkfifo((src.path() + "/pipe.s").c_str(), 0600), 0);
  ASSERT_EQ(mkfifo((src.path() + "/pipe.hip").c_str(), 0600), 0);
  std::ofstream(src.path() + "/garbage.s")
      << "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"\n\t.amdgpu_metadata\n---\nx: [\n";
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"parse", src.path() + "/empty.log", "--arch", "gfx90a"}, "no kernel-resource-usage remarks"},
      {{"parse", test::sourcePath("fixtures/hipcc-5.2.3/lbm.remarks.txt")}, "pass --arch"},
      {{"parse", src.path() + "/garbage.s"}, "malformed .amdgpu_metadata"},
      {{"parse", "/bin/true"}, "no AMDGPU kernels"},
      {{"parse", src.path() + "/missing.s"}, "no such file"},
      // A FIFO is named as one, never read (reading would wait for a writer) nor "no such file".
      {{"parse", src.path() + "/pipe.s"}, "pipe.s: is a FIFO (named pipe)"},
      {{"analyze", src.path() + "/pipe.hip"}, "pipe.hip: is a FIFO (named pipe)"},
      {{"gate", src.path() + "/pipe.hip", "--max-spills", "0"}, "pipe.hip: is a FIFO (named pipe)"},
  };
  for (const auto &[args, says] : cases) {
    test::RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args[1];
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

TEST_F(EndToEnd, Clang19AsTheCompiler) {
  const std::string clang19 = "/usr/lib/llvm-19/bin/clang++";
  if (!fs::exists(clang19)) GTEST_SKIP() << "clang-19 is not installed";
  test::RunResult r =
      run({"analyze", kernel("lbm"), "--compiler", clang19, "--offload-arch", "gfx90a,gfx1030", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);
  EXPECT_NE(report["compiler"]["version"].get<std::string>().find("clang version 19"), std::string::npos);
  ASSERT_EQ(report["kernels"].size(), 2u);
  for (const json &k : report["kernels"]) {
    EXPECT_EQ(k["sources"], (json{".s", "remarks"}));  // the per-arch optimisation records, as with hipcc
    EXPECT_EQ(k["line"], 5);
    EXPECT_GT(k["vgprs_total"].get<int>(), 0);
  }
  test::RunResult missing = run({"analyze", kernel("lbm"), "--compiler", clang19, "--offload-arch", "gfx942"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no bitcode for gfx"), std::string::npos) << missing.err;
  test::RunResult nogpulib = run({"analyze", kernel("lbm"), "--compiler", clang19, "--", "-nogpulib"});
  EXPECT_EQ(nogpulib.exit_code, 2);
  EXPECT_NE(nogpulib.err.find("refusing -nogpulib"), std::string::npos) << nogpulib.err;
}

// Launch facts are read, or are unknown (issue 30): HIP-Examples' Histogram in
// small (fixtures/src/launch_sizes.hip, hand-written) passes a runtime product
// of dynamic LDS: its occupancy is unknown, named by the launch's line and the
// flag, until --dynamic-lds gives it; mmmKernel's dim3(blockSize, blockSize)
// with blockSize assigned once is read (64); sizeof(unsigned int) counts 4 and
// a launch's own constant wins over hipFuncSetAttribute's maximum.
TEST_F(EndToEnd, LaunchSizesAreReadOrUnknownByTheirLine) {
  const std::string src = test::sourcePath("fixtures/src/launch_sizes.hip");
  test::RunResult r = run({"analyze", src, "--offload-arch", "gfx90a", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, json> by_name;
  const json report = json::parse(r.out);  // held: a range over a temporary's member would dangle
  for (const json &k : report["kernels"]) by_name[k["name"].get<std::string>()] = k;
  auto occupancy = [&](const std::string &name) {
    for (const auto &[mangled, k] : by_name)
      if (mangled.find(name) != std::string::npos) return k["occupancy"];
    ADD_FAILURE() << name << " not reported: " << r.out;
    return json();
  };
  const json histogram = occupancy("histogram_like");
  EXPECT_EQ(histogram["limiter"], "unknown") << histogram;
  EXPECT_NE(histogram["dynamic_lds_unread_at"].get<std::string>().find("launch_sizes.hip:28"), std::string::npos);
  const json tiled = occupancy("tiled");
  EXPECT_EQ(tiled["workgroup_size"], 64) << tiled;
  EXPECT_EQ(tiled["workgroup_size_source"], "launch_site");
  EXPECT_TRUE(tiled["block_size_unread_at"].is_null());
  const json counted = occupancy("counted");
  EXPECT_EQ(counted["dynamic_lds_bytes"], 1024) << counted;
  EXPECT_EQ(counted["dynamic_lds_source"], "launch_site");

  test::RunResult text = run({"analyze", src, "--offload-arch", "gfx90a", "--wide"});  // notes unwrapped
  EXPECT_NE(text.out.find("launch_sizes.hip:28 passes dynamic shared memory (LDS) regscope cannot evaluate: give "
                          "the bytes with --dynamic-lds"),
            std::string::npos)
      << text.out;

  // The gate cannot judge it, and says so with exit 2, until the size is given.
  test::RunResult gate = run({"gate", src, "--offload-arch", "gfx90a", "--min-occupancy", "1"});
  EXPECT_EQ(gate.exit_code, 2) << gate.out << gate.err;
  EXPECT_NE((gate.out + gate.err).find("cannot judge kernel histogram_like"), std::string::npos) << gate.err;
  EXPECT_EQ(run({"gate", src, "--offload-arch", "gfx90a", "--min-occupancy", "1", "--allow-unknown"}).exit_code, 0);
  test::RunResult given = run({"analyze", src, "--offload-arch", "gfx90a", "--format", "json", "--block-size", "128",
                               "--dynamic-lds", "32768"});
  ASSERT_EQ(given.exit_code, 0) << given.err;
  const json given_report = json::parse(given.out);
  int histograms = 0;
  for (const json &k : given_report["kernels"])
    if (k["name"].get<std::string>().find("histogram_like") != std::string::npos) {
      ++histograms;
      EXPECT_EQ(k["occupancy"]["waves_per_simd"], 1) << k;  // 32 KiB of 64 KiB: two workgroups of 2 waves per CU
      EXPECT_EQ(k["occupancy"]["limiter"], "lds") << k;
    }
  EXPECT_EQ(histograms, 1);
}

// HIP-Examples' MatrixMultiplication and Histogram, real code (fixtures/src/hip-examples), read
// through Clang's AST. mmmKernel's dim3(blockSize, blockSize), the member blockSize set once to 8,
// is 64 threads (the lexer called it unknown and 1024 was assumed: 4/8), and the pointer a
// command-line option holds to blockSize is said. Histogram's groupSize * binSize, private members
// of a class the file implements, is read: 32 KiB at 128 threads, 1/8 (the lexer: unknown, until
// --block-size 128 --dynamic-lds 32768 gave the same 1/8).
TEST_F(EndToEnd, LaunchAstReadsMmmKernelAndSaysWhatItAssumed) {
  const std::string mm = test::sourcePath("fixtures/src/hip-examples/MatrixMultiplication/MatrixMultiplication.cpp");
  test::RunResult r = run({"analyze", mm, "--offload-arch", "gfx90a", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);
  ASSERT_EQ(report["kernels"].size(), 1u) << r.out;
  const json occupancy = report["kernels"][0]["occupancy"];
  EXPECT_EQ(occupancy["workgroup_size"], 64) << occupancy;
  EXPECT_EQ(occupancy["workgroup_size_source"], "launch_site");
  EXPECT_TRUE(occupancy["block_size_unread_at"].is_null());
  EXPECT_EQ(occupancy["waves_per_simd"], 7) << occupancy;
  EXPECT_NE(report["notes"].dump().find("its address is taken at line 421"), std::string::npos) << report["notes"];

  const std::string histogram = test::sourcePath("fixtures/src/hip-examples/Histogram/Histogram.cpp");
  const json read = json::parse(run({"analyze", histogram, "--offload-arch", "gfx90a", "--format", "json"}).out);
  const json histogram_occupancy = read["kernels"][0]["occupancy"];
  EXPECT_EQ(histogram_occupancy["dynamic_lds_bytes"], 32768) << read;
  EXPECT_EQ(histogram_occupancy["dynamic_lds_source"], "launch_site");
  EXPECT_EQ(histogram_occupancy["workgroup_size"], 128);
  EXPECT_EQ(histogram_occupancy["waves_per_simd"], 1);
  const json given = json::parse(run({"analyze", histogram, "--offload-arch", "gfx90a", "--format", "json",
                                      "--block-size", "128", "--dynamic-lds", "32768"})
                                     .out);
  EXPECT_EQ(given["kernels"][0]["occupancy"]["waves_per_simd"], 1) << given;
  EXPECT_EQ(given["kernels"][0]["occupancy"]["limiter"], "lds");
}

}  // namespace
}  // namespace regscope
