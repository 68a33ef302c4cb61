// The user's compiler flags, made to mean in regscope's private temporary
// directory what they mean where the user typed them: response files
// expanded, every path-bearing option made absolute, and the options that
// write files dropped (regscope's compile must write nothing outside its
// temporary directory). Options are recognised with Clang's own driver
// option table, so every spelling (-Idir, -I dir, --include-directory=dir,
// -iquote, -include, -imacros, ...) is covered.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Option/ArgList.h>

#include <string>
#include <vector>

namespace regscope {

// Expands @response files (relative to `base_dir`) and makes the values of
// path options absolute against `base_dir`. -include and -imacros FILE are
// made absolute only when `base_dir`/FILE exists: clang looks for them in the
// compile's working directory first, then through the -iquote/-I/-isystem/
// -idirafter path (never beside the main file), so one not found there is
// left as written for the search path. Throws regscope::Error for a
// response file that cannot be read.
std::vector<std::string> resolvePathFlags(const std::vector<std::string> &flags, const std::string &base_dir);

// Drops the options that choose outputs or write files (-o, --output=, -c,
// -S, -E, -M*, -MJ, -save-temps, -fsave-optimization-record, -ftime-trace,
// -gsplit-dwarf, -ftest-coverage, -fstack-usage, ...) and --offload-arch
// values, which it returns in `archs`.
std::vector<std::string> dropOutputFlags(const std::vector<std::string> &flags, std::vector<std::string> &archs);

// The directories the flags add to the include search, in the order clang
// searches them: -iquote, then -I (every spelling), -isystem, -idirafter.
std::vector<std::string> includeSearchDirectories(const std::vector<std::string> &flags);

// The flags that make the compiler run code whoever wrote them chose, one
// line each saying why: plugins (-fplugin=, -fpass-plugin=,
// --hipspv-pass-plugin=, -Xclang -load/-plugin/-add-plugin/-fpass-plugin=,
// also inside -Xarch_device, -Xarch_host, -Xarch_<arch>, -Xopenmp-target and
// nvcc's -Xcompiler), and the places programs and device libraries come from
// (-B and --prefix, --rocm-path, --hip-path, --hip-device-lib-path and
// --rocm-device-lib-path, --cuda-path, --ptxas-path, --gcc-toolchain,
// --ld-path, -fuse-ld=PATH, -ccc-install-dir, nvcc's -ccbin and
// --compiler-bindir) when that place, or a directory above it, belongs to
// another user than the one running regscope (or root) or others may write
// it. Every spelling Clang's driver accepts is recognised through its option
// table. The flags' paths must already be absolute (resolvePathFlags).
std::vector<std::string> codeLoadingFlags(const std::vector<std::string> &flags);

// "gfx90a,gfx908" (--offload-arch=A,B, as Makefiles write it) -> each target.
std::vector<std::string> splitArchList(const std::string &list);

// Whether a compile's flags say it compiles HIP: -x hip, an --offload-arch=
// (or its alias --cuda-gpu-arch=, or hipcc's "--offload-arch gfx90a") naming
// an AMD target (gfx*), or -D__HIP_PLATFORM_AMD__ (or the older
// __HIP_PLATFORM_HCC__). hipify keeps a source's .cu name, so these decide
// whether a .cu is HIP or CUDA. An -x other than hip (-x cuda) says it is not.
bool flagsSayHip(const std::vector<std::string> &flags);

// Whether `compiler` (a path or name) compiles HIP by itself: hipcc,
// amdclang++ or amdclang (ROCm's clang driver names).
bool isHipCompilerName(const std::string &compiler);

// Whether a compile database entry of `file` (as the entry names it) with this
// command line (the compiler first) compiles HIP: a .hip source, hipcc or
// amdclang++ as its compiler, or flags that say so (-x hip). A .cu source
// (hipify keeps the name) is HIP when its flags say so (flagsSayHip:
// --offload-arch=gfx*, -D__HIP_PLATFORM_AMD__, ...), CUDA otherwise.
bool commandCompilesHip(const std::string &file, const std::vector<std::string> &command_line);
// Whether it compiles CUDA: nvcc, -x cu/-x cuda, or a .cu that is not HIP.
bool commandCompilesCuda(const std::string &file, const std::vector<std::string> &command_line);

// The optimisation level the flags ask for ("-O3", "-O0", ...), or "" when none.
std::string optimizationFlag(const std::vector<std::string> &flags);

// `argv` parsed with Clang's driver option table as clang's own driver reads it when it is neither clang-cl
// nor DXC: cl's and DXC's /D, /I, /U, /wo..., Flang's and cc1's own options left out, so /work/a.hip or
// /Users/me/a.hip is read as a file, as clang does. With `cc1`, the compiler proper's options (what -Xclang
// passes on, what `clang -###` shows) instead.
llvm::opt::InputArgList parseClangArgs(llvm::ArrayRef<const char *> argv, unsigned &missing_index,
                                       unsigned &missing_count, bool cc1 = false);

}  // namespace regscope
