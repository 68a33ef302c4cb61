// The optimisation level a report's figures are for, and who chose it (issue 30, item 4):
// each vendor's rule, the words, and one note per level. The end-to-end checks (analyze with a
// plain clang, collect of a CMake build without a build type) are scenario optimisation-level.sh.
#include <gtest/gtest.h>

#include "regscope/backend/backend.h"
#include "regscope/report/report.h"
#include "regscope/support/error.h"

namespace regscope {
namespace {

std::string said(const Optimisation &o) { return o.level + "/" + optimisationSourceName(o.source) + "/" + o.compiler; }

TEST(OptimisationLevel, EachVendorSaysWhoChoseTheLevel) {
  const Backend &amd = backendFor(Vendor::Amd);
  // hipcc adds -O3 itself; a plain clang compiles device code at -O0, and analyze adds -O3.
  EXPECT_EQ(said(amd.optimisation("/usr/bin/hipcc", {}, true)), "-O3/compiler_default/hipcc");
  EXPECT_EQ(said(amd.optimisation("/usr/lib/llvm-19/bin/clang++", {}, true)), "-O3/regscope/clang");
  EXPECT_EQ(said(amd.optimisation("/usr/lib/llvm-19/bin/clang++", {}, false)), "-O0/compiler_default/clang");
  // The last -O wins, as in clang.
  EXPECT_EQ(said(amd.optimisation("clang++", {"-O3", "-I", "inc", "-O1"}, false)), "-O1/flags/clang");
  const Backend &nvidia = backendFor(Vendor::Nvidia);
  EXPECT_EQ(said(nvidia.optimisation("nvcc", {"-O0"}, true)), "-O3/compiler_default/nvcc");  // -O is the host's
  EXPECT_EQ(said(nvidia.optimisation("nvcc", {"-G"}, true)), "-O0/flags/nvcc");
  EXPECT_EQ(said(nvidia.optimisation("nvcc", {"-Xptxas", "-O1"}, true)), "-O1/flags/nvcc");
  EXPECT_EQ(said(nvidia.optimisation("nvcc", {"--ptxas-options=-O2"}, true)), "-O2/flags/nvcc");
  const Backend &intel = backendFor(Vendor::Intel);
  EXPECT_EQ(said(intel.optimisation("ocloc", {"-options", "-cl-opt-disable"}, true)), "-O0/flags/ocloc");
}

TEST(OptimisationLevel, OneNoteWhenEveryInputSharesTheLevelElseOnePerLevel) {
  Report report;
  report.inputs = {"a.hip", "b.hip"};
  report.input_paths = {"/p/a.hip", "/p/b.hip"};
  const Optimisation added{"-O3", OptimisationSource::Regscope, "clang"};
  report.optimisation = {{"/p/a.hip", added}, {"/p/b.hip", added}};
  ASSERT_EQ(optimisationNotes(report).size(), 1u);
  EXPECT_EQ(optimisationNotes(report)[0].rfind("figures at -O3, which regscope adds", 0), 0u)
      << optimisationNotes(report)[0];
  report.optimisation["/p/b.hip"] = {"-O0", OptimisationSource::Flags, "clang"};
  const std::vector<std::string> two = optimisationNotes(report);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_NE(two[0].find("unoptimised"), std::string::npos) << two[0];
  EXPECT_EQ(two[0].substr(two[0].size() - 7), ": b.hip") << two[0];
  EXPECT_EQ(two[1].substr(two[1].size() - 7), ": a.hip") << two[1];
  // A parsed artifact records no level: nothing is said.
  report.optimisation.clear();
  EXPECT_TRUE(optimisationNotes(report).empty());
}

TEST(OptimisationLevel, TheJsonFormReadsBackAndRefusesAnUnknownSource) {
  const Optimisation o{"-O0", OptimisationSource::CompilerDefault, "clang"};
  EXPECT_EQ(said(optimisationFromJson(optimisationToJson(o))), "-O0/compiler_default/clang");
  nlohmann::json bad = optimisationToJson(o);
  bad["source"] = "guessed";
  EXPECT_THROW(optimisationFromJson(bad), Error);
}

}  // namespace
}  // namespace regscope
