// What the compiling commands' options mean, without the binary
// (pipeline/sources.h): the config in force, the flags after --, the archs,
// the jobs, and the files a run reads; the per-file error lines
// (report/errors.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "regscope/pipeline/sources.h"
#include "regscope/report/errors.h"
#include "regscope/source/header_files.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// Collects what the library says, as the command line would print it.
struct Said {
  std::vector<std::string> warnings, notes;
  Messages messages() {
    return {[this](const std::string &t) { warnings.push_back(t); }, [](const std::string &) {},
            [this](const std::string &t) { notes.push_back(t); }, [](const std::string &) {}};
  }
};

// A scratch directory with a .git (so the config search stops there).
struct Repo {
  TempDir dir;
  Repo() { fs::create_directory(dir.path() + "/.git"); }
  std::string write(const std::string &name, const std::string &text) const {
    const std::string path = dir.path() + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
};

TEST(SourceRequest, OffloadArchAmongTheFlagsReplacesTheDefaultArch) {
  Repo repo;
  Said said;
  SourceRequest request;
  request.analyze.archs = {"gfx90a"};  // the default, as the command line sets it
  request.command_line_flags = {"--offload-arch=gfx942", "-DN=64"};
  prepareSources(request, repo.dir.path(), said.messages());
  EXPECT_EQ(request.analyze.archs, std::vector<std::string>{"gfx942"});
  EXPECT_TRUE(request.analyze.archs_explicit);
  EXPECT_EQ(request.analyze.extra_flags, std::vector<std::string>{"-DN=64"});
  EXPECT_TRUE(request.config_in_force.empty());
}

TEST(SourceRequest, AGivenOffloadArchKeepsItsArchAndAddsTheFlagsOnes) {
  Repo repo;
  Said said;
  SourceRequest request;
  request.analyze.archs = {"gfx908"};
  request.archs_given = true;
  request.command_line_flags = {"--offload-arch=gfx90a"};
  prepareSources(request, repo.dir.path(), said.messages());
  EXPECT_EQ(request.analyze.archs, (std::vector<std::string>{"gfx908", "gfx90a"}));
}

TEST(SourceRequest, TheConfigsArchsAndFlagsApplyWhenNoArchIsAsked) {
  Repo repo;
  const std::string config =
      repo.write(".regscope.json", R"({"version": 1, "archs": ["gfx1100"], "compiler_flags": ["-O2"]})");
  Said said;
  SourceRequest request;
  request.analyze.archs = {"gfx90a"};
  request.analyze.verbose = true;
  request.command_line_flags = {"-DX=1"};
  prepareSources(request, repo.dir.path(), said.messages());
  EXPECT_EQ(request.analyze.archs, std::vector<std::string>{"gfx1100"});
  EXPECT_EQ(request.analyze.extra_flags, (std::vector<std::string>{"-O2", "-DX=1"}));  // the config's first
  EXPECT_EQ(request.config_in_force, config);
  EXPECT_EQ(said.notes, std::vector<std::string>{"using config " + config});
}

TEST(SourceRequest, VerboseSaysWhenThereIsNoConfig) {
  Repo repo;
  Said said;
  SourceRequest request;
  request.analyze.verbose = true;
  prepareSources(request, repo.dir.path(), said.messages());
  EXPECT_EQ(said.notes, std::vector<std::string>{"no config file"});
}

TEST(SourceJobs, OnlyHeadersGiveNoJobsAndAWarningEach) {
  Said said;
  SourceRequest request;
  request.files = {"kernels.cuh", "common.hpp"};
  EXPECT_TRUE(sourceJobs(request, said.messages()).empty());
  EXPECT_EQ(said.warnings,
            (std::vector<std::string>{"skipping header kernels.cuh (checked through the sources that include it)",
                                      "skipping header common.hpp (checked through the sources that include it)"}));
}

TEST(SourceJobs, ACudaSourceIsRefusedUntilItsTargetsOrHipAreNamed) {
  Said said;
  SourceRequest request;
  request.files = {"saxpy.cu"};
  try {
    sourceJobs(request, said.messages());
    FAIL() << "a .cu with no target named was accepted";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()).rfind("saxpy.cu is a CUDA source: analyse it with nvcc", 0), 0u) << e.what();
  }
  request.command_line_flags = {"-x", "hip"};  // hipify keeps .cu names: the flags say HIP
  EXPECT_EQ(sourceJobs(request, said.messages()).size(), 1u);
}

TEST(SourceJobs, NoFilesAndNoDatabaseIsAnError) {
  Said said;
  SourceRequest request;
  EXPECT_THROW(sourceJobs(request, said.messages()), Error);
}

TEST(SourceJobs, GrfBothCompilesSmallAndLarge) {
  EXPECT_EQ(grfModesFor("both"), (std::vector<GrfMode>{GrfMode::Small, GrfMode::Large}));
  EXPECT_EQ(grfModesFor("large"), std::vector<GrfMode>{GrfMode::Large});
  EXPECT_EQ(grfModesFor("small"), std::vector<GrfMode>{GrfMode::Small});
}

TEST(InputPaths, NameTheFilesTheConfigAndEveryDatabaseCandidate) {
  Repo repo;
  const std::string config = repo.write(".regscope.json", R"({"version": 1})");
  SourceRequest request;
  request.files = {"a.hip"};
  request.database = repo.dir.path() + "/build";
  const std::vector<std::string> inputs = inputPaths(request, repo.dir.path());
  ASSERT_GE(inputs.size(), 5u);
  EXPECT_EQ(inputs[0], "a.hip");
  EXPECT_EQ(inputs[1], config);
  EXPECT_EQ(inputs[2], repo.dir.path() + "/build");
  EXPECT_EQ(inputs[3], repo.dir.path() + "/build/compile_commands.json");
  EXPECT_EQ(inputs[4], repo.dir.path() + "/compile_commands.json");
  EXPECT_EQ(inputs.back(), "/compile_commands.json");  // searched up to the root
}

// fixtures/hipcc-5.2.3/lbm.remarks-nosavetemps.txt: hipcc 5.2.3's
// -Rpass-analysis=kernel-resource-usage remarks for the LBM kernel, one arch.
TEST(LogsReport, NeedsTheOneArchTheLogWasBuiltFor) {
  Said said;
  SourceRequest request;
  request.analyze.archs = {"gfx90a"};  // the default: not named
  const std::vector<std::string> logs = {test::sourcePath("fixtures/hipcc-5.2.3/lbm.remarks-nosavetemps.txt")};
  EXPECT_THROW(logsReport(logs, request, said.messages()), Error);
  request.analyze.archs = {"gfx90a", "gfx908"};
  request.analyze.archs_explicit = true;
  EXPECT_THROW(logsReport(logs, request, said.messages()), Error);
  request.analyze.archs = {"gfx90a"};
  const Report report = logsReport(logs, request, said.messages());
  ASSERT_EQ(report.kernels.size(), 1u);
  EXPECT_EQ(report.kernels.front().record.arch, "gfx90a");
  EXPECT_EQ(report.kernels.front().record.demangled.rfind("kernel(double*", 0), 0u);
}

TEST(AdviseJob, TakesOneAmdSourceOnly) {
  Said said;
  SourceRequest request;
  request.files = {"a.hip", "b.hip"};
  EXPECT_THROW(adviseJob(request, said.messages()), Error);
  request.files = {"a.hip"};
  request.analyze.cuda_archs = {"sm_90"};
  EXPECT_THROW(adviseJob(request, said.messages()), Error);
  request.analyze.cuda_archs.clear();
  request.files = {"a.h"};
  EXPECT_THROW(adviseJob(request, said.messages()), Error);
}

TEST(HeaderFiles, AreKnownByTheirExtension) {
  for (const char *header : {"a.h", "a.hh", "a.hpp", "a.hxx", "a.cuh", "a.inl", "a.inc"}) EXPECT_TRUE(isHeader(header));
  for (const char *source : {"a.hip", "a.cu", "a.cpp", "a.cl", "h"}) EXPECT_FALSE(isHeader(source));
}

// The messages below are regscope's input (the compiler's first error line
// as analyzeJobs records it); written here by hand, since the test is about
// how the lines are grouped, not about a figure.
TEST(ErrorMessages, TheSameErrorForManyFilesIsSaidOnceWithTheFiles) {
  Report report;
  report.inputs = {"ok.hip"};
  for (const char *file : {"a.hip", "b.hip", "c.hip"})
    report.errors.push_back({file, "gfx942", std::string(file) + ": cannot find ROCm device library for gfx942"});
  // One cause for every failed file: its line holds the count, said once.
  EXPECT_EQ(errorMessages(report), (std::vector<std::string>{"[gfx942] cannot find ROCm device library for gfx942 "
                                                             "(3 of 4 files: a.hip, b.hip, c.hip)"}));
}

// issue 32 item 3: hipcc's failure on 3 of 22 files, the same missing header in each (analyzeJobs'
// wording, its first error line indented under it), read "hipcc failed on each file (exit 1):
// .../each file:5:10: fatal error". Now the count names the files, the first error is the first file's.
TEST(ErrorMessages, ACompilerFailingOnSeveralFilesIsOneGrammaticalLine) {
  Report report;
  for (int i = 0; i < 19; ++i) report.inputs.push_back("ok" + std::to_string(i) + ".hip");
  for (const char *file : {"src/a.hip", "src/b.hip", "src/c.hip"})
    report.errors.push_back({file, "",
                             "hipcc failed on " + std::string(file) + " (exit 1):\n  " + file +
                                 ":5:10: fatal error: 'hipblas/hipblas.h' file not found"});
  EXPECT_EQ(errorMessages(report),
            (std::vector<std::string>{"hipcc failed on 3 of 22 files (exit 1): src/a.hip, src/b.hip, src/c.hip; "
                                      "first error:\n  src/a.hip:5:10: fatal error: 'hipblas/hipblas.h' file not "
                                      "found"}));
  // Two causes: each said once, then the tally.
  report.errors.push_back({"d.hip", "", "d.hip:1:1: error: unknown type name 'flot'"});
  const std::vector<std::string> two = errorMessages(report);
  ASSERT_EQ(two.size(), 3u);
  EXPECT_EQ(two[0].rfind("hipcc failed on 3 of 23 files (exit 1): ", 0), 0u) << two[0];
  EXPECT_EQ(two[2], "4 of 23 files failed; the others were analysed");
}

// A file's name inside a path (a Triton entry's directory, then /__grp__k.json) is that file's path,
// not a count: it read "each file/__grp__...".
TEST(ErrorMessages, AFileNameInsideAPathIsNeverReplacedByACount) {
  Report report;
  report.artifacts = 6;
  for (const char *dir : {"cache/AAA", "cache/BBB"})
    report.errors.push_back({dir, "",
                             std::string(dir) + "/__grp__k.json lists k.json, which is missing: a partly written or "
                                                "cleaned Triton cache entry"});
  EXPECT_EQ(errorMessages(report),
            (std::vector<std::string>{"cache/AAA/__grp__k.json lists k.json, which is missing: a partly written or "
                                      "cleaned Triton cache entry (2 of 6 artifacts: cache/AAA, cache/BBB)"}));
}

TEST(ErrorMessages, EachOtherFailingFileIsSaidWithItsOwnError) {
  Report report;
  report.errors.push_back({"a.hip", "", "a.hip:3:1: error: unknown type name 'flot'"});
  report.errors.push_back({"b.hip", "", "b.hip:9:5: error: use of undeclared identifier 'n'"});
  EXPECT_EQ(errorMessages(report),
            (std::vector<std::string>{"a.hip:3:1: error: unknown type name 'flot'",
                                      "b.hip:9:5: error: use of undeclared identifier 'n'", "2 of 2 files failed"}));
  EXPECT_TRUE(errorMessages(Report{}).empty());
}

// "1 other files" (issue 32): a count and its noun agree, one helper (support/plural.h) for every such line.
// A directory of one real .s (hipcc 5.2.3) and one, then two, files regscope does not read.
TEST(ErrorMessages, TheWalksSummaryCountsAgreeWithTheirNouns) {
  const fs::path dir = fs::temp_directory_path() / ("regscope-plural-" + std::to_string(::getpid()));
  fs::create_directories(dir / "walk");
  fs::copy_file(test::sourcePath("fixtures/hipcc-5.2.3/probe-gfx90a.s"), dir / "walk" / "probe-gfx90a.s");
  std::ofstream(dir / "walk" / "README") << "notes\n";
  const test::RunResult one = test::runRegscope({"parse", (dir / "walk").string()}, test::sourcePath(""), dir.string(),
                                                (dir / "cache").string());
  EXPECT_NE(one.err.find("read 1 artifact in 1 directory; skipped 1 other file\n"), std::string::npos) << one.err;
  std::ofstream(dir / "walk" / "NOTES") << "more\n";
  const test::RunResult two = test::runRegscope({"parse", (dir / "walk").string()}, test::sourcePath(""), dir.string(),
                                                (dir / "cache").string());
  EXPECT_NE(two.err.find("skipped 2 other files\n"), std::string::npos) << two.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace regscope
