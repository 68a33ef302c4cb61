// regscope wrap: which compile commands are device compiles, the build's own
// diagnostics restored byte for byte, and the figures read from the build's
// object and remarks equal to those analyze reads from its own compile.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "regscope/collect/collect.h"
#include "regscope/driver/driver.h"
#include "regscope/source/compile_command.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

TEST(WrapCommand, FindsTheDeviceCompileBehindLaunchers) {
  // As CMake's HIP language writes it, behind ccache.
  const WrappedCompile cmake = readCompileCommand({"ccache", "/usr/bin/clang++-15", "-I/p/include", "-O3",
                                                   "--offload-arch=gfx90a", "--offload-arch=gfx908", "-std=c++17", "-o",
                                                   "CMakeFiles/k.dir/src/a.hip.o", "-x", "hip", "-c", "/p/src/a.hip"});
  EXPECT_TRUE(cmake.device);
  EXPECT_EQ(cmake.compiler, 1u);
  EXPECT_EQ(cmake.source, "/p/src/a.hip");
  EXPECT_EQ(cmake.object, "CMakeFiles/k.dir/src/a.hip.o");
  EXPECT_EQ(cmake.archs, (std::vector<std::string>{"gfx90a", "gfx908"}));
  EXPECT_FALSE(cmake.remarks_asked);
  // hipcc as CMAKE_CXX_COMPILER compiles a .cpp as HIP; comma lists are several targets.
  const WrappedCompile hipcc =
      readCompileCommand({"env", "A=1", "hipcc", "--offload-arch=gfx90a,gfx942", "-c", "k.cpp", "-ok.o"});
  EXPECT_TRUE(hipcc.device);
  EXPECT_EQ(hipcc.compiler, 2u);
  EXPECT_EQ(hipcc.object, "k.o");
  EXPECT_EQ(hipcc.archs, (std::vector<std::string>{"gfx90a", "gfx942"}));
  EXPECT_TRUE(
      readCompileCommand({"hipcc", "-Rpass-analysis=kernel-resource-usage", "-c", "a.hip", "-o", "a.o"}).remarks_asked);
}

// Absolute paths that begin like one of cl.exe's options (/work: /wo, /Users: /U, /Dev: /D, /I...) are
// files, as clang's own driver reads them outside its cl mode: found on a build under /work.
TEST(WrapCommand, AbsolutePathsAreFilesNotClOptions) {
  for (const std::string dir : {"/work/proj", "/Users/me/proj", "/Dev/proj", "/Include/proj", "/home/me", "/opt/x"}) {
    const WrappedCompile c = readCompileCommand(
        {"hipcc", "--offload-arch=gfx90a", "-I" + dir + "/inc", "-c", dir + "/src/k.hip", "-o", dir + "/build/k.o"});
    EXPECT_TRUE(c.device) << dir;
    EXPECT_EQ(c.source, dir + "/src/k.hip");
    EXPECT_EQ(c.object, dir + "/build/k.o");
  }
}

TEST(WrapCommand, LeavesEverythingElseAlone) {
  for (const std::vector<std::string> &argv : std::vector<std::vector<std::string>>{
           {"g++", "-c", "host.cpp", "-o", "host.o"},                  // another compiler
           {"hipcc", "-c", "util.c", "-o", "util.o"},                  // a C source
           {"clang++", "-x", "c++", "-c", "a.hip", "-o", "a.o"},       // told it is C++
           {"hipcc", "a.o", "b.o", "-o", "app"},                       // a link
           {"hipcc", "-E", "a.hip", "-o", "a.i"},                      // preprocessing
           {"hipcc", "-M", "-c", "a.hip", "-o", "a.d"},                // dependencies only
           {"hipcc", "-S", "a.hip", "-o", "a.s"},                      // assembly
           {"hipcc", "-fgpu-rdc", "-c", "a.hip", "-o", "a.o"},         // figures only at the device link
           {"hipcc", "--cuda-host-only", "-c", "a.hip", "-o", "a.o"},  // no device code
           {"hipcc", "-c", "a.hip"},                                   // no -o: no place for a sidecar
           {"hipcc", "-c", "a.hip", "b.hip"},                          // two sources
           {"ccache"}}) {
    std::string line;
    for (const std::string &a : argv) line += a + " ";
    EXPECT_FALSE(readCompileCommand(argv).device) << line;
  }
}

// A temporary directory holding a source with a warning, compiled by hipcc.
struct Compiled {
  TempDir dir;
  std::string source;
  ProcessOutput run(const std::vector<std::string> &extra, const std::string &object) const {
    std::vector<std::string> argv = {findHipCompiler(""), "--offload-arch=gfx90a", "-Wall", "-c", source, "-o", object};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return runCaptured(argv, dir.path(), 0, dir.asTmpdir());  // hipcc leaves empty dirs in TMPDIR
  }
};

TEST(WrapRemarks, TheCompilesOwnOutputComesBackByteForByte) {
  if (!test::haveHipcc()) GTEST_SKIP() << "hipcc is not installed";
  Compiled c;
  c.source = c.dir.path() + "/w.hip";
  writeFileAtomically(c.source,
                      "#include <hip/hip_runtime.h>\n"
                      "__global__ void warn_kernel(float *p) { int unused = 1; p[threadIdx.x] *= 2.0f; }\n"
                      "__device__ float twice(float x) { return 2 * x; }\n"
                      "__global__ void other(float *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }\n");
  const ProcessOutput plain = c.run({}, "plain.o");
  const ProcessOutput remarked = c.run({kResourceRemarkFlag}, "remarked.o");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(remarked.exit_code, 0) << remarked.err;
  ASSERT_NE(plain.err.find("unused"), std::string::npos) << "the scenario needs a warning: " << plain.err;
  ASSERT_NE(remarked.err, plain.err);
  std::string remarks;
  EXPECT_EQ(splitResourceRemarks(remarked.err, remarks), plain.err);
  const FactSet facts = parseRemarkText(remarks, "gfx90a");
  std::size_t kernels = 0;
  for (const KernelFacts &k : facts.kernels) kernels += k.is_kernel;
  EXPECT_EQ(kernels, 2u) << remarks;
  // Under -fcolor-diagnostics too: the colour codes do not hide a remark.
  const ProcessOutput coloured = c.run({kResourceRemarkFlag, "-fcolor-diagnostics"}, "coloured.o");
  const ProcessOutput coloured_plain = c.run({"-fcolor-diagnostics"}, "coloured-plain.o");
  std::string coloured_remarks;
  EXPECT_EQ(splitResourceRemarks(coloured.err, coloured_remarks), coloured_plain.err);
  EXPECT_EQ(coloured_remarks, remarks);
}

std::optional<std::string> readSourceFile(const std::string &path) { return readFileIfExists(path); }

// For each reference kernel, for one and two archs: the build's own compile
// (hipcc -c -o OBJ with the remark flag) read as wrap reads it, against
// analyze's compile (the driver's device-only -S) read as analyze reads it.
void expectAnalyzeFigures(const std::string &relative, const std::vector<std::string> &archs) {
  const std::string source = test::sourcePath(relative);
  CompileJob job;
  job.compiler = findHipCompiler("");
  job.source = source;
  job.archs = archs;
  job.dependencies = false;
  const CompileOutput analyzed = compileHip(job);
  ASSERT_EQ(analyzed.exit_code, 0) << analyzed.diagnostics;
  const CollectedRun expected = collectAmdRun(analyzed, source, readSourceFile);

  TempDir dir;
  std::vector<std::string> argv = {job.compiler};
  for (const std::string &arch : archs) argv.push_back("--offload-arch=" + arch);
  for (const char *a : {"-c", "-o", "k.o", kResourceRemarkFlag}) argv.push_back(a);
  argv.push_back(source);
  const ProcessOutput built = runCaptured(argv, dir.path(), 0, dir.asTmpdir());  // hipcc leaves empty dirs in TMPDIR
  ASSERT_EQ(built.exit_code, 0) << built.err;
  std::string remarks;
  splitResourceRemarks(built.err, remarks);
  const CollectedRun wrapped = collectAmdObject(remarks, readFile(dir.path() + "/k.o"), archs, source, readSourceFile);

  const std::string what = relative + " for " + std::to_string(archs.size()) + " arch(s)";
  EXPECT_EQ(wrapped.producer, expected.producer) << what;
  ASSERT_EQ(wrapped.records.size(), expected.records.size()) << what;
  for (std::size_t i = 0; i < expected.records.size(); ++i) {
    const KernelRecord &a = expected.records[i], &b = wrapped.records[i];
    const std::string who = what + ": " + a.name + " [" + a.arch + "]";
    EXPECT_EQ(b.name, a.name) << who;
    EXPECT_EQ(b.arch, a.arch) << who;
    EXPECT_EQ(b.file, a.file) << who;
    EXPECT_EQ(b.line, a.line) << who;
    // Every figure the model and the findings read, the instruction counts (disassembled) included.
    for (Field f : {Field::Vgprs, Field::Agprs, Field::VgprsTotal, Field::Sgprs, Field::ScratchBytes, Field::VgprSpills,
                    Field::SgprSpills, Field::LdsBytes, Field::MaxWorkgroupSize, Field::WaveSize, Field::DynamicStack,
                    Field::CompilerOccupancy, Field::WgpMode, Field::AgprCopies, Field::MfmaInstructions})
      EXPECT_EQ(b.values[static_cast<std::size_t>(f)], a.values[static_cast<std::size_t>(f)])
          << who << ": " << fieldKey(f);
  }
}

TEST(WrapFigures, EqualAnalyzesOnEveryReferenceKernel) {
  if (!test::haveHipcc()) GTEST_SKIP() << "hipcc is not installed";
  for (const char *kernel : {"kernels/lbm/lbm.hip", "kernels/laplacian/laplacian.hip", "kernels/bitonic/bitonic.hip",
                             "kernels/wideload/wideload.hip"}) {
    expectAnalyzeFigures(kernel, {"gfx90a"});
    expectAnalyzeFigures(kernel, {"gfx90a", "gfx908"});
  }
}

}  // namespace
}  // namespace regscope
