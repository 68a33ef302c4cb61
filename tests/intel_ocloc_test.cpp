// The Intel driver and collector on the installed ocloc, in both GRF modes,
// checked against what ocloc printed and what the zebin says (read here by
// simple scans of their text, not by regscope's parsers), SPIR-V input,
// includes, and bad input. Skips without ocloc (Debian: intel-opencl-icd).
// The regscope binary's Intel runs are in intel_end_to_end_test.cpp.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "ocloc_text.h"
#include "regscope/backends/intel/collect.h"
#include "regscope/backends/intel/intel_occupancy.h"
#include "regscope/backends/intel/ocloc.h"
#include "regscope/support/error.h"
#include "regscope/target/intel.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> listing(const fs::path &dir) {
  std::vector<std::string> names;
  for (const auto &entry : fs::recursive_directory_iterator(dir)) names.push_back(entry.path().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A scratch directory for sources, a private $TMPDIR and a working directory,
// which must both be empty again after every run: ocloc and regscope leave
// nothing behind.
class Ocloc : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      compiler_ = findOcloc("");
    } catch (const Error &) {
      GTEST_SKIP() << "ocloc is not installed (Debian: intel-opencl-icd): Intel end-to-end tests need it";
    }
    std::string pattern = (fs::temp_directory_path() / "regscope-intel-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    scratch_ = pattern;
    fs::create_directories(scratch_ / "src");
    fs::create_directories(scratch_ / "tmp");
    fs::create_directories(scratch_ / "cwd");
    if (const char *old = std::getenv("TMPDIR")) old_tmpdir_ = old;
    setenv("TMPDIR", (scratch_ / "tmp").c_str(), 1);
    old_cwd_ = fs::current_path();
    fs::current_path(scratch_ / "cwd");
  }

  void TearDown() override {
    if (scratch_.empty()) return;
    if (old_tmpdir_)
      setenv("TMPDIR", old_tmpdir_->c_str(), 1);
    else
      unsetenv("TMPDIR");
    fs::current_path(old_cwd_);
    EXPECT_TRUE(fs::is_empty(scratch_ / "tmp")) << "left behind in $TMPDIR";
    EXPECT_TRUE(fs::is_empty(scratch_ / "cwd")) << "left behind in the working directory";
    fs::remove_all(scratch_);
  }

  std::string writeSource(const std::string &name, const std::string &text) {
    const fs::path path = scratch_ / "src" / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }

  OclocJob job(const std::string &source, const std::string &device = "pvc", GrfMode mode = GrfMode::Small) const {
    OclocJob j;
    j.compiler = compiler_;
    j.source = source;
    j.device = device;
    if (*grfModeOption(mode)) j.options.push_back(grfModeOption(mode));
    return j;
  }

  std::string compiler_;
  fs::path scratch_;
  std::optional<std::string> old_tmpdir_;
  fs::path old_cwd_;
};

const KernelRecord *findRecord(const std::vector<KernelRecord> &records, const std::string &name) {
  for (const KernelRecord &r : records)
    if (r.name == name) return &r;
  return nullptr;
}

TEST_F(Ocloc, ProbeInBothGrfModesAsOclocPrintedAndTheZebinSays) {
  const std::set<std::string> spilling[2] = {{"spill_small_only", "spill_both", "spill_simd16"}, {"spill_both"}};
  const GrfMode modes[2] = {GrfMode::Small, GrfMode::Large};
  for (int mode = 0; mode < 2; ++mode) {
    SCOPED_TRACE(grfModeName(modes[mode]));
    OclocJob probe = job(test::sourcePath("fixtures/src/ocloc_probe.cl"), "pvc", modes[mode]);
    probe.shader_dump = true;
    const OclocOutput out = compileOcloc(probe);
    ASSERT_EQ(out.exit_code, 0) << out.log;
    EXPECT_FALSE(out.shader_dump.empty());
    EXPECT_FALSE(out.version.empty());
    const std::vector<KernelRecord> records = mergeFacts(collectOclocFacts(out, "pvc"));
    const std::map<std::string, test::Printed> printed = test::printedWarnings(out.log);
    const auto zebin = test::zebinSays(zeInfoSection(out.zebin));
    ASSERT_EQ(records.size(), 6u);
    ASSERT_EQ(zebin.size(), 6u);
    std::set<std::string> spilled;
    for (const KernelRecord &r : records) {
      SCOPED_TRACE(r.name);
      EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
      EXPECT_EQ(r.value(Field::GrfCount), mode == 0 ? 128 : 256);
      EXPECT_EQ(r.value(Field::GrfCount), zebin.at(r.name).first);
      EXPECT_EQ(r.value(Field::SimdSize), zebin.at(r.name).second);
      if (auto it = printed.find(r.name); it != printed.end()) {
        EXPECT_EQ(r.value(Field::SpillGrfs), it->second.spill);
        EXPECT_EQ(r.value(Field::GrfCount), it->second.grf);
        EXPECT_EQ(r.value(Field::SimdSize), it->second.simd);
        spilled.insert(r.name);
      } else {
        EXPECT_EQ(r.value(Field::SpillGrfs), 0);
      }
      EXPECT_EQ(r.value(Field::SpillBytes), r.value(Field::SpillGrfs) * 64);  // the dump's bytes: 64-byte GRFs
    }
    EXPECT_EQ(spilled, spilling[mode]);
    EXPECT_EQ(findRecord(records, "spill_simd16")->value(Field::SimdSize), 16);
    EXPECT_EQ(findRecord(records, "slm_transpose")->value(Field::SlmBytes), 4224);
  }
}

// Seed 002's trade on kernels/unroll/ax.cl: unrolling the contraction spills
// with 128 GRF; 256 GRF removes the spills and halves the threads per EU,
// and with them the work-groups an Xe-core holds.
TEST_F(Ocloc, ReferenceAxShowsTheSeedsTrade) {
  const IntelDevice &pvc = *findIntelDevice("pvc");
  const std::string ax = test::sourcePath("kernels/unroll/ax.cl");
  const OclocOutput small_run = compileOcloc(job(ax)), large_run = compileOcloc(job(ax, "pvc", GrfMode::Large));
  ASSERT_EQ(small_run.exit_code, 0) << small_run.log;
  ASSERT_EQ(large_run.exit_code, 0) << large_run.log;
  const std::vector<KernelRecord> small = mergeFacts(collectOclocFacts(small_run, "pvc"));
  const std::vector<KernelRecord> large = mergeFacts(collectOclocFacts(large_run, "pvc:large-grf"));
  const KernelRecord *rolled = findRecord(small, "ax_rolled"), *unrolled = findRecord(small, "ax_unrolled");
  const KernelRecord *unrolled_large = findRecord(large, "ax_unrolled");
  ASSERT_TRUE(rolled && unrolled && unrolled_large);
  EXPECT_EQ(rolled->value(Field::SpillGrfs), 0);
  EXPECT_GT(unrolled->value(Field::SpillGrfs), 0);
  EXPECT_EQ(unrolled_large->value(Field::SpillGrfs), 0);
  EXPECT_EQ(findRecord(large, "ax_rolled")->value(Field::SpillGrfs), 0);
  EXPECT_EQ(recommendGrfMode(pvc, intelSpillBytes(pvc, *rolled)).mode, GrfMode::Small);
  EXPECT_EQ(recommendGrfMode(pvc, intelSpillBytes(pvc, *unrolled)).mode, GrfMode::Large);
  auto occupancy = [&](const KernelRecord &r) {
    return computeIntelOccupancy(
        pvc, {static_cast<int>(r.value(Field::GrfCount)), static_cast<int>(r.value(Field::SimdSize)),
              static_cast<int>(r.value(Field::MaxWorkgroupSize)), static_cast<int>(r.value(Field::SlmBytes)),
              static_cast<int>(r.value(Field::Barriers))});
  };
  const IntelOccupancy o_small = occupancy(*unrolled), o_large = occupancy(*unrolled_large);
  EXPECT_EQ(o_small.threads_per_eu, 8);
  EXPECT_EQ(o_large.threads_per_eu, 4);
  EXPECT_GT(o_small.threads_per_xe_core, o_large.threads_per_xe_core);
}

TEST_F(Ocloc, SpirvInputGivesTheSameKernels) {
  const OclocOutput from_cl = compileOcloc(job(test::sourcePath("fixtures/src/ocloc_probe.cl")));
  const OclocOutput from_spv = compileOcloc(job(test::sourcePath("fixtures/ocloc-22.43/probe.spv")));
  ASSERT_EQ(from_spv.exit_code, 0) << from_spv.log;
  EXPECT_NE(std::find(from_spv.argv.begin(), from_spv.argv.end(), "-spirv_input"), from_spv.argv.end());
  const std::vector<KernelRecord> a = mergeFacts(collectOclocFacts(from_cl, "pvc"));
  const std::vector<KernelRecord> b = mergeFacts(collectOclocFacts(from_spv, "pvc"));
  ASSERT_EQ(a.size(), b.size());
  for (const KernelRecord &r : a) {
    const KernelRecord *same = findRecord(b, r.name);
    ASSERT_NE(same, nullptr) << r.name;
    for (Field f : {Field::GrfCount, Field::SimdSize, Field::SpillGrfs, Field::SlmBytes, Field::ScratchPerThread})
      EXPECT_EQ(r.value(f), same->value(f)) << r.name << " " << fieldKey(f);
  }
}

// Quoted includes beside the source and under -I are found, and listed as
// dependencies for the result cache (ocloc writes no dependency file).
TEST_F(Ocloc, QuotedIncludesBesideTheSourceAreItsDependencies) {
  const std::string scale = writeSource("scale.h", "#include <more.h>\n#define SCALE 3.0f * MORE\n");
  fs::create_directories(scratch_ / "src" / "inc");
  const std::string more = writeSource("inc/more.h", "#define MORE 2.0f\n");
  const std::string source = writeSource("inc.cl",
                                         "#include \"scale.h\"\n#if 0\n  #  include \"missing.h\"\n#endif\n"
                                         "__kernel void k(__global float *a) {\n"
                                         "  a[get_global_id(0)] *= SCALE;\n}\n");
  OclocJob j = job(source);
  j.options = {"-I", (scratch_ / "src" / "inc").string()};
  const OclocOutput out = compileOcloc(j);
  EXPECT_EQ(out.exit_code, 0) << out.log;
  EXPECT_EQ(out.dependencies, (std::vector<std::string>{source, scale, more}));
  EXPECT_EQ(listing(scratch_ / "src").size(), 4u);  // the user's files, untouched and alone
}

TEST_F(Ocloc, DevicesFromOclocsOwnHelp) {
  const std::vector<std::string> devices = oclocDevices(compiler_);
  for (const char *name : {"pvc", "dg2-g10", "acm-g10", "tgllp"})
    EXPECT_NE(std::find(devices.begin(), devices.end(), name), devices.end()) << name;
  EXPECT_EQ(std::find(devices.begin(), devices.end(), "version"), devices.end());
}

void expectOneLine(const std::string &message, const std::string &part) {
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find(part), std::string::npos) << message;
}

TEST_F(Ocloc, FailuresComeBackWithTheirLog) {
  const OclocOutput unknown = compileOcloc(job(test::sourcePath("fixtures/src/ocloc_probe.cl"), "bogus"));
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_TRUE(unknown.zebin.empty());
  EXPECT_EQ(oclocErrorLines(unknown.log, "x"), std::vector<std::string>{"Error: Cannot get HW Info for device bogus."});

  const std::string source =
      writeSource("error.cl", "__kernel void e(__global float *a) {\n  a[0] = b;\n  a[1] = c;\n}\n");
  const OclocOutput failed = compileOcloc(job(source));
  EXPECT_NE(failed.exit_code, 0);
  EXPECT_EQ(oclocErrorLines(failed.log, source),
            (std::vector<std::string>{source + ":2:10: error: use of undeclared identifier 'b'",
                                      source + ":3:10: error: use of undeclared identifier 'c'"}));
  EXPECT_EQ(listing(scratch_ / "src").size(), 1u);

  OclocJob bad = job(test::sourcePath("fixtures/src/ocloc_probe.cl"));
  bad.options = {"-ze-opt-auto-grf-mode"};
  const OclocOutput option = compileOcloc(bad);
  EXPECT_NE(option.exit_code, 0);
  EXPECT_EQ(oclocErrorLines(option.log, "x"),
            std::vector<std::string>{"Unrecognized build options: -ze-opt-auto-grf-mode"});
}

TEST_F(Ocloc, SpvThatIsNotSpirvAndMissingFiles) {
  const std::string fake = writeSource("fake.spv", "__kernel void k() {}\n");
  try {
    compileOcloc(job(fake));
    FAIL() << "a text file named .spv was accepted";
  } catch (const Error &e) {
    expectOneLine(e.what(), "not a SPIR-V module");
  }
  try {
    compileOcloc(job((scratch_ / "src" / "missing.cl").string()));
    FAIL() << "a missing file was accepted";
  } catch (const Error &e) {
    expectOneLine(e.what(), "missing.cl: no such file");
  }
}

TEST(OclocMissing, FindOclocNamesThePackage) {
  const char *old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  setenv("PATH", "/nonexistent-regscope-test-dir", 1);
  std::string message;
  try {
    findOcloc("");
  } catch (const Error &e) {
    message = e.what();
  }
  setenv("PATH", saved.c_str(), 1);
  expectOneLine(message, "intel-opencl-icd");
  EXPECT_THROW(findOcloc("/nonexistent-regscope-test-dir/ocloc"), Error);
}

}  // namespace
}  // namespace regscope
