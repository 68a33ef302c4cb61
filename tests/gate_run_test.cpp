// What a gate or baseline run decides around the verdicts (gate/gate_run.h),
// on the kernels hipcc 5.2.3 compiled from fixtures/src/probe.hip for gfx90a
// (fixtures/hipcc-5.2.3/probe-gfx90a.s: five kernels, agpr_heavy at 3 of 8
// waves/SIMD, the others at 4 or 8).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "regscope/gate/gate.h"
#include "regscope/gate/gate_run.h"
#include "regscope/pipeline/analyze.h"
#include "regscope/support/error.h"
#include "regscope/support/process.h"
#include "regscope/views/views.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

Report probeReport() { return parseArtifacts({test::sourcePath("fixtures/hipcc-5.2.3/probe-gfx90a.s")}, ""); }

struct Said {
  std::vector<std::string> warnings, errors, plain;
  Messages messages() {
    return {[this](const std::string &t) { warnings.push_back(t); },
            [this](const std::string &t) { errors.push_back(t); }, [](const std::string &) {},
            [this](const std::string &t) { plain.push_back(t); }};
  }
};

TEST(GateRun, AMinimumOccupancyNoKernelCanReachIsAnErrorNotAFailure) {
  const Report report = probeReport();
  ASSERT_EQ(report.kernels.size(), 5u);
  Config config;
  config.defaults.min_occupancy = 9;
  try {
    checkReachable(config, report);
    FAIL() << "an unreachable threshold was accepted";
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), "--min-occupancy 9 can never be met on gfx90a: its maximum is 8 waves/SIMD");
  }
  config.defaults.min_occupancy = 8;  // the maximum: reachable, though some kernels miss it
  EXPECT_NO_THROW(checkReachable(config, report));
}

TEST(GateRun, FlagsOverrideTheConfigsDefaultsOnlyWhereGiven) {
  Config config;
  config.defaults.min_occupancy = 4;
  config.defaults.max_spills = 10;
  Thresholds flags;
  flags.max_spills = 0;
  applyThresholdFlags(config, flags);
  EXPECT_EQ(config.defaults.min_occupancy, 4);
  EXPECT_EQ(config.defaults.max_spills, 0);
  EXPECT_FALSE(config.defaults.max_scratch);
}

TEST(GateRun, AGateWithoutRulesAndStaleEntriesIsSaidBeforeAPass) {
  const Report report = probeReport();
  Config config;
  config.path = ".regscope.json";
  config.ignore = {{"no_such_kernel", "retired"}, {"capped", "a probe"}};
  KernelSettings settings;
  settings.match = "gone_kernel";
  config.kernels = {settings};
  Said said;
  warnAboutRules(config, report, /*baseline=*/false, said.messages());
  EXPECT_EQ(said.plain, (std::vector<std::string>{
                            "warning: the gate has no rules: give --min-occupancy, --max-spills, --max-scratch, a "
                            "baseline, or defaults in .regscope.json; nothing is checked",
                            "warning: .regscope.json: ignore entry 'no_such_kernel' matches no kernel of this run"}));
  EXPECT_EQ(said.warnings,
            std::vector<std::string>{".regscope.json: kernels entry 'gone_kernel' matches no kernel of this run"});
  Said with_baseline;
  warnAboutRules(Config{}, Report{}, /*baseline=*/true, with_baseline.messages());
  EXPECT_EQ(with_baseline.plain, std::vector<std::string>{"warning: the gate checked no kernels"});
}

TEST(GateRun, AHeaderWithNothingToSayWhoIncludesItIsAnError) {
  std::vector<std::string> files = {"common.h"};
  Said said;
  EXPECT_THROW(gateHeadersThroughSources(files, "", std::nullopt, "", "/", said.messages()), Error);
  files = {"a.hip"};  // no header: nothing changes
  EXPECT_FALSE(gateHeadersThroughSources(files, "", std::nullopt, "", "/", said.messages()));
  EXPECT_EQ(files, std::vector<std::string>{"a.hip"});
}

TEST(GateRun, AHeaderIsGatedThroughTheSourcesTheBaselineRecordsAsIncludingIt) {
  TempDir root;
  Baseline baseline(2);
  baseline[0].source = baseline[0].file = "src/a.hip";
  baseline[1].source = baseline[1].file = "src/b.hip";
  for (BaselineEntry &e : baseline) e.dependencies_recorded = true;
  baseline[0].dependencies = {"src/common.h"};
  std::vector<std::string> files = {root.path() + "/src/common.h"};
  Said said;
  EXPECT_TRUE(gateHeadersThroughSources(files, "", baseline, root.path(), root.path(), said.messages()));
  EXPECT_EQ(files, std::vector<std::string>{"src/a.hip"});  // relative: below the working directory
  EXPECT_EQ(said.plain, std::vector<std::string>{
                            root.path() + "/src/common.h: gated through the 1 source that includes it: src/a.hip"});
  // With a database and no recorded dependencies: every entry (no files).
  files = {"other.h"};
  Said whole;
  EXPECT_TRUE(gateHeadersThroughSources(files, "build", std::nullopt, "", root.path(), whole.messages()));
  EXPECT_TRUE(files.empty());
}

TEST(GateRun, BaselineMessageCountsTheKernelsWrittenAndTheEntriesKept) {
  const Report report = probeReport();
  BaselineEntry other;
  other.source = other.file = "elsewhere.hip";
  other.name = "_Z5otherv";
  other.arch = "gfx90a";
  const Baseline updated = updatedBaseline({other}, report, "");
  EXPECT_EQ(baselineWrittenMessage(report, updated, "b.json", ""),
            "wrote 4 kernels judged to b.json (1 kernel that can never be resident not recorded) (kept 1 entry "
            "of other files)");
}

TEST(GateRun, EveryKernelOfTheProbeCanBeJudged) {
  Said said;
  EXPECT_FALSE(reportUnjudged(probeReport(), false, said.messages()));
  EXPECT_TRUE(said.errors.empty());
  EXPECT_TRUE(said.warnings.empty());
}

TEST(GateRun, AMissingBaselineSaysHowToCreateOne) {
  TempDir dir;
  try {
    readBaseline(dir.path() + "/none.json");
    FAIL();
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()), dir.path() + "/none.json: no such baseline (create one with regscope baseline)");
  }
}

}  // namespace
}  // namespace regscope

namespace regscope {
namespace {

// Issue 30: `gate probe-gfx90a.s --max-spills 100000` passed while parse says
// agpr_heavy (136 VGPRs at its 1024-thread workgroup) can never be resident.
// A kernel that cannot launch is a failure (RS104) whatever the thresholds,
// and is neither compared with nor written to a baseline.
TEST(GateRun, AKernelThatCannotLaunchFailsWhateverTheThresholds) {
  const Report report = parseArtifacts({test::sourcePath("fixtures/hipcc-5.2.3/probe-gfx90a.s")}, "");
  Config config;
  config.defaults.max_spills = 100000;
  const GateResult result = checkThresholds(report, config);
  ASSERT_EQ(result.failures.size(), 1u);
  EXPECT_EQ(result.failures[0].rule, Rule::CannotLaunch);
  EXPECT_EQ(result.failures[0].kernel, "agpr_heavy(float*)");
  EXPECT_EQ(gateExitCode(gateOutcome(report, result)), kExitFindings);
  // --update-baseline cannot accept it: still exit 1, and it is not written.
  GateResult updating = result;
  updating.update_baseline = true;
  EXPECT_EQ(gateOutcome(report, updating), GateOutcome::Fail);
  for (const BaselineEntry &e : updatedBaseline({}, report, "")) EXPECT_NE(e.demangled, "agpr_heavy(float*)");
}

// Issue 30: the gate's word and its exit code come from one outcome: a kernel
// not judged outranks a failure (exit 2, "CANNOT JUDGE"), --update-baseline
// accepts failures (exit 0, "ACCEPTED", never "FAIL"), and a run whose inputs
// held kernels of which none was judged (mixbench built for gfx803) is exit 2.
TEST(GateRun, TheVerdictWordAndTheExitCodeAgree) {
  Report report = parseArtifacts({test::sourcePath("fixtures/hipcc-5.2.3/probe-gfx90a.s")}, "");
  Config config;
  config.defaults.min_occupancy = 8;
  GateResult result = checkThresholds(report, config);
  ASSERT_FALSE(result.failures.empty());
  EXPECT_EQ(gateExitCode(gateOutcome(report, result)), kExitFindings);
  GateResult unjudged = result;
  unjudged.unjudged.push_back(result.failures[0]);
  EXPECT_EQ(gateOutcome(report, unjudged), GateOutcome::CannotJudge);
  EXPECT_EQ(gateExitCode(GateOutcome::CannotJudge), kExitError);
  const std::string word = gateView(report, unjudged, {})->toJson()["summary"].get<std::string>();
  EXPECT_EQ(word.rfind("CANNOT JUDGE", 0), 0u) << word;
  // Only min-occupancy failures (none cannot launch) under --update-baseline: accepted, exit 0.
  Report launchable = report;
  launchable.kernels.erase(std::remove_if(launchable.kernels.begin(), launchable.kernels.end(),
                                          [](const KernelReport &k) { return cannotLaunch(k); }),
                           launchable.kernels.end());
  GateResult accepted = checkThresholds(launchable, config);
  ASSERT_FALSE(accepted.failures.empty());
  accepted.update_baseline = true;
  EXPECT_EQ(gateExitCode(gateOutcome(launchable, accepted)), kExitOk);
  const std::string accepted_word = gateView(launchable, accepted, {})->toJson()["summary"].get<std::string>();
  EXPECT_EQ(accepted_word.rfind("ACCEPTED", 0), 0u) << accepted_word;

  // Kernels read for an arch with no table: none judged, exit 2, the arch named with its count.
  Report gfx803;
  gfx803.kernels_without_table["gfx803"] = 166;
  GateResult none = checkThresholds(gfx803, config);
  EXPECT_EQ(judgedNone(gfx803, none),
            "judged none of the 166 kernels its inputs held (166 of gfx803, an arch with no occupancy table (give "
            "--offload-arch for a known one))");
  none.run_not_judged = judgedNone(gfx803, none);
  EXPECT_EQ(gateExitCode(gateOutcome(gfx803, none)), kExitError);
  // A run over host-only files held no kernel: nothing to judge is not a failure.
  EXPECT_EQ(judgedNone(Report{}, checkThresholds(Report{}, config)), "");
}

}  // namespace
}  // namespace regscope
