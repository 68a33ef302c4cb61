// The optimisation level a report's figures are for, and who chose it (issue 30, item 4):
// each vendor's rule, the words, and one note per level. The end-to-end checks (analyze with a
// plain clang, collect of a CMake build without a build type) are scenario optimisation-level.sh.
#include <gtest/gtest.h>

#include "regscope/backend/backend.h"
#include "regscope/report/report.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"
#include "test_util.h"

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

namespace regscope {
namespace {

// The compiler-difference note names the term that differs (issue 30, item 9). It said "LLVM 15
// does not spread ... in its LDS/workgroup term" on kernels with no LDS, where the difference is the
// whole-workgroup rounding of the VGPR term. Real output: hipcc 5.2.3's wideload.s for gfx90a
// (`; Occupancy: 7`, no LDS) and the probe for gfx908 (1024 threads: 8 waves/SIMD at most).
std::string compilerNote(const std::string &fixture, const std::string &kernel) {
  TempDir tmp, cache;
  const test::RunResult r =
      test::runRegscope({"parse", test::sourcePath(fixture), "--format", "json"}, tmp.path(), tmp.path(), cache.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.out);  // held: a range over a temporary's member dangles
  for (const nlohmann::json &k : report["kernels"])
    if (k["demangled"].get<std::string>().rfind(kernel + "(", 0) == 0 && k["occupancy"].contains("explanation"))
      return k["occupancy"]["explanation"];
  return "";
}

TEST(CompilerNote, NamesTheTermThatDiffersAndEachCauseOnce) {
  const std::string wide = compilerNote("fixtures/hipcc-5.2.3/lines/wideload-gfx90a.s", "max_baseline");
  EXPECT_NE(wide.find("its VGPR and SGPR terms give 7, the hardware's 4"), std::string::npos) << wide;
  EXPECT_EQ(wide.find("LDS"), std::string::npos) << wide;
  // gfx908: whole workgroups cap every term at 8; said once, not once per term.
  const std::string capped = compilerNote("fixtures/hipcc-5.2.3/probe-gfx908.s", "capped");
  EXPECT_NE(capped.find("8 waves/SIMD at most"), std::string::npos) << capped;
  EXPECT_EQ(capped.find("term gives"), std::string::npos) << capped;
  // An LDS-bound kernel: the LLVM 15 LDS/workgroup term, as before.
  const std::string lds = compilerNote("fixtures/hipcc-5.2.3/probe-gfx90a.s", "lds_heavy");
  EXPECT_NE(lds.find("its LDS/workgroup term gives 8, the hardware's 4: LLVM 15 does not spread"), std::string::npos)
      << lds;
}

}  // namespace
}  // namespace regscope
