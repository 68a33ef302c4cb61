// The source stage: what to compile, with which flags. Files come from the
// command line, or from a compile database (compile_commands.json) read with
// Clang's compilation-database library.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace regscope {

struct SourceJob {
  std::string file;                // as the user should read it
  std::string path;                // absolute
  std::vector<std::string> flags;  // compile flags, paths made absolute, output flags removed
  std::vector<std::string> archs;  // --offload-arch values found in the flags (removed from them)
  std::string compiler;            // from the database entry; empty: the default
  int variant = 0;                 // the Nth entry of the same file with other flags (2, 3, ...); 0: the only one
  // Compiled in place of the file's bytes, under the file's own name (advise's
  // edited copies; hipcc/clang only); none: the file as it is.
  std::optional<std::string> edited_text;
};

// The entries of a compile database that a run compiles, as its backend picks
// them (Backend::databaseEntries: HIP ones for AMD, CUDA ones for NVIDIA).
struct DatabaseEntries {
  // Whether the entry of `file` (as the entry names it) with this command line (the compiler first) is compiled.
  std::function<bool(const std::string &file, const std::vector<std::string> &command_line)> compiles;
  std::string kind;       // the entries' language in errors: "not a KIND entry of the compile database"
  std::string when_none;  // added to "the compile database has no KIND entries"
};

// Jobs for plain files: no flags of their own.
std::vector<SourceJob> jobsForFiles(const std::vector<std::string> &files);

// Jobs from a compile database. `database` is compile_commands.json or a
// directory searched upwards for one (as clang-tidy's -p); `files` restricts
// the run to those entries (all of `entries` when empty). Throws
// regscope::Error when no database is found, or it has none of `entries`, or a
// named file is not one of them.
// An entry of a file with other flags than an earlier one is a job of its own.
std::vector<SourceJob> jobsFromDatabase(const std::string &database, const std::vector<std::string> &files,
                                        const DatabaseEntries &entries);

// The jobs of a compile database's text (`path` names it in errors). The text
// is checked as JSON first and handed to Clang's loader in a canonical form:
// Clang reads it with LLVM's YAML parser, which prints multi-line diagnostics
// on stderr for what it cannot parse; regscope says one line instead.
std::vector<SourceJob> jobsFromDatabaseText(std::string_view text, const std::string &path,
                                            const std::vector<std::string> &files, const DatabaseEntries &entries);

// A database entry's argv as regscope compiles it (exposed for tests):
// drops the compiler, -c, -o, dependency-file and save-temps flags and the
// source itself; makes include paths absolute against `directory`; moves
// --offload-arch values out into `archs`.
std::vector<std::string> cleanCompileFlags(const std::vector<std::string> &argv, const std::string &directory,
                                           const std::string &source, std::vector<std::string> &archs);

}  // namespace regscope
