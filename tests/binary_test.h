// A test that runs the regscope binary with hipcc in its own working
// directory, $TMPDIR and result cache, and checks after each test that
// nothing was left in the first two. Skips when no hipcc is installed.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "test_util.h"

namespace regscope::test {

class BinaryWithHipcc : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!haveHipcc()) GTEST_SKIP() << "hipcc is not installed: these tests compile with a HIP compiler";
    cwd_ = std::make_unique<TempDir>();
    tmp_ = std::make_unique<TempDir>();
    cache_ = std::make_unique<TempDir>();
  }
  // Every run must leave the working directory and $TMPDIR as it found them.
  void TearDown() override {
    if (!cwd_) return;
    EXPECT_TRUE(dirIsEmpty(cwd_->path())) << "files left in the working directory";
    EXPECT_TRUE(dirIsEmpty(tmp_->path())) << "files left in $TMPDIR";
  }
  RunResult run(const std::vector<std::string> &args) {
    return runRegscope(args, cwd_->path(), tmp_->path(), cache_->path());
  }
  std::unique_ptr<TempDir> cwd_, tmp_, cache_;
};

}  // namespace regscope::test
