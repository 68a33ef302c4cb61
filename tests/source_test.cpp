// Compile databases: HIP entries, and their flags made safe to run elsewhere.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "regscope/backend/backend.h"
#include "regscope/driver/driver.h"
#include "regscope/source/flags.h"
#include "regscope/source/launch_sites.h"
#include "regscope/source/source.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"
#include "test_util.h"

namespace regscope {
namespace {

// The default backend's database entries (AMD's: HIP).
DatabaseEntries hipEntries() { return backendFor(defaultVendor()).databaseEntries(); }

TEST(CleanFlags, AbsolutePathsNoOutputsArchsMovedOut) {
  std::vector<std::string> archs;
  std::vector<std::string> flags = cleanCompileFlags({"/usr/bin/hipcc",
                                                      "--offload-arch=gfx90a",
                                                      "-I../include",
                                                      "-isystem",
                                                      "third",
                                                      "-DN=64",
                                                      "-O3",
                                                      "-MD",
                                                      "-MF",
                                                      "k.d",
                                                      "-MT",
                                                      "k.o",
                                                      "--offload-arch",
                                                      "gfx908",
                                                      "-c",
                                                      "../src/k.hip",
                                                      "-o",
                                                      "k.o",
                                                      "-save-temps=obj",
                                                      "-std=c++17",
                                                      "--rocm-path=rocm"},
                                                     "/proj/build", "../src/k.hip", archs);
  EXPECT_EQ(archs, (std::vector<std::string>{"gfx90a", "gfx908"}));
  EXPECT_EQ(flags, (std::vector<std::string>{"-I/proj/include", "-isystem", "/proj/build/third", "-DN=64", "-O3",
                                             "-std=c++17", "--rocm-path=/proj/build/rocm"}));
}

class Database : public ::testing::Test {
 protected:
  void write(const std::string &json) { std::ofstream(dir_.path() + "/compile_commands.json") << json; }
  std::string entry(const std::string &file, const std::string &command) {
    return "{\"directory\": \"" + dir_.path() + "\", \"command\": \"" + command + "\", \"file\": \"" + file + "\"}";
  }
  TempDir dir_;
};

// A source or include directory under /work, /Users or /Dev is a path, not cl.exe's /wo, /U or /D.
TEST(CleanFlags, AbsolutePathsThatLookLikeClOptionsStayPaths) {
  std::vector<std::string> archs;
  const std::vector<std::string> flags = cleanCompileFlags({"hipcc", "--offload-arch=gfx90a", "-I/work/p/include", "-c",
                                                            "/work/p/src/k.hip", "-o", "/Users/me/k.o", "-DN=1"},
                                                           "/work/p/build", "/work/p/src/k.hip", archs);
  EXPECT_EQ(flags, (std::vector<std::string>{"-I/work/p/include", "-DN=1"}));
  EXPECT_EQ(archs, (std::vector<std::string>{"gfx90a"}));
}

TEST_F(Database, OnlyHipEntriesAndFoundFromASubdirectory) {
  write("[" + entry("a.hip", "hipcc -c a.hip -o a.o") + "," + entry("host.cpp", "g++ -c host.cpp") + "," +
        entry("b.cu", "clang++ -x hip --offload-arch=gfx908 -c b.cu") + "," + entry("a.hip", "hipcc -c a.hip") + "]");
  std::filesystem::create_directories(dir_.path() + "/sub/dir");
  std::vector<SourceJob> jobs = jobsFromDatabase(dir_.path() + "/sub/dir", {}, hipEntries());
  ASSERT_EQ(jobs.size(), 2u);  // a.hip once, b.cu by -x hip; host.cpp is not HIP
  EXPECT_EQ(jobs[0].path, dir_.path() + "/a.hip");
  EXPECT_EQ(jobs[0].compiler, "hipcc");
  EXPECT_EQ(jobs[1].path, dir_.path() + "/b.cu");
  EXPECT_EQ(jobs[1].archs, std::vector<std::string>{"gfx908"});
  EXPECT_EQ(jobs[1].flags, (std::vector<std::string>{"-x", "hip"}));
}

TEST_F(Database, RestrictToNamedFiles) {
  write("[" + entry("a.hip", "hipcc -c a.hip") + "," + entry("b.hip", "hipcc -c b.hip") + "]");
  std::vector<SourceJob> jobs =
      jobsFromDatabase(dir_.path() + "/compile_commands.json", {dir_.path() + "/b.hip"}, hipEntries());
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].path, dir_.path() + "/b.hip");
  EXPECT_THROW(jobsFromDatabase(dir_.path(), {dir_.path() + "/c.hip"}, hipEntries()), Error);
}

TEST_F(Database, NoHipEntriesOrNoDatabaseAreErrors) {
  write("[" + entry("host.cpp", "g++ -c host.cpp") + "]");
  EXPECT_THROW(jobsFromDatabase(dir_.path(), {}, hipEntries()), Error);
  TempDir empty;
  EXPECT_THROW(jobsFromDatabase(empty.path(), {}, hipEntries()), Error);
  EXPECT_THROW(jobsFromDatabase(empty.path() + "/nope.json", {}, hipEntries()), Error);
}

// Issue 22 item 1: hipify keeps .cu names (HeCBench's *-hip benchmarks, ggml's
// ggml-cuda/*.cu compiled as HIP). The flags decide.
TEST(CuIsHip, WhenTheFlagsSaySo) {
  EXPECT_TRUE(flagsSayHip({"-x", "hip"}));
  EXPECT_TRUE(flagsSayHip({"-xhip"}));
  EXPECT_TRUE(flagsSayHip({"--offload-arch=gfx90a"}));
  EXPECT_TRUE(flagsSayHip({"--offload-arch", "gfx1100"}));  // hipcc's spelling
  EXPECT_TRUE(flagsSayHip({"--offload-arch=gfx906,gfx90a"}));
  EXPECT_TRUE(flagsSayHip({"--cuda-gpu-arch=gfx942"}));           // clang's older alias
  EXPECT_TRUE(flagsSayHip({"-D__HIP_PLATFORM_AMD__=1", "-O3"}));  // CMake's hip::device
  EXPECT_TRUE(flagsSayHip({"-D", "__HIP_PLATFORM_AMD__"}));
  EXPECT_FALSE(flagsSayHip({"-std=c++17", "-Wall", "-I../ace-cuda", "-O3"}));  // HeCBench's, without hipcc
  EXPECT_FALSE(flagsSayHip({"--offload-arch=sm_80"}));
  EXPECT_FALSE(flagsSayHip({"--cuda-gpu-arch=sm_90", "-x", "cuda"}));
  EXPECT_FALSE(flagsSayHip({"--offload-arch=gfx90a", "-x", "cuda"}));  // the last -x decides
  EXPECT_FALSE(flagsSayHip({"-D__HIP_PLATFORM_NVIDIA__"}));
  EXPECT_TRUE(isHipCompilerName("/opt/rocm/bin/hipcc"));
  EXPECT_TRUE(isHipCompilerName("/opt/rocm/llvm/bin/amdclang++"));
  EXPECT_FALSE(isHipCompilerName("/usr/local/cuda/bin/nvcc"));
  EXPECT_FALSE(isHipCompilerName("/usr/bin/clang++"));
}

// A compile database as HeCBench's Makefile (hipcc on main.cu), ggml's CMake
// HIP build (clang++ -x hip --offload-arch=gfx*), and a CUDA build of the same names.
TEST_F(Database, CuEntriesAreHipOrCudaByTheirFlags) {
  write("[" + entry("ace-hip/main.cu", "hipcc -std=c++17 -Wall -I../ace-cuda -O3 -c ace-hip/main.cu -o main.o") + "," +
        entry("ggml-cuda/mmq.cu",
              "/opt/rocm/llvm/bin/clang++ -DGGML_USE_HIP -D__HIP_PLATFORM_AMD__=1 -O3 --offload-arch=gfx90a "
              "-x hip -c ggml-cuda/mmq.cu -o mmq.o") +
        "," + entry("ggml-cuda/norm.cu", "/opt/rocm/llvm/bin/amdclang++ -O3 -c ggml-cuda/norm.cu -o norm.o") + "," +
        entry("ace-cuda/main.cu", "nvcc -std=c++17 -arch=sm_80 -c ace-cuda/main.cu -o main.o") + "," +
        entry("plain/k.cu", "clang++ --cuda-gpu-arch=sm_80 -c plain/k.cu -o k.o") + "]");
  std::vector<SourceJob> hip = jobsFromDatabase(dir_.path(), {}, hipEntries());
  ASSERT_EQ(hip.size(), 3u);
  EXPECT_EQ(hip[0].path, dir_.path() + "/ace-hip/main.cu");
  EXPECT_EQ(hip[1].path, dir_.path() + "/ggml-cuda/mmq.cu");
  EXPECT_EQ(hip[1].archs, std::vector<std::string>{"gfx90a"});
  EXPECT_EQ(hip[2].path, dir_.path() + "/ggml-cuda/norm.cu");
  std::vector<SourceJob> cuda = jobsFromDatabase(dir_.path(), {}, backendFor(Vendor::Nvidia).databaseEntries());
  ASSERT_EQ(cuda.size(), 2u);
  EXPECT_EQ(cuda[0].path, dir_.path() + "/ace-cuda/main.cu");
  EXPECT_EQ(cuda[1].path, dir_.path() + "/plain/k.cu");
}

// Issue 22 item 2: -include FILE as clang finds it (checked against clang 15's
// preprocessor: the compile's working directory first, then -iquote/-I/
// -isystem, never the main file's directory). Layout: a project whose common
// header sits in include/, reachable only through -I (amd-lab-notes'
// Makefiles: -include common.h -I ../include).
class IncludeFlag : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_.path() + "/include");
    std::filesystem::create_directories(dir_.path() + "/build");
    std::ofstream(dir_.path() + "/include/common.h") << "#pragma once\n";
    std::ofstream(dir_.path() + "/build/local.h") << "#pragma once\n";
  }
  std::vector<std::string> resolve(const std::vector<std::string> &flags) {
    return resolvePathFlags(flags, dir_.path() + "/build");
  }
  TempDir dir_;
};

TEST_F(IncludeFlag, OnlyThroughTheSearchPathIsLeftAsWritten) {
  const std::string inc = dir_.path() + "/include";
  EXPECT_EQ(resolve({"-include", "common.h", "-I../include"}),
            (std::vector<std::string>{"-include", "common.h", "-I" + inc}));
  EXPECT_EQ(resolve({"-includecommon.h", "-I", "../include"}),
            (std::vector<std::string>{"-includecommon.h", "-I", inc}));
  EXPECT_EQ(resolve({"--include=common.h", "-iquote", "../include"}),
            (std::vector<std::string>{"--include=common.h", "-iquote", inc}));
  EXPECT_EQ(resolve({"-imacros", "common.h", "-I../include"}),
            (std::vector<std::string>{"-imacros", "common.h", "-I" + inc}));
}

TEST_F(IncludeFlag, FoundInTheWorkingDirectoryIsMadeAbsolute) {
  const std::string build = dir_.path() + "/build";
  EXPECT_EQ(resolve({"-include", "local.h"}), (std::vector<std::string>{"-include", build + "/local.h"}));
  EXPECT_EQ(resolve({"-include", "../include/common.h"}),
            (std::vector<std::string>{"-include", dir_.path() + "/include/common.h"}));
  EXPECT_EQ(resolve({"--include=local.h"}), (std::vector<std::string>{"--include=" + build + "/local.h"}));
}

TEST_F(IncludeFlag, InAResponseFileAndACompileDatabase) {
  std::ofstream(dir_.path() + "/build/flags.rsp") << "-include common.h -I ../include\n";
  EXPECT_EQ(resolve({"@flags.rsp"}),
            (std::vector<std::string>{"-include", "common.h", "-I", dir_.path() + "/include"}));
  std::ofstream(dir_.path() + "/compile_commands.json")
      << "[{\"directory\": \"" << dir_.path() << "/build\", \"command\": \"hipcc -include common.h -include local.h "
      << "-I../include -c ../k.hip -o k.o\", \"file\": \"../k.hip\"}]";
  std::vector<SourceJob> jobs = jobsFromDatabase(dir_.path() + "/compile_commands.json", {}, hipEntries());
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].flags, (std::vector<std::string>{"-include", "common.h", "-include", dir_.path() + "/build/local.h",
                                                     "-I" + dir_.path() + "/include"}));
}

// Issue 22 item 5: dynamic LDS at the launch site, as HeCBench's and ggml's
// host code writes it.
TEST(LaunchDynamicShared, ConstantsAtTheLaunch) {
  const char *source = R"(
#define BLOCK 256
constexpr int kTile = 32;
const int SMEM = 4096;
__global__ void reduce(float *p) {}
__global__ void scan(float *p) {}
__global__ void tiled(float *p) {}
__global__ void plain(float *p) {}
__global__ void varying(float *p) {}
__global__ void attr_only(float *p) {}
__global__ void huge(float *p) {}
void host(float *d, int n) {
  reduce<<<n / BLOCK, BLOCK, BLOCK * sizeof(float)>>>(d);
  hipLaunchKernelGGL(scan, dim3(n), dim3(BLOCK), SMEM, 0, d);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(tiled), dim3(n), dim3(kTile, kTile), 2 * kTile * kTile * sizeof(double), 0, d);
  plain<<<n, BLOCK>>>(d);
  varying<<<n, BLOCK, n * sizeof(float)>>>(d);
  hipFuncSetAttribute((const void *)attr_only, hipFuncAttributeMaxDynamicSharedMemorySize, 65536);
  attr_only<<<n, BLOCK, n * 4>>>(d);
  // a comment: reduce<<<1, 1, 999>>>(d);
  huge<<<n, BLOCK, 4096L * 1024 * 1024 * 1024>>>(d);
}
)";
  const std::map<std::string, DynamicSharedAt> found = findLaunchDynamicShared(source);
  ASSERT_TRUE(found.count("reduce"));
  EXPECT_EQ(found.at("reduce").bytes, 1024);
  EXPECT_FALSE(found.at("reduce").from_attribute);
  ASSERT_TRUE(found.count("scan"));
  EXPECT_EQ(found.at("scan").bytes, 4096);
  ASSERT_TRUE(found.count("tiled"));
  EXPECT_EQ(found.at("tiled").bytes, 16384);
  ASSERT_TRUE(found.count("plain"));  // two-argument launch: none given
  EXPECT_EQ(found.at("plain").bytes, 0);
  EXPECT_FALSE(found.count("varying"));  // not a constant: not a figure
  ASSERT_TRUE(found.count("attr_only"));
  EXPECT_EQ(found.at("attr_only").bytes, 65536);
  EXPECT_TRUE(found.at("attr_only").from_attribute);
  EXPECT_FALSE(found.count("huge"));  // 4 TiB: absurd, and past a long's range on the way: rejected
}

TEST(LaunchDynamicShared, CudaFuncSetAttributeAndDifferingLaunches) {
  const char *source = R"(
__global__ void k(float *p) {}
__global__ void two(float *p) {}
void host(float *d) {
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 98304);
  two<<<1, 64, 512>>>(d);
  two<<<1, 64, 1024>>>(d);
}
)";
  const std::map<std::string, DynamicSharedAt> found = findLaunchDynamicShared(source);
  ASSERT_TRUE(found.count("k"));
  EXPECT_EQ(found.at("k").bytes, 98304);
  EXPECT_TRUE(found.at("k").from_attribute);
  EXPECT_FALSE(found.count("two"));  // launches that differ: no single figure
}

// Sizes written as expressions are read; what is not a constant is unknown,
// named by its line, never a default (issue 30).
TEST(LaunchRead, ExpressionsAndOnceAssignedNamesAreReadTheRestIsUnknownByLine) {
  const char *source = R"(#define BS 16
constexpr int kWide = 512;
__global__ void twice(float *p) {}
__global__ void halved(float *p) {}
__global__ void blk4(float *p) {}
__global__ void local(float *p) {}
__global__ void counted(float *p) {}
__global__ void both(float *p) {}
__global__ void runtime(float *p) {}
__global__ void parsed(float *p) {}
__global__ void differ(float *p) {}
void host(float *d, int n, int shmem) {
  twice<<<n, 2 * BS>>>(d);
  halved<<<n, kWide / 2>>>(d);
  dim3 blk(BS * 4);
  blk4<<<n, blk>>>(d);
  int nthreads = 256;
  local<<<n, nthreads>>>(d);
  counted<<<n, 64, 256 * sizeof(unsigned int)>>>(d);
  hipFuncSetAttribute((const void *)both, hipFuncAttributeMaxDynamicSharedMemorySize, 65536);
  both<<<n, 64, 4096>>>(d);
  runtime<<<n, n, shmem>>>(d);
  int fromArgs = 8;
  parse(&fromArgs);
  parsed<<<n, dim3(fromArgs, fromArgs)>>>(d);
  differ<<<n, 64>>>(d);
  differ<<<n, 128>>>(d);
}
)";
  const LaunchesRead read = readLaunches(source);
  EXPECT_EQ(read.block_sizes.at("twice"), 32);
  EXPECT_EQ(read.block_sizes.at("halved"), 256);
  EXPECT_EQ(read.block_sizes.at("blk4"), 64);
  EXPECT_EQ(read.block_sizes.at("local"), 256);
  EXPECT_EQ(read.dynamic_shared.at("counted").bytes, 1024);  // sizeof(unsigned int) is 4
  EXPECT_EQ(read.dynamic_shared.at("both").bytes, 4096);     // the launch's own size wins over the maximum
  EXPECT_FALSE(read.dynamic_shared.at("both").from_attribute);
  EXPECT_EQ(read.dynamic_shared.at("twice").bytes, 0);  // two arguments: none passed
  EXPECT_FALSE(read.block_sizes.count("runtime"));
  EXPECT_EQ(read.block_unread_line.at("runtime"), 22);
  EXPECT_EQ(read.dynamic_unread_line.at("runtime"), 22);
  EXPECT_FALSE(read.block_sizes.count("parsed"));  // its address is handed to a parser: not a constant
  EXPECT_EQ(read.block_unread_line.at("parsed"), 25);
  EXPECT_FALSE(read.block_sizes.count("differ"));  // two sizes: neither is the launch
  EXPECT_EQ(read.block_unread_line.at("differ"), 27);
  EXPECT_FALSE(read.block_unread_line.count("twice"));
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

// A launch size from a constexpr of a header the source includes with quotes (the scenario
// projects' matmul.hpp: `constexpr unsigned int block_size = 16;`, launched with
// dim3(block_size, block_size)). The header is found beside the source or through -I; a name the
// source itself changes, or whose address it hands out, stays unknown.
TEST(LaunchRead, ConstantsOfAQuotedIncludeAreRead) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() + "/include");
  std::ofstream(dir.path() + "/include/matmul.hpp") << "#pragma once\nconstexpr unsigned int block_size = 16;\n";
  const std::string source =
      "#include \"matmul.hpp\"\n__global__ void mm(float *p) {}\n__global__ void moved(float *p) {}\n"
      "void host(float *p, int n) {\n"
      "  const dim3 block_dim(block_size, block_size);\n"
      "  mm<<<n, block_dim>>>(p);\n"
      "  moved<<<n, tile>>>(p);\n"
      "}\n";
  const std::string path = dir.path() + "/mm.hip";
  EXPECT_EQ(quotedIncludes(path, source, {}), "");  // not beside the source, no -I
  const std::string headers = quotedIncludes(path, source, {"-I", dir.path() + "/include"});
  EXPECT_NE(headers.find("block_size = 16"), std::string::npos);
  const LaunchesRead read = readLaunches(source, headers);
  EXPECT_EQ(read.block_sizes.at("mm"), 256);
  EXPECT_EQ(read.block_unread_line.at("moved"), 7);
  // The source's own definition (a local that shadows the header's) is the one its launch uses.
  std::string shadowed = source;
  shadowed.replace(shadowed.find("  const dim3"), 0, "  const unsigned int block_size = 8;\n");
  EXPECT_EQ(readLaunches(shadowed, headers).block_sizes.at("mm"), 64);
  // The source hands the header's name to a parser: it may hold anything.
  const LaunchesRead handed =
      readLaunches(source + "void parse(int *);\nvoid opts() { parse(&block_size); }\n", headers);
  EXPECT_EQ(handed.block_sizes.count("mm"), 0u);
  EXPECT_EQ(handed.block_unread_line.at("mm"), 6);
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

// HeCBench's convolution1D launches once per block size of a loop: `bs = bs * 2` in the for's
// increment changes bs, so the launch is unknown (the lexer read 64, the loop's first size), by
// the lexer and through the AST alike.
TEST(LaunchRead, AnAssignmentInALoopIncrementChangesTheName) {
  const std::string source = R"(#include <hip/hip_runtime.h>
__global__ void conv(float *p) {}
void host(float *d) {
  for (int bs = 64; bs <= 1024; bs = bs * 2) {
    dim3 blocks (bs);
    conv<<<1, blocks>>>(d);
  }
}
)";
  EXPECT_EQ(readLaunches(source).block_unread_line.at("conv"), 6);
  TempDir dir;
  const std::string path = dir.path() + "/loop.hip";
  std::ofstream(path) << source;
  const LaunchesRead read = readLaunchSites(path, "loop.hip", source, {}, false);
  EXPECT_TRUE(read.notes.empty()) << read.notes.front();
  EXPECT_EQ(read.block_unread_line.at("conv"), 6);
}

// Launch sizes read through Clang's AST (issue 30, item 2): the host side
// parsed with HIP's headers. Hand-written sources, each case one rule.
LaunchesRead readThroughAst(const std::string &source, const std::vector<std::string> &flags = {}) {
  TempDir dir;
  const std::string path = dir.path() + "/launches.hip";
  std::ofstream(path) << source;
  return readLaunchSites(path, "launches.hip", source, flags, false);
}

// A kernel's figure in one of LaunchesRead's maps; -1 when it has none (a readable failure, not map::at).
long figure(const std::map<std::string, int> &m, const std::string &k) { return m.count(k) ? m.at(k) : -1; }
long figure(const std::map<std::string, DynamicSharedAt> &m, const std::string &k) {
  return m.count(k) ? m.at(k).bytes : -1;
}

TEST(LaunchAst, WhatClangEvaluatesIsReadTheRestIsUnknownByLine) {
  const std::string source = R"(#include <hip/hip_runtime.h>
#define BS 16
struct Pair { double a; float b[3]; };              // 24 bytes: sizeof of any type
constexpr int half(int x) { return x / 2; }
template <int B> __global__ void tmpl(float *p) {}
__global__ void sized(float *p) {}
__global__ void cexpr(float *p) {}
__global__ void local(float *p) {}
__global__ void blk(float *p) {}
__global__ void bumped(float *p) {}
__global__ void byref(float *p) {}
__global__ void twice(float *p) {}
__global__ void param(float *p) {}
__global__ void attr(float *p) {}
__global__ void member(float *p) {}
void take(int &n);
template <int B> void run(float *d) { tmpl<B><<<1, B * 2>>>(d); }
struct App {
  int block;
  App() { block = 96; }
  void go(float *d) { member<<<1, dim3(block)>>>(d); }
};
void host(float *d, int n) {
  sized<<<1, BS * 4, 3 * sizeof(Pair)>>>(d);
  cexpr<<<1, half(512)>>>(d);
  int nthreads = 256;
  local<<<1, nthreads, nthreads * sizeof(unsigned int)>>>(d);
  dim3 block(BS, BS);
  blk<<<1, block>>>(d);
  int grows = 64;
  grows += 64;
  bumped<<<1, grows>>>(d);
  int given = 32;
  take(given);
  byref<<<1, given>>>(d);
  int moved = 64;
  if (n) moved = 128;
  twice<<<1, moved>>>(d);
  param<<<1, n>>>(d);
  hipFuncSetAttribute(reinterpret_cast<const void *>(&attr), hipFuncAttributeMaxDynamicSharedMemorySize, 2 * 32768);
  hipLaunchKernelGGL(attr, dim3(1), dim3(BS), n, 0, d);
  run<128>(d);
  App().go(d);
}
)";
  const LaunchesRead read = readThroughAst(source);
  ASSERT_TRUE(read.notes.empty()) << read.notes.front();  // parsed: no fallback said
  EXPECT_EQ(figure(read.block_sizes, "sized"), 64);       // a macro
  EXPECT_EQ(figure(read.dynamic_shared, "sized"), 72);    // sizeof(struct) through the AST: the lexer cannot
  EXPECT_EQ(figure(read.block_sizes, "cexpr"), 256);      // a constexpr function
  EXPECT_EQ(figure(read.block_sizes, "local"), 256);      // a local set once, never changed
  EXPECT_EQ(figure(read.dynamic_shared, "local"), 1024);  // sizeof(unsigned int) is 4
  EXPECT_EQ(figure(read.block_sizes, "blk"), 256);        // dim3 block(BS, BS): the product
  EXPECT_EQ(figure(read.block_sizes, "tmpl"), 256);       // a template argument at its instantiation
  EXPECT_EQ(figure(read.block_sizes, "member"), 96);      // a member of a class of this file, set once
  EXPECT_EQ(figure(read.dynamic_shared, "attr"), 65536);  // the attribute's maximum: the launch passes n
  EXPECT_TRUE(read.dynamic_shared.at("attr").from_attribute);
  EXPECT_EQ(figure(read.block_sizes, "attr"), 16);  // hipLaunchKernelGGL, HIP 5.2's macro over <<<>>>
  // Not constants: unknown, by the launch's line, never a default.
  EXPECT_EQ(figure(read.block_unread_line, "bumped"), 32);  // changed by +=
  EXPECT_EQ(figure(read.block_unread_line, "byref"), 35);   // handed to a function by reference
  EXPECT_EQ(figure(read.block_unread_line, "twice"), 38);   // two values
  EXPECT_EQ(figure(read.block_unread_line, "param"), 39);   // a parameter
  EXPECT_FALSE(read.block_sizes.count("bumped") || read.block_sizes.count("byref") || read.block_sizes.count("twice") ||
               read.block_sizes.count("param"));
}

// A size the lexer reads the same way still reads so, and a launch's own
// constant dynamic size still wins over the attribute's maximum.
TEST(LaunchAst, OwnSizeWinsOverAttributeAndLaunchesThatDifferAreUnknown) {
  const std::string source = R"(#include <hip/hip_runtime.h>
__global__ void both(float *p) {}
__global__ void differ(float *p) {}
void host(float *d) {
  hipFuncSetAttribute((const void *)both, hipFuncAttributeMaxDynamicSharedMemorySize, 65536);
  both<<<1, 64, 4096>>>(d);
  differ<<<1, 64>>>(d);
  differ<<<1, 128>>>(d);
}
)";
  const LaunchesRead read = readThroughAst(source);
  EXPECT_EQ(read.dynamic_shared.at("both").bytes, 4096);
  EXPECT_FALSE(read.dynamic_shared.at("both").from_attribute);
  EXPECT_EQ(read.dynamic_shared.at("differ").bytes, 0);  // no third argument: none passed
  EXPECT_EQ(read.block_unread_line.at("differ"), 8);     // the second size: neither is the launch
}

// When the host side does not parse, the lexer reads the file and the run is told once, with the first error.
TEST(LaunchAst, AParseFailureFallsBackToTheLexerAndSaysSo) {
  const std::string source =
      "#include <hip/hip_runtime.h>\n#include \"not_there.h\"\n__global__ void k(float *p) {}\n"
      "void host(float *d) { k<<<1, 128>>>(d); }\n";
  const LaunchesRead read = readThroughAst(source);
  EXPECT_EQ(read.block_sizes.at("k"), 128);  // the lexer's reading
  ASSERT_EQ(read.notes.size(), 1u);
  EXPECT_NE(read.notes[0].find("launches.hip: launch sizes read by regscope's lexer, not Clang's AST"),
            std::string::npos)
      << read.notes[0];
  EXPECT_NE(read.notes[0].find("launches.hip:2:10: fatal error: 'not_there.h' file not found"), std::string::npos)
      << read.notes[0];
  // The include directory the compile's flags name makes it parse.
  TempDir include;
  std::ofstream(include.path() + "/not_there.h") << "#define WIDE 256\n";
  const LaunchesRead parsed = readThroughAst(source, {"-I", include.path()});
  EXPECT_TRUE(parsed.notes.empty()) << parsed.notes.front();
}

// HIP-Examples' MatrixMultiplication (fixtures/src/hip-examples, real code):
// mmmKernel is launched with dim3(blockSize, blockSize), blockSize a member
// set once to 8 whose address a command-line option holds: read as 8x8 and
// said. Histogram's dynamic LDS is groupSize * binSize, private members of a
// class its header defines and its .cpp implements, each given one value
// (GROUP_SIZE in the constructor, 128 before the launch; BIN_SIZE): read,
// 128 * 256 bytes at 128 threads (the lexer called it unknown).
TEST(LaunchAst, HipExamplesMatrixMultiplicationAndHistogram) {
  const std::string mm = test::sourcePath("fixtures/src/hip-examples/MatrixMultiplication/MatrixMultiplication.cpp");
  const std::string mm_text = readFile(mm);
  const LaunchesRead read = readLaunchSites(mm, "MatrixMultiplication.cpp", mm_text, {}, false);
  EXPECT_EQ(read.block_sizes.at("mmmKernel"), 64);
  EXPECT_EQ(read.dynamic_shared.at("mmmKernel").bytes, 0);
  ASSERT_EQ(read.notes.size(), 1u);
  EXPECT_NE(read.notes[0].find("MatrixMultiplication.cpp:338: mmmKernel's launch reads its block size from "
                               "blockSize, set to 8 at line 102; its address is taken at line 421"),
            std::string::npos)
      << read.notes[0];
  EXPECT_EQ(readLaunches(mm_text).block_sizes.count("mmmKernel"), 0u);  // the lexer could not

  const std::string histogram = test::sourcePath("fixtures/src/hip-examples/Histogram/Histogram.cpp");
  const LaunchesRead h = readLaunchSites(histogram, "Histogram.cpp", readFile(histogram), {}, false);
  EXPECT_TRUE(h.notes.empty()) << h.notes.front();
  ASSERT_EQ(h.dynamic_shared.count("histogram256"), 1u);
  EXPECT_EQ(h.dynamic_shared.at("histogram256").bytes, 32768);
  EXPECT_EQ(h.block_sizes.at("histogram256"), 128);
  EXPECT_EQ(readLaunches(readFile(histogram)).dynamic_unread_line.at("histogram256"), 212);  // the lexer could not
}

// A file that spells no launch (its kernels launched from another file) is not parsed: nothing to
// read, and no parse to fail on a header only the build finds.
TEST(LaunchAst, AFileWithoutLaunchesIsNotParsed) {
  const LaunchesRead read = readThroughAst(
      "#include \"only_the_build_has_it.h\"\n__global__ void k(float *p) {}  // k<<<1, 64>>>(p) elsewhere\n");
  EXPECT_TRUE(read.notes.empty()) << read.notes.front();
  EXPECT_TRUE(read.block_sizes.empty() && read.block_unread_line.empty());
}

// HIP-Examples' BinomialOption: `unsigned int localThreads = {numSteps + 1};`, numSteps a member set once to 254.
TEST(LaunchAst, ABracedInitialiserIsItsValue) {
  const std::string source = R"(#include <hip/hip_runtime.h>
__global__ void binomial(float *p) {}
class Options {
  unsigned int steps;
 public:
  Options() { steps = 254; }
  void run(float *d) {
    unsigned int threads = {steps + 1};
    binomial<<<1, dim3(threads)>>>(d);
  }
};
)";
  EXPECT_EQ(readThroughAst(source).block_sizes.at("binomial"), 255);
}

// A member of a class a header defines is a constant only when nothing
// outside this translation unit can write it: private, no friends, every
// member function defined here. A public one (or one with a member function
// defined elsewhere) may be set by another file: unknown.
TEST(LaunchAst, AHeaderClassMemberIsAConstantOnlyWhenNoOtherFileCanWriteIt) {
  TempDir dir;
  std::ofstream(dir.path() + "/app.h") << "struct App {\n  App();\n  void run(float *d);\n  int open = 64;\n"
                                          "  void later();\n private:\n  int shut;\n};\n";
  const std::string source = R"(#include <hip/hip_runtime.h>
#include "app.h"
__global__ void by_open(float *p) {}
__global__ void by_shut(float *p) {}
App::App() : shut(128) {}
void App::run(float *d) {
  by_open<<<1, open>>>(d);
  by_shut<<<1, shut>>>(d);
}
)";
  const std::string path = dir.path() + "/app.hip";
  std::ofstream(path) << source;
  const LaunchesRead later_elsewhere = readLaunchSites(path, "app.hip", source, {}, false);
  EXPECT_TRUE(later_elsewhere.notes.empty()) << later_elsewhere.notes.front();
  EXPECT_EQ(later_elsewhere.block_unread_line.at("by_open"), 7);  // public
  EXPECT_EQ(later_elsewhere.block_unread_line.at("by_shut"), 8);  // later() is defined in another file
  const std::string all_here = source + "void App::later() {}\n";
  const LaunchesRead read = readLaunchSites(path, "app.hip", all_here, {}, false);
  EXPECT_EQ(read.block_sizes.at("by_shut"), 128);
  EXPECT_EQ(read.block_unread_line.at("by_open"), 7);
}

}  // namespace
}  // namespace regscope
