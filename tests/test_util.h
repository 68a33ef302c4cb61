// Helpers shared by the tests: fixture paths and running the real binary.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "regscope/backends/amd/driver.h"
#include "regscope/backends/nvidia/driver.h"
#include "regscope/collect/kernel_record.h"
#include "regscope/driver/driver.h"
#include "regscope/support/process.h"

namespace regscope::test {

inline std::string sourcePath(const std::string &relative) { return std::string(REGSCOPE_SOURCE_DIR) + "/" + relative; }

// The kernel called `name` in a parsed set, or null.
inline const KernelFacts *find(const FactSet &set, const std::string &name) {
  for (const KernelFacts &k : set.kernels)
    if (k.name == name) return &k;
  return nullptr;
}

inline std::string readText(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("missing test file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string fixture(const std::string &relative) { return readText(sourcePath("fixtures/" + relative)); }

using RunResult = ProcessOutput;  // exit_code, out, err

// Runs the regscope binary with `args` in `cwd`, $TMPDIR set to `tmpdir` and
// the result cache in `cache` (never the user's).
inline RunResult runRegscope(const std::vector<std::string> &args, const std::string &cwd, const std::string &tmpdir,
                             const std::string &cache, const std::vector<std::string> &environment = {}) {
  std::vector<std::string> argv = {"/usr/bin/env", "TMPDIR=" + tmpdir, "XDG_CACHE_HOME=" + cache};
  argv.insert(argv.end(), environment.begin(), environment.end());
  argv.push_back(REGSCOPE_BINARY);
  argv.insert(argv.end(), args.begin(), args.end());
  return runCaptured(argv, cwd);
}

inline bool haveHipcc() {
  try {
    findHipCompiler("");
    return true;
  } catch (...) {
    return false;
  }
}

inline bool haveNvcc() {
  try {
    findNvcc("");
    return true;
  } catch (...) {
    return false;
  }
}

inline bool dirIsEmpty(const std::string &dir) { return std::filesystem::is_empty(std::filesystem::path(dir)); }

}  // namespace regscope::test
