// Intel collectors on real ocloc 22.43 output (fixtures/ocloc-22.43, made by
// fixtures/regenerate.sh) and on the hand-written newer-IGC forms
// (fixtures/ocloc-newer, see its README).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "regscope/backends/intel/collect.h"
#include "regscope/support/error.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using test::fixture;

const KernelFacts *findKernel(const std::vector<KernelFacts> &kernels, const std::string &name) {
  for (const KernelFacts &k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

std::vector<ShaderDumpFile> dumpFixture(const std::string &dir) {
  std::vector<ShaderDumpFile> files;
  for (const auto &entry : fs::directory_iterator(test::sourcePath("fixtures/" + dir)))
    files.push_back({entry.path().filename().string(), test::readText(entry.path().string())});
  return files;
}

struct Warning {
  const char *kernel;
  int simd, grf, spill;
};

void expectWarnings(const std::vector<KernelFacts> &kernels, const std::vector<Warning> &expected,
                    const std::string &arch) {
  ASSERT_EQ(kernels.size(), expected.size());
  for (const Warning &w : expected) {
    SCOPED_TRACE(w.kernel);
    const KernelFacts *k = findKernel(kernels, w.kernel);
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->vendor, Vendor::Intel);
    EXPECT_EQ(k->arch, arch);
    EXPECT_EQ(k->get(Field::SimdSize), w.simd);
    EXPECT_EQ(k->get(Field::GrfCount), w.grf);
    EXPECT_EQ(k->get(Field::SpillGrfs), w.spill);
  }
}

TEST(OclocLog, SpillWarningsOf2243InBothGrfModes) {
  expectWarnings(parseOclocLog(fixture("ocloc-22.43/probe.pvc.small.log"), "pvc"),
                 {{"spill_small_only", 32, 128, 28}, {"spill_both", 32, 128, 158}, {"spill_simd16", 16, 128, 17}},
                 "pvc");
  expectWarnings(parseOclocLog(fixture("ocloc-22.43/probe.pvc.large.log"), "pvc"), {{"spill_both", 32, 256, 28}},
                 "pvc");
  expectWarnings(parseOclocLog(fixture("ocloc-22.43/probe.dg2-g10.small.log"), "dg2-g10"),
                 {{"spill_small_only", 32, 128, 174}, {"spill_both", 32, 128, 430}, {"spill_simd16", 16, 128, 158}},
                 "dg2-g10");
}

TEST(OclocLog, EveryNewerFormAndTheTargetPrefix) {  // hand-written: fixtures/ocloc-newer/README.md
  const std::vector<KernelFacts> kernels = parseOclocLog(fixture("ocloc-newer/spill-warnings.log"), "pvc");
  ASSERT_EQ(kernels.size(), 4u);
  expectWarnings({*findKernel(kernels, "heavy")}, {{"heavy", 32, 128, 2}}, "pvc");
  expectWarnings({*findKernel(kernels, "launch_terms")}, {{"launch_terms", 32, 128, 2}}, "bmg-g21");
  expectWarnings({*findKernel(kernels, "_ZTSZ4mainEUlT_E0_")}, {{"_ZTSZ4mainEUlT_E0_", 32, 128, 396}}, "pvc");
  expectWarnings({*findKernel(kernels, "matmul_kernel")}, {{"matmul_kernel", 16, 128, 217}}, "pvc");
}

TEST(OclocLog, ErrorsAndOtherLinesGiveNoFacts) {
  for (const char *log :
       {"error.compile.log", "error.unknown-device.log", "error.unrecognized-option.log", "error.not-spirv.log"})
    EXPECT_TRUE(parseOclocLog(fixture(std::string("ocloc-22.43/") + log), "pvc").empty()) << log;
  EXPECT_TRUE(parseOclocLog("warning: kernel x compiled SIMD32 allocated many regs\n", "pvc").empty());
  EXPECT_TRUE(parseOclocLog("warning: in kernel 'x' compiled SIMD32 allocated 1 regs and spilled around 2\n", "pvc")
                  .empty());  // no "':"
}

TEST(ZeInfo, KernelsOfTheProbeInSmallGrfMode) {
  const std::vector<KernelFacts> kernels = parseZeInfo(fixture("ocloc-22.43/probe.pvc.small.ze_info.yaml"), "pvc");
  ASSERT_EQ(kernels.size(), 6u);
  for (const KernelFacts &k : kernels) {
    SCOPED_TRACE(k.name);
    EXPECT_EQ(k.vendor, Vendor::Intel);
    EXPECT_EQ(k.arch, "pvc");
    EXPECT_EQ(k.get(Field::GrfCount), 128);
    EXPECT_FALSE(k.get(Field::SpillBytes));    // 22.43 writes no spill_size
    EXPECT_FALSE(k.get(Field::PrivateBytes));  // nor private_size
    EXPECT_EQ(k.get(Field::GlobalPrivatePerThread), 0);
  }
  const KernelFacts *light = findKernel(kernels, "light");
  EXPECT_EQ(light->get(Field::SimdSize), 32);
  EXPECT_EQ(light->get(Field::ScratchPerThread), 0);
  EXPECT_FALSE(light->get(Field::SlmBytes));
  EXPECT_FALSE(light->get(Field::Barriers));
  const KernelFacts *slm = findKernel(kernels, "slm_transpose");
  EXPECT_EQ(slm->get(Field::SlmBytes), 4224);  // float[32][33]
  EXPECT_EQ(slm->get(Field::Barriers), 1);
  EXPECT_EQ(slm->get(Field::MaxWorkgroupSize), 256);  // required_work_group_size [32, 8, 1]
  EXPECT_EQ(findKernel(kernels, "spill_simd16")->get(Field::SimdSize), 16);
  // Scratch per hardware thread, rounded up by IGC: not the spill size.
  EXPECT_EQ(findKernel(kernels, "spill_small_only")->get(Field::ScratchPerThread), 2048);
  EXPECT_EQ(findKernel(kernels, "spill_both")->get(Field::ScratchPerThread), 16384);
  EXPECT_EQ(findKernel(kernels, "private_array")->get(Field::ScratchPerThread), 65536);  // 512 floats x 32 lanes
}

TEST(ZeInfo, LargeAndAutoGrfModes) {
  for (const KernelFacts &k : parseZeInfo(fixture("ocloc-22.43/probe.pvc.large.ze_info.yaml"), "pvc"))
    EXPECT_EQ(k.get(Field::GrfCount), 256) << k.name;
  // Auto: IGC picks 256 for the kernels that spill with 128, and 128 for the rest.
  const std::vector<KernelFacts> autos = parseZeInfo(fixture("ocloc-22.43/probe.pvc.auto.ze_info.yaml"), "pvc");
  const std::vector<KernelFacts> spills = parseOclocLog(fixture("ocloc-22.43/probe.pvc.small.log"), "pvc");
  ASSERT_EQ(autos.size(), 6u);
  for (const KernelFacts &k : autos)
    EXPECT_EQ(k.get(Field::GrfCount), findKernel(spills, k.name) ? 256 : 128) << k.name;
}

TEST(ZeInfo, NewerKeysAndMemoryBuffers) {  // hand-written: fixtures/ocloc-newer/README.md
  const std::vector<KernelFacts> kernels = parseZeInfo(fixture("ocloc-newer/newer.ze_info.yaml"), "pvc");
  ASSERT_EQ(kernels.size(), 2u);
  const KernelFacts &k = kernels[0];
  EXPECT_EQ(k.name, "stack_and_spill");
  EXPECT_EQ(k.get(Field::GrfCount), 256);
  EXPECT_EQ(k.get(Field::SimdSize), 16);
  EXPECT_EQ(k.get(Field::SlmBytes), 8192);
  EXPECT_EQ(k.get(Field::Barriers), 2);
  EXPECT_EQ(k.get(Field::HasStackCalls), 1);
  EXPECT_EQ(k.get(Field::PrivateBytes), 4096);
  EXPECT_EQ(k.get(Field::SpillBytes), 1536);
  EXPECT_EQ(k.get(Field::EuThreadCount), 4);
  EXPECT_EQ(k.get(Field::MaxWorkgroupSize), 256);
  EXPECT_EQ(k.get(Field::ScratchPerThread), 4096 + 2048);     // private_space and spill_fill_space slots
  EXPECT_EQ(k.get(Field::GlobalPrivatePerThread), 256 * 16);  // per work-item: x SIMD16
  EXPECT_EQ(kernels[1].name, "plain");
  EXPECT_FALSE(kernels[1].get(Field::HasStackCalls));
  EXPECT_EQ(kernels[1].get(Field::ScratchPerThread), 0);
}

TEST(ZeInfo, TheSymbolTablePseudoKernelIsNoKernel) {
  const std::vector<KernelFacts> kernels = parseZeInfo(fixture("ocloc-22.43/globals.pvc.small.ze_info.yaml"), "pvc");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_TRUE(findKernel(kernels, "scaled")->is_kernel);
  EXPECT_FALSE(findKernel(kernels, "Intel_Symbol_Table_Void_Program")->is_kernel);
  const std::vector<KernelRecord> records = mergeFacts({{"zebin", kernels}});
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].name, "scaled");
}

TEST(ZeInfo, RejectsWhatIsNotZeInfo) {
  EXPECT_THROW(parseZeInfo("kernels:\n  - name: x\n", "pvc"), Error);  // no version
  EXPECT_THROW(parseZeInfo("version: '1.20'\nkernels: [ {name: x\n", "pvc"), Error);
  try {
    parseZeInfo("version: '1.20'\nkernels: [ {name: x\n", "pvc");
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
}

TEST(Zebin, TheZeInfoSectionThroughLlvmsObjectLibrary) {
  const std::string zebin = fixture("ocloc-22.43/probe.pvc.small.zebin");
  // The same bytes llvm-objcopy-19 --dump-section .ze_info wrote.
  EXPECT_EQ(zeInfoSection(zebin), fixture("ocloc-22.43/probe.pvc.small.ze_info.yaml"));
  EXPECT_EQ(parseZebin(zebin, "pvc").size(), 6u);
}

TEST(Zebin, RejectsOtherFiles) {
  EXPECT_THROW(zeInfoSection("not an ELF file at all"), Error);
  try {
    zeInfoSection(fixture("hipcc-5.2.3/probe-gfx90a.hsaco"));
    FAIL() << "an AMDGPU code object is not a zebin";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("not for Intel GT"), std::string::npos) << e.what();
  }
}

TEST(ShaderDump, TheShippedRetryOfEachKernel) {
  const std::vector<KernelFacts> kernels = parseShaderDump(dumpFixture("ocloc-22.43/probe.pvc.small.dump"), "pvc");
  ASSERT_EQ(kernels.size(), 6u);
  // spill_small_only was compiled twice: 1536 bytes first, 1792 in the retry that ships.
  EXPECT_EQ(findKernel(kernels, "spill_small_only")->get(Field::SpillBytes), 1792);
  EXPECT_EQ(findKernel(kernels, "spill_both")->get(Field::SpillBytes), 10112);
  EXPECT_EQ(findKernel(kernels, "spill_simd16")->get(Field::SpillBytes), 1088);
  EXPECT_EQ(findKernel(kernels, "light")->get(Field::SpillBytes), 0);
  EXPECT_EQ(findKernel(kernels, "private_array")->get(Field::PrivateBytes), 65536);
  EXPECT_EQ(findKernel(kernels, "private_array")->get(Field::SpillBytes), 0);  // private memory is no spill
  for (const KernelFacts &k : kernels) EXPECT_EQ(k.get(Field::GrfCount), 128) << k.name;
  for (const KernelFacts &k : parseShaderDump(dumpFixture("ocloc-22.43/probe.pvc.large.dump"), "pvc"))
    EXPECT_EQ(k.get(Field::GrfCount), 256) << k.name;
}

// The warning's "spilled around N" is N GRFs: N x 64 bytes on PVC and N x 32
// on DG2 is exactly the dump's //.spill size of the compile that ships.
TEST(ShaderDump, TheWarningCountsGrfsExactly) {
  struct Case {
    const char *run;
    int grf_bytes;
  };
  for (const Case &c : {Case{"pvc.small", 64}, Case{"pvc.large", 64}, Case{"dg2-g10.small", 32}}) {
    SCOPED_TRACE(c.run);
    const std::string run = c.run;
    const std::vector<KernelFacts> dump = parseShaderDump(dumpFixture("ocloc-22.43/probe." + run + ".dump"), "x");
    const std::vector<KernelFacts> log = parseOclocLog(fixture("ocloc-22.43/probe." + run + ".log"), "x");
    ASSERT_FALSE(log.empty());
    for (const KernelFacts &k : dump) {
      const KernelFacts *warned = findKernel(log, k.name);
      EXPECT_EQ(k.get(Field::SpillBytes), warned ? *warned->get(Field::SpillGrfs) * c.grf_bytes : 0) << k.name;
    }
  }
}

OclocOutput probeRun() {
  OclocOutput out;
  out.log = fixture("ocloc-22.43/probe.pvc.small.log");
  out.zebin = fixture("ocloc-22.43/probe.pvc.small.zebin");
  out.shader_dump = dumpFixture("ocloc-22.43/probe.pvc.small.dump");
  out.version = "22.43.24595";
  return out;
}

TEST(CollectOcloc, OneRunsSourcesAgreeAndMerge) {
  const std::vector<KernelRecord> records = mergeFacts(collectOclocFacts(probeRun(), "pvc"));
  ASSERT_EQ(records.size(), 6u);
  for (const KernelRecord &r : records) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(r.vendor, Vendor::Intel);
    EXPECT_EQ(r.arch, "pvc");
    EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();  // the log, zebin and dump agree on GRF and SIMD
    EXPECT_EQ(r.sources, (std::vector<std::string>{"zebin", "ocloc log", "IGC dump"}));
    EXPECT_TRUE(r.has(Field::SpillGrfs));  // 0 for a kernel without a warning
  }
  auto record = [&](const std::string &name) {
    for (const KernelRecord &r : records)
      if (r.name == name) return r;
    return KernelRecord{};
  };
  EXPECT_EQ(record("light").value(Field::SpillGrfs), 0);
  EXPECT_EQ(record("spill_both").value(Field::SpillGrfs), 158);
  EXPECT_EQ(record("spill_both").value(Field::SpillBytes), 10112);
  EXPECT_EQ(record("slm_transpose").value(Field::SlmBytes), 4224);
}

// The run's records carry the target as their arch, the source's declaration
// lines (read through the reader, no I/O of the collector's own) and the
// ocloc version as the producer.
TEST(CollectOcloc, IntelRunFindsDeclarationLinesThroughTheReader) {
  const std::string source = test::sourcePath("fixtures/src/ocloc_probe.cl");
  std::vector<std::string> read;
  const SourceReader reader = [&](const std::string &path) -> std::optional<std::string> {
    read.push_back(path);
    return test::readText(path);
  };
  const CollectedRun run = collectIntelRun(probeRun(), "pvc:large-grf", source, reader);
  EXPECT_EQ(read, std::vector<std::string>{source});
  EXPECT_EQ(run.producer, "ocloc 22.43.24595");
  ASSERT_EQ(run.records.size(), 6u);
  std::map<std::string, int> lines;
  for (const KernelRecord &r : run.records) {
    EXPECT_EQ(r.arch, "pvc:large-grf");
    EXPECT_EQ(r.file, source);
    lines[r.name] = r.line;
  }
  EXPECT_EQ(lines["light"], 5);
  EXPECT_EQ(lines["slm_transpose"], 32);
  EXPECT_EQ(lines["private_array"], 42);
  EXPECT_EQ(lines["spill_both"], 0);  // declared through a macro: no `spill_both (` in the text
  // A SPIR-V module is not read as text.
  read.clear();
  const CollectedRun spirv =
      collectIntelRun(probeRun(), "pvc", test::sourcePath("fixtures/ocloc-22.43/probe.spv"), reader);
  EXPECT_TRUE(read.empty());
  for (const KernelRecord &r : spirv.records) EXPECT_EQ(r.line, 0) << r.name;
}

TEST(CollectOcloc, ErrorLinesOfEachFailure) {
  EXPECT_EQ(oclocErrorLines(fixture("ocloc-22.43/error.compile.log"), "dir/error.cl"),
            std::vector<std::string>{"dir/error.cl:2:10: error: use of undeclared identifier 'b'"});
  EXPECT_EQ(oclocErrorLines(fixture("ocloc-22.43/error.unrecognized-option.log"), "k.cl"),
            std::vector<std::string>{"Unrecognized build options: -ze-opt-auto-grf-mode"});
  EXPECT_EQ(oclocErrorLines(fixture("ocloc-22.43/error.unknown-device.log"), "k.cl"),
            std::vector<std::string>{"Error: Cannot get HW Info for device bogus."});
  EXPECT_EQ(oclocErrorLines(fixture("ocloc-22.43/error.not-spirv.log"), "k.spv"),
            std::vector<std::string>{"Warning : file does not look like spirv bitcode (wrong magic numbers)"});
  // At most three error lines; a header's own path stays.
  EXPECT_EQ(oclocErrorLines("1:1:1: error: a\n/x/h.h:2:3: error: b\n1:3:1: error: c\n1:4:1: error: d\n", "k.cl"),
            (std::vector<std::string>{"k.cl:1:1: error: a", "/x/h.h:2:3: error: b", "k.cl:3:1: error: c"}));
}

}  // namespace
}  // namespace regscope
