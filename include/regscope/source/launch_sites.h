// The block sizes a translation unit launches its kernels with, where they
// are constants in the same file: `k<<<grid, 256>>>`, `k<<<g, dim3(B)>>>`,
// `hipLaunchKernelGGL(k, grid, dim3(BLOCK), ...)`, with BLOCK a literal, a
// `#define` or a `const`/`constexpr` integer of the file. Read with Clang's raw
// lexer, so comments and strings never match.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace regscope {

// Kernel (bare function name) -> the threads per block of its launches, for
// kernels whose every launch in `source` has the same constant block size.
std::map<std::string, int> findLaunchBlockSizes(std::string_view source);

// The dynamic shared memory (LDS) a kernel is launched with, where it is a
// constant in the same file: `k<<<grid, block, SHMEM>>>`,
// `hipLaunchKernelGGL(k, grid, block, SHMEM, stream, ...)`, SHMEM a literal, a
// constant as above, `sizeof(T)` of a built-in type, or a product of those
// (`sizeof(float) * BLOCK`). When a launch's value is not such a constant, a
// `hipFuncSetAttribute`/`cudaFuncSetAttribute(k, ...MaxDynamicSharedMemorySize,
// N)` with a constant N in the file gives it (the most the kernel may be
// launched with). Values above kMaxDynamicSharedRead are not figures: left out.
struct DynamicSharedAt {
  long bytes = 0;
  bool from_attribute = false;  // from hip/cudaFuncSetAttribute, not the launch itself
};
inline constexpr long kMaxDynamicSharedRead = 1L << 20;  // 1 MiB: more than any GPU's LDS per workgroup
std::map<std::string, DynamicSharedAt> findLaunchDynamicShared(std::string_view source);

// Everything the launches in one file say, and where they say nothing
// regscope can evaluate. Sizes are read as integer expressions (+ - * / %,
// parentheses, sizeof of a built-in type, dim3(x, y, z)) over literals and
// the names the file gives exactly one value and never changes (#define,
// const/constexpr, a local or member assigned once, dim3 NAME(...)); a name
// changed, given two values or whose address is taken is not a constant.
struct LaunchesRead {
  std::map<std::string, int> block_sizes;                 // findLaunchBlockSizes
  std::map<std::string, DynamicSharedAt> dynamic_shared;  // findLaunchDynamicShared
  // Kernel -> the line of a launch whose block size (dynamic LDS) is not a
  // constant, differs from another launch's, or is no size (0, over 1024):
  // the launch is unknown, never a default.
  std::map<std::string, int> block_unread_line;
  std::map<std::string, int> dynamic_unread_line;
  // What the reading assumed or could not do, one line each, for the run's
  // notes: the AST could not be built (the lexer read the file instead), or a
  // size was read from a variable whose address is taken.
  std::vector<std::string> notes;
};
// `headers`: the text of the headers the source includes with quotes
// (quotedIncludes), whose names with one value (`constexpr int BS = 16;`,
// `#define BS 16`) the launches may use; a name the source itself assigns or
// changes is the source's.
LaunchesRead readLaunches(std::string_view source, std::string_view headers = {});

// The launches of the translation unit at `path` (its text `source`, which may
// be an edited copy), read through Clang's AST: the file's host side parsed
// in-process as its compile parses it (the include and macro flags of
// `flags`, HIP's headers or, with `cuda`, CUDA's), and each launch's block
// and dynamic shared memory evaluated by Clang's constant evaluator, with
// locals, globals and members given one constant value and never changed
// otherwise (ExprMutationAnalyzer), `dim3 b(x, y)` locals, template
// arguments, macros, sizeof of any type and constexpr functions. Read:
// `k<<<g, b, shmem>>>` (and hipLaunchKernelGGL, a macro over it),
// hipLaunchKernel/cudaLaunchKernel, hip/cudaLaunchKernelEx (block unknown:
// its config is not read) and hip/cudaFuncSetAttribute's
// MaxDynamicSharedMemorySize. When the AST cannot be built (a header missing,
// a parse error, CUDA's headers that Clang 15 cannot parse), the lexer's
// reading (readLaunches with quotedIncludes) and a note naming `display` and
// the first error. .cl and .spv files have no launches to read: the lexer's.
// `files_read`, when given, gets every header the AST's parse opened (empty
// when the lexer read the file: such a reading is not worth keeping).
LaunchesRead readLaunchSites(const std::string &path, const std::string &display, std::string_view source,
                             const std::vector<std::string> &flags, bool cuda,
                             std::vector<std::string> *files_read = nullptr);

// LaunchesRead as JSON and back, for the result cache (analyze keeps a file's
// reading with the headers its parse read: a cache hit does not parse again).
// launchesFromJson throws std::exception on anything else.
nlohmann::json launchesToJson(const LaunchesRead &read);
LaunchesRead launchesFromJson(const nlohmann::json &j);

// The text of the headers `source` (at `path`) includes with quotes
// (`#include "matmul.hpp"`), found as the compiler finds them: beside the
// source, then the flags' include directories; one level deep, each at most
// 1 MiB, regular files only. Empty when there are none.
std::string quotedIncludes(const std::string &path, std::string_view source, const std::vector<std::string> &flags);
// Whether `source` spells a kernel: a `__global__` (CUDA, HIP) or `__kernel`
// (OpenCL) token outside comments, strings and preprocessor lines. A compile
// of such a file that reports no kernel lost them.
bool definesKernels(std::string_view source);

}  // namespace regscope
