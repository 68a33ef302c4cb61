// Helpers the advise tests share: inputs as the CLI builds them, files that
// must not change, and `git apply` on a scratch tree.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "regscope/advise/advise.h"
#include "regscope/pipeline/analyze.h"
#include "test_util.h"

namespace regscope::test {

// `text` with `from` (present exactly once) replaced by `to`.
inline std::string replaceOnce(std::string text, const std::string &from, const std::string &to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos || text.find(from, at + 1) != std::string::npos)
    throw std::runtime_error("test: '" + from + "' is not in the text exactly once");
  return text.replace(at, from.size(), to);
}

inline void writeText(const std::string &path, const std::string &text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// A file's bytes and mtime, to prove advise never touched it.
struct FileState {
  std::string bytes;
  struct timespec mtime {};
};
inline FileState stateOf(const std::string &path) {
  FileState s;
  s.bytes = readText(path);
  struct stat st {};
  stat(path.c_str(), &st);
  s.mtime = st.st_mtim;
  return s;
}
inline void expectUnchanged(const FileState &before, const std::string &path) {
  const FileState now = stateOf(path);
  EXPECT_EQ(now.bytes, before.bytes) << path << " was modified";
  EXPECT_EQ(now.mtime.tv_sec, before.mtime.tv_sec) << path << "'s mtime changed";
  EXPECT_EQ(now.mtime.tv_nsec, before.mtime.tv_nsec) << path << "'s mtime changed";
}

// `git apply [--check] PATCH` in `tree`; "" when it succeeds, else what git said.
inline std::string applyWithGit(const std::string &tree, const std::string &patch, bool check_only) {
  std::vector<std::string> argv = {"git", "apply"};
  if (check_only) argv.push_back("--check");
  argv.push_back(patch);
  const ProcessOutput run = runCaptured(argv, tree);
  return run.exit_code == 0 ? "" : "git apply failed: " + run.err + run.out;
}

// What `regscope advise PATH --offload-arch gfx90a -j 2 -- flags` hands the
// stage, without the result cache (the caller may set one).
inline AdviseInput adviseInputFor(const std::string &path, std::vector<std::string> flags = {}) {
  AdviseInput in;
  in.job = jobsForFiles({path}).front();
  in.options.archs = {"gfx90a"};
  in.options.extra_flags = std::move(flags);
  in.options.parallel = 2;
  return in;
}

}  // namespace regscope::test
