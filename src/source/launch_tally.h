// What the launches of one file say per kernel, gathered launch by launch and
// turned into a LaunchesRead the same way whoever read them (Clang's AST,
// launch_ast.cpp, or the lexer's fallback, launch_sites.cpp): the one constant
// all of a kernel's launches give, or the line of the first launch that gives
// none (or another value), which is then unknown, never a default.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "regscope/source/launch_sites.h"

namespace regscope::launch_detail {

class LaunchTally {
 public:
  // A launch at `line` of `kernel` with `threads` per block (none: not evaluated).
  void block(const std::string &kernel, std::optional<long> threads, int line) {
    record(block_, kernel, threads, line);
  }
  // The dynamic shared memory (LDS) bytes it passes (0 when it passes none).
  void dynamic(const std::string &kernel, std::optional<long> bytes, int line) {
    record(at_launch_, kernel, bytes, line);
  }
  // hip/cudaFuncSetAttribute(kernel, ...MaxDynamicSharedMemorySize, bytes).
  void attribute(const std::string &kernel, std::optional<long> bytes, int line) {
    record(by_attribute_, kernel, bytes, line);
  }
  LaunchesRead finish() const;

 private:
  struct Seen {
    std::optional<long> value;
    int first_line = 0;
    int unread_line = 0;
  };
  static void record(std::map<std::string, Seen> &into, const std::string &kernel, std::optional<long> v, int line);
  std::map<std::string, Seen> block_, at_launch_, by_attribute_;
};

// The lexer's reading of `source` (launch_sites.cpp): what readLaunches did before Clang's AST read it.
LaunchesRead readLaunchesLexed(std::string_view source, std::string_view headers);

// Whether `source` spells a launch (`<<<`, a launch or FuncSetAttribute call) outside comments and
// strings: a file that does not (a kernels-only file) is not parsed for none.
bool spellsLaunches(std::string_view source);

// The AST's reading (launch_ast.cpp): none when the translation unit could not be
// parsed, with the first error in `error`; `files_read` gets every header the parse opened.
std::optional<LaunchesRead> readLaunchesThroughAst(const std::string &path, std::string_view source,
                                                   const std::vector<std::string> &flags, bool cuda, std::string &error,
                                                   std::vector<std::string> *files_read = nullptr);

}  // namespace regscope::launch_detail
