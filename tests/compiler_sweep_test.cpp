// Compiler-compatible figures, proven against the compilers themselves.
// Generated kernels pin their VGPR, AGPR, SGPR and LDS use with inline-asm
// clobbers (asm volatile("" ::: "v95") forces 96 VGPRs) and their workgroup
// size with amdgpu_flat_work_group_size. Each installed compiler builds them
// for every arch it knows; regscope's model of that compiler, fed only the
// resource figures the compiler reported, must print the same occupancy.
//
// The fast subset runs in the suite. REGSCOPE_FULL_SWEEP=1 runs the full grid
// (scripts/compiler-sweep.sh records it in docs/compiler-sweep.md).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "regscope/backends/amd/amdgpu_occupancy.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/target/amdgpu.h"
#include "test_util.h"

namespace regscope {
namespace {

struct Config {
  int vgprs, agprs, sgprs, lds, workgroup;
};

std::vector<Config> configs(bool full) {
  std::vector<Config> out;
  std::vector<int> vgprs, lds = {0, 40960}, workgroups = {64, 1024};
  if (full) {
    for (int v = 1; v <= 256; ++v) vgprs.push_back(v);
    lds = {0, 2048, 6144, 16384, 32769, 65536};
    workgroups = {64, 256, 1024};
  } else {
    vgprs = {24, 33, 48, 64, 65, 96, 97, 128, 129, 168, 169, 256};
  }
  for (int v : vgprs)
    for (int l : lds)
      for (int w : workgroups)
        if (full ? (v % 8 == 0 || l == 0) : true) out.push_back({v, 0, 0, l, w});
  for (int a : {32, 64, 128})
    for (int v : {32, 70, 128}) out.push_back({v, a, 0, 0, 256});  // AGPRs (MAI targets only)
  for (int s : {80, 88, 96, 101}) out.push_back({16, 0, s, 0, 256});
  return out;
}

// Self-contained HIP: no headers (-nogpuinc), so no device-library calls.
std::string kernelSource(const std::vector<Config> &cs) {
  std::ostringstream src;
  src << "#if defined(__gfx908__) || defined(__gfx90a__) || defined(__gfx940__) || defined(__gfx942__)\n"
         "#define MAI 1\n#endif\n";
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const Config &c = cs[i];
    src << "extern \"C\" __attribute__((global)) __attribute__((amdgpu_flat_work_group_size(1, " << c.workgroup
        << "))) void k" << i << "(int *out) {\n  unsigned t = __builtin_amdgcn_workitem_id_x();\n";
    if (c.lds) {
      src << "  static __attribute__((shared)) char lds[" << c.lds << "];\n  lds[t % " << c.lds
          << "] = (char)t;\n  __builtin_amdgcn_s_barrier();\n  out[t] = lds[(t + 1) % " << c.lds << "];\n";
    } else {
      src << "  out[t] = t;\n";
    }
    src << "  asm volatile(\"\" ::: \"v" << c.vgprs - 1 << "\"";
    if (c.sgprs) src << ", \"s" << c.sgprs - 1 << "\"";
    src << ");\n";
    if (c.agprs) src << "#ifdef MAI\n  asm volatile(\"\" ::: \"a" << c.agprs - 1 << "\");\n#endif\n";
    src << "}\n";
  }
  return src.str();
}

struct Sweep {
  int compared = 0, agreed = 0;
  std::vector<std::string> mismatches;
};

// Compiles the kernels with `compiler` for `archs` and checks every one.
void sweep(const std::string &compiler, const std::vector<std::string> &archs, const std::vector<std::string> &flags,
           const std::vector<Config> &cs, Sweep &result) {
  TempDir dir;
  const std::string file = dir.path() + "/sweep.hip";
  std::ofstream(file) << kernelSource(cs);
  AnalyzeOptions options;
  options.compiler = compiler;
  options.archs = archs;
  options.archs_explicit = true;
  options.extra_flags = {"-nogpulib", "-nogpuinc", "-O2"};
  options.extra_flags.insert(options.extra_flags.end(), flags.begin(), flags.end());
  Report report = analyzeFiles({file}, options);
  const CompilerModel model = compilerModelFor(report.compiler_version);
  ASSERT_NE(model, CompilerModel::Hardware) << "unknown compiler " << report.compiler_version;
  for (const KernelReport &k : report.kernels) {
    const KernelRecord &r = k.record;
    if (!r.has(Field::CompilerOccupancy)) continue;
    const AmdArch arch = configureArch(*findAmdArch(r.arch), static_cast<int>(r.value(Field::WaveSize)),
                                       r.has(Field::WgpMode) && r.value(Field::WgpMode) == 0);
    KernelResources resources;  // only what the compiler reported
    resources.vgprs = static_cast<int>(r.value(Field::Vgprs));
    resources.agprs = static_cast<int>(r.value(Field::Agprs));
    resources.vgprs_total = static_cast<int>(r.value(Field::VgprsTotal));
    resources.sgprs = static_cast<int>(r.value(Field::Sgprs));
    resources.lds_bytes = static_cast<int>(r.value(Field::LdsBytes));
    resources.workgroup_size = static_cast<int>(r.value(Field::MaxWorkgroupSize));
    const int ours = computeOccupancyAs(arch, resources, model).waves_per_simd;
    const int theirs = static_cast<int>(r.value(Field::CompilerOccupancy));
    ++result.compared;
    if (ours == theirs)
      ++result.agreed;
    else if (result.mismatches.size() < 20)
      result.mismatches.push_back(report.compiler_version + " " + r.arch + " w" + std::to_string(arch.wave_size) + " " +
                                  r.name + ": vgprs " + std::to_string(resources.vgprs_total) + " sgprs " +
                                  std::to_string(resources.sgprs) + " lds " + std::to_string(resources.lds_bytes) +
                                  " wg " + std::to_string(resources.workgroup_size) + ": compiler " +
                                  std::to_string(theirs) + ", regscope " + std::to_string(ours));
  }
}

TEST(CompilerSweep, RegscopeReproducesEveryPrintedOccupancy) {
  const bool full = std::getenv("REGSCOPE_FULL_SWEEP") != nullptr;
  const std::vector<Config> cs = configs(full);
  Sweep result;
  struct Run {
    std::string compiler;
    std::vector<std::string> archs, flags;
  };
  std::vector<Run> runs;
  if (test::haveHipcc()) {  // LLVM 15
    // LLVM 15 knows gfx940 but not gfx941/gfx942 yet.
    runs.push_back({"", {"gfx906", "gfx908", "gfx90a", "gfx940", "gfx1030", "gfx1100", "gfx1101", "gfx1102"}, {}});
    runs.push_back({"", {"gfx1030", "gfx1100"}, {"-mwavefrontsize64"}});
  }
  const std::string clang19 = "/usr/lib/llvm-19/bin/clang++";
  if (std::filesystem::exists(clang19)) {  // LLVM 19
    runs.push_back({clang19,
                    {"gfx906", "gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx1030", "gfx1100", "gfx1101",
                     "gfx1102", "gfx1200"},
                    {}});
    runs.push_back({clang19, {"gfx1030", "gfx1100"}, {"-mwavefrontsize64"}});
  }
  if (runs.empty()) GTEST_SKIP() << "neither hipcc nor clang-19 is installed";
  for (const Run &run : runs) sweep(run.compiler, run.archs, run.flags, cs, result);
  std::cout << (full ? "full" : "fast") << " sweep: " << result.agreed << " of " << result.compared
            << " printed occupancies reproduced (" << cs.size() << " kernels x " << runs.size() << " runs)\n";
  for (const std::string &m : result.mismatches) std::cout << "  mismatch: " << m << "\n";
  EXPECT_GT(result.compared, 200);
  EXPECT_EQ(result.agreed, result.compared);
}

}  // namespace
}  // namespace regscope
