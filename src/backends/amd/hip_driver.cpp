// Drives hipcc (or a HIP-capable clang++) once per source file.
//
// Flags: -Rpass-analysis=kernel-resource-usage for the remarks; an
// optimisation record restricted to that pass, so each arch's remarks land
// in their own .opt.yaml (stderr does not say which arch a remark is for);
// --cuda-device-only -S for the per-arch .s ("<stem>-hip-amdgcn-amd-amdhsa-
// <arch>.s", the names --save-temps gives them) and nothing after it: the host
// half, the assembler, the device link and the bundle carry no figures, and
// --save-temps would split the compile into separate preprocess, bitcode and
// backend runs written to disk (docs/benchmarks.md: about half the cost). No
// -o: with one, clang names a single .opt.yaml after it instead of one per arch.
// With -fgpu-rdc, -S writes LLVM IR (.ll) and no .s, as --save-temps -c
// writes bitcode: the figures exist only at the link, and the pipeline says so.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "regscope/backends/amd/driver.h"
#include "regscope/driver/driver.h"
#include "regscope/source/flags.h"
#include "regscope/support/depfile.h"
#include "regscope/support/error.h"
#include "regscope/support/files.h"
#include "regscope/support/process.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// "lbm-hip-amdgcn-amd-amdhsa-gfx90a.s" -> "gfx90a" (empty if not a device file)
std::string archOfTemp(const std::string &file, const std::string &suffix) {
  static const std::string marker = "-hip-amdgcn-amd-amdhsa-";
  if (file.size() <= suffix.size() || file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0) return "";
  std::size_t at = file.rfind(marker);
  if (at == std::string::npos) return "";
  return file.substr(at + marker.size(), file.size() - suffix.size() - at - marker.size());
}

}  // namespace

std::string findHipCompiler(const std::string &explicit_path) {
  if (!explicit_path.empty()) return requireExecutable(explicit_path, "--compiler " + explicit_path);
  if (const char *env = std::getenv("HIPCC"); env && *env) return requireExecutable(env, std::string("HIPCC=") + env);
  std::string found = searchPath("hipcc");
  if (found.empty())
    throw Error("compiler not found: no hipcc on PATH (install hipcc, or pass --compiler or set HIPCC)");
  return found;
}

CompileOutput compileHip(const CompileJob &job) {
  // -nogpulib alone turns library calls into external calls; with -nogpuinc
  // (no HIP headers, so no library calls) the code is self-contained.
  const bool nogpuinc = std::find(job.extra_flags.begin(), job.extra_flags.end(), "-nogpuinc") != job.extra_flags.end();
  for (const std::string &flag : job.extra_flags)
    if (flag == "-nogpulib" && !nogpuinc)
      throw Error(
          "refusing -nogpulib: without the device libraries every math call becomes an external call and "
          "the register figures are wrong (install the arch's ROCm device libraries instead)");
  TempDir dir;
  CompileOutput out;
  out.argv = {job.compiler};
  for (const std::string &arch : job.archs) out.argv.push_back("--offload-arch=" + arch);
  const bool full = job.depth == CompileDepth::Full;
  for (const char *flag : {"-Rpass-analysis=kernel-resource-usage", "-fsave-optimization-record",
                           "-foptimization-record-passes=kernel-resource-usage", "--cuda-device-only"})
    out.argv.push_back(flag);
  if (full) out.argv.push_back("--save-temps");
  const bool hipcc = fs::path(job.compiler).filename().string().find("hipcc") != std::string::npos;
  if (hipcc) {
    out.argv.push_back(full ? "-c" : "-S");
  } else {
    // A plain clang driver (e.g. /usr/lib/llvm-19/bin/clang++): HIP mode, and
    // Debian's ROCm layout unless the user names one. Without an ld.lld of
    // its own version beside it, -c would fail at the device link: -S gives
    // the same .s and remarks.
    out.argv.insert(out.argv.end(), {"-x", "hip"});
    auto userGave = [&](const std::string &prefix) {
      return std::any_of(job.extra_flags.begin(), job.extra_flags.end(),
                         [&](const std::string &f) { return f.rfind(prefix, 0) == 0; });
    };
    const char *debian_bitcode = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode";
    std::error_code ec;
    if (!userGave("--rocm-path") && fs::exists("/usr/include/hip/hip_runtime.h", ec))
      out.argv.push_back("--rocm-path=/usr");
    if (!userGave("--rocm-device-lib-path") && fs::is_directory(debian_bitcode, ec))
      out.argv.push_back(std::string("--rocm-device-lib-path=") + debian_bitcode);
    // A Debian name (/usr/bin/clang++-19) links to the real driver
    // (/usr/lib/llvm-19/bin/clang++): only an ld.lld beside that one is its version.
    std::error_code real_ec;
    const fs::path real = fs::canonical(job.compiler, real_ec);
    const fs::path driver = real_ec ? fs::path(job.compiler) : real;
    const bool has_lld = fs::exists(driver.parent_path() / "ld.lld", ec);
    out.argv.front() = driver.string();
    out.argv.push_back(full && has_lld ? "-c" : "-S");
    // hipcc adds -O3 when no -O is given; a plain clang compiles device code
    // at -O0. The figures users want are those of an optimised build.
    if (optimizationFlag(job.extra_flags).empty()) out.argv.push_back("-O3");
  }
  out.argv.insert(out.argv.end(), job.extra_flags.begin(), job.extra_flags.end());
  // The files the compile reads, for the result cache.
  const std::string deps_path = (fs::path(dir.path()) / "regscope.deps").string();
  if (job.dependencies)
    for (const std::string &flag : {std::string("-MD"), std::string("-MF"), deps_path}) out.argv.push_back(flag);
  out.argv.push_back(job.source);

  const ProcessOutput run = runCaptured(out.argv, dir.path(), job.timeout_seconds, dir.asTmpdir());
  out.exit_code = run.exit_code;
  out.diagnostics = run.out + run.err;
  out.dependencies = parseDependencyFile(readFileIfExists(deps_path).value_or(""));

  std::error_code ec;
  for (const fs::directory_entry &entry : fs::directory_iterator(dir.path(), ec)) {
    const std::string file = entry.path().filename().string();
    if (std::string arch = archOfTemp(file, ".s"); !arch.empty()) {
      ArchOutput *slot = nullptr;
      for (ArchOutput &a : out.archs)
        if (a.arch == arch) slot = &a;
      if (!slot) {
        ArchOutput fresh;
        fresh.arch = arch;
        out.archs.push_back(std::move(fresh));
        slot = &out.archs.back();
      }
      slot->assembly = readFile(entry.path().string());
      std::string yaml_name = file.substr(0, file.size() - 2) + ".opt.yaml";
      slot->remarks_yaml = readFileIfExists((fs::path(dir.path()) / yaml_name).string()).value_or("");
    }
  }
  // Archs in the order the user asked for them.
  auto rank = [&](const ArchOutput &a) {
    return std::find(job.archs.begin(), job.archs.end(), a.arch) - job.archs.begin();
  };
  std::stable_sort(out.archs.begin(), out.archs.end(),
                   [&](const ArchOutput &a, const ArchOutput &b) { return rank(a) < rank(b); });
  return out;
}

}  // namespace regscope
