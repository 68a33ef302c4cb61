// The cheap compile (CompileDepth::DeviceAsm: hipcc/clang -S, nvcc --fatbin)
// gives every figure that the full compile (--save-temps -c; nvcc -c with host
// code) gives: the same kernels with the same values, sources, lines and
// warnings, for every reference kernel and fixture source, one and several
// archs, LLVM 15 and 19, and -fgpu-rdc / -rdc=true.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "regscope/backends/amd/collect.h"
#include "regscope/backends/amd/driver.h"
#include "regscope/backends/nvidia/collect.h"
#include "regscope/backends/nvidia/driver.h"
#include "regscope/collect/collect.h"
#include "regscope/driver/driver.h"
#include "regscope/support/files.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> readSourceFile(const std::string &path) { return readFileIfExists(path); }

struct Outcome {
  int exit_code = 0;
  std::size_t archs = 0;
  CollectedRun run;
};

Outcome compileAt(CompileJob job, CompileDepth depth, bool cuda) {
  job.depth = depth;
  const CompileOutput output = cuda ? compileCuda(job) : compileHip(job);
  Outcome outcome;
  outcome.exit_code = output.exit_code;
  outcome.archs = output.archs.size();
  if (output.exit_code == 0 && !output.archs.empty())
    outcome.run =
        cuda ? collectCudaRun(output, job.source, readSourceFile) : collectAmdRun(output, job.source, readSourceFile);
  return outcome;
}

std::string describe(const KernelRecord &r) { return r.name + " [" + r.arch + "]"; }

// Compiles `job` both ways and checks that the records agree in everything.
// Returns how many kernel records were compared.
std::size_t expectSameFigures(const CompileJob &job, bool cuda) {
  const Outcome full = compileAt(job, CompileDepth::Full, cuda);
  const Outcome cheap = compileAt(job, CompileDepth::DeviceAsm, cuda);
  const std::string what = job.source + " (" + std::to_string(job.archs.size()) + " arch(s))";
  EXPECT_EQ(full.exit_code, 0) << what;
  EXPECT_EQ(cheap.exit_code, full.exit_code) << what;
  EXPECT_EQ(cheap.archs, full.archs) << what;
  EXPECT_EQ(cheap.run.producer, full.run.producer) << what;
  const std::vector<KernelRecord> &a = full.run.records, &b = cheap.run.records;
  EXPECT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    const std::string who = what + ": " + describe(a[i]);
    EXPECT_EQ(a[i].name, b[i].name) << who;
    EXPECT_EQ(a[i].arch, b[i].arch) << who;
    EXPECT_EQ(a[i].demangled, b[i].demangled) << who;
    EXPECT_EQ(a[i].file, b[i].file) << who;
    EXPECT_EQ(a[i].line, b[i].line) << who;
    EXPECT_EQ(a[i].sources, b[i].sources) << who;
    EXPECT_EQ(a[i].warnings, b[i].warnings) << who;
    EXPECT_EQ(a[i].unresolved, b[i].unresolved) << who;
    for (std::size_t f = 0; f < kFieldCount; ++f)
      EXPECT_EQ(a[i].values[f], b[i].values[f]) << who << ": " << fieldTable()[f].key;
  }
  return a.size();
}

std::vector<std::string> referenceHipSources() {
  std::vector<std::string> files;
  for (const fs::directory_entry &e : fs::recursive_directory_iterator(test::sourcePath("kernels")))
    if (e.path().extension() == ".hip") files.push_back(e.path().string());
  files.push_back(test::sourcePath("fixtures/src/probe.hip"));
  std::sort(files.begin(), files.end());
  return files;
}

CompileJob hipJob(const std::string &compiler, const std::string &source, std::vector<std::string> archs) {
  CompileJob job;
  job.compiler = compiler;
  job.source = source;
  job.archs = std::move(archs);
  job.extra_flags = {"-I", test::sourcePath("kernels/common")};
  return job;
}

// One test per file, so that each stays well inside ctest's timeout on a busy machine.
class CompileDepthHipcc : public ::testing::TestWithParam<std::string> {};

TEST_P(CompileDepthHipcc, SeveralArchsSameFigures) {
  if (!test::haveHipcc()) GTEST_SKIP() << "hipcc is not installed";
  EXPECT_GE(expectSameFigures(hipJob(findHipCompiler(""), GetParam(), {"gfx90a", "gfx908"}), false), 2u);
}

INSTANTIATE_TEST_SUITE_P(EveryReferenceKernel, CompileDepthHipcc, ::testing::ValuesIn(referenceHipSources()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           std::string name = fs::path(info.param).stem().string();
                           for (char &c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(CompileDepth, HipccOneArch) {
  if (!test::haveHipcc()) GTEST_SKIP() << "hipcc is not installed";
  const std::string hipcc = findHipCompiler("");
  for (const char *file : {"kernels/lbm/lbm.hip", "fixtures/src/probe.hip"})
    EXPECT_GT(expectSameFigures(hipJob(hipcc, test::sourcePath(file), {"gfx90a"}), false), 0u);
}

// -fgpu-rdc: neither compile writes device assembly (bitcode or IR until the
// link), so both leave the pipeline to say that the figures exist at link time.
TEST(CompileDepth, HipccRelocatableDeviceCodeWritesNoAssemblyEitherWay) {
  if (!test::haveHipcc()) GTEST_SKIP() << "hipcc is not installed";
  CompileJob job = hipJob(findHipCompiler(""), test::sourcePath("kernels/lbm/lbm.hip"), {"gfx90a"});
  job.extra_flags.push_back("-fgpu-rdc");
  for (CompileDepth depth : {CompileDepth::Full, CompileDepth::DeviceAsm}) {
    const Outcome outcome = compileAt(job, depth, false);
    EXPECT_EQ(outcome.exit_code, 0);
    EXPECT_EQ(outcome.archs, 0u);
  }
}

TEST(CompileDepth, Clang19OneAndSeveralArchs) {
  const std::string clang19 = "/usr/lib/llvm-19/bin/clang++";
  if (!fs::exists(clang19)) GTEST_SKIP() << "clang-19 is not installed";
  for (const char *file : {"kernels/lbm/lbm.hip", "fixtures/src/probe.hip", "kernels/unroll/ax.hip"}) {
    EXPECT_GT(expectSameFigures(hipJob(clang19, test::sourcePath(file), {"gfx90a"}), false), 0u);
    EXPECT_GT(expectSameFigures(hipJob(clang19, test::sourcePath(file), {"gfx90a", "gfx1030"}), false), 0u);
  }
}

CompileJob cudaJob(const std::string &source, std::vector<std::string> archs, std::vector<std::string> flags) {
  CompileJob job;
  job.compiler = findNvcc("");
  job.source = source;
  job.archs = std::move(archs);
  job.extra_flags = std::move(flags);
  return job;
}

TEST(CompileDepth, NvccOneAndSeveralArchsAndRdc) {
  if (!test::haveNvcc()) GTEST_SKIP() << "nvcc is not installed";
  const std::string probe = test::sourcePath("fixtures/src/cuda_probe.cu");
  EXPECT_GT(expectSameFigures(cudaJob(probe, {"sm_90"}, {}), true), 0u);
  EXPECT_GT(expectSameFigures(cudaJob(probe, {"sm_80", "sm_90"}, {}), true), 0u);
  EXPECT_GT(expectSameFigures(cudaJob(probe, {"sm_90"}, {"-rdc=true"}), true), 0u);
  EXPECT_GT(expectSameFigures(cudaJob(probe, {"sm_80", "sm_90"}, {"-rdc=true"}), true), 0u);
}

// The reference kernels through nvcc, as `kernels analyze --cuda-arch` compiles them.
TEST(CompileDepth, NvccEveryReferenceKernel) {
  if (!test::haveNvcc()) GTEST_SKIP() << "nvcc is not installed";
  const std::string shim = test::sourcePath("kernels/common/cuda_shim");
  std::size_t compared = 0;
  for (const std::string &file : referenceHipSources()) {
    if (file.find("fixtures") != std::string::npos) continue;
    compared += expectSameFigures(cudaJob(file, {"sm_90"}, {"-x", "cu", "-I", shim}), true);
  }
  EXPECT_GE(compared, 20u);
}

}  // namespace
}  // namespace regscope
