// `regscope advise kernels/lbm/lbm.hip` (seed 000's kernel) through the real
// binary and the installed hipcc, run once for the whole suite (some 60
// compiles) and checked from every side: the candidates, the pow edit against
// kernels/lbm/lbm_nopow.hip, the other edits against the same edits made by
// hand, the greedy combination, --patch through `git apply`, a warm rerun and
// every format. One ctest (tests/CMakeLists.txt) with a long limit.
//
// Its result cache is kept in the build tree (REGSCOPE_LBM_CACHE_DIR): the first
// run after regscope is (re)built compiles everything (the cache keys on
// regscope's own binary), reruns of that build read the figures those compiles
// stored. The cache revalidates every dependency, so an edited kernel, header or
// compiler is compiled again. The hand-made copies live in fresh temporary
// directories and are always compiled.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "advise_test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::replaceOnce;
using test::writeText;

const char *const kLbm = "kernels/lbm/lbm.hip";

std::vector<std::string> entriesOf(const std::string &dir) {
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

class LbmAdvise : public ::testing::Test {
 protected:
  struct Run {
    std::unique_ptr<TempDir> tmp, out;
    test::FileState source_before;
    std::vector<std::string> top_before, lbm_before;
    test::RunResult cold;
    json doc;
  };
  static Run *run_;

  static void SetUpTestSuite() {
    if (!test::haveHipcc()) return;
    run_ = new Run;
    run_->tmp = std::make_unique<TempDir>();
    run_->out = std::make_unique<TempDir>();
    run_->source_before = test::stateOf(test::sourcePath(kLbm));
    run_->top_before = entriesOf(REGSCOPE_SOURCE_DIR);
    run_->lbm_before = entriesOf(test::sourcePath("kernels/lbm"));
    run_->cold = advise(
        {"--format", "json", "-o", run_->out->path() + "/advise.json", "--patch", run_->out->path() + "/fix.diff"});
    if (run_->cold.exit_code == 0) run_->doc = json::parse(test::readText(run_->out->path() + "/advise.json"));
  }
  static void TearDownTestSuite() {
    delete run_;
    run_ = nullptr;
  }
  void SetUp() override {
    if (!run_) GTEST_SKIP() << "hipcc is not installed: advise measures with a HIP compiler";
    ASSERT_EQ(run_->cold.exit_code, 0) << run_->cold.err;
  }

  // `regscope advise kernels/lbm/lbm.hip` in the source tree, gfx90a, two
  // compiles at once, the suite's own $TMPDIR, the build tree's result cache.
  static test::RunResult advise(std::vector<std::string> args) {
    std::vector<std::string> argv = {"advise", kLbm, "--offload-arch", "gfx90a", "-j", "2", "--progress", "never"};
    argv.insert(argv.end(), args.begin(), args.end());
    return test::runRegscope(argv, REGSCOPE_SOURCE_DIR, run_->tmp->path(), REGSCOPE_LBM_CACHE_DIR);
  }
  static test::RunResult analyze(const std::vector<std::string> &files) {
    std::vector<std::string> argv = {"analyze", "--offload-arch", "gfx90a", "-j", "2", "--format", "json"};
    argv.insert(argv.end(), files.begin(), files.end());
    return test::runRegscope(argv, REGSCOPE_SOURCE_DIR, run_->tmp->path(), REGSCOPE_LBM_CACHE_DIR);
  }

  static const json &doc() { return run_->doc; }
  static std::vector<json> candidates(const std::string &rule) {
    std::vector<json> out;
    for (const json &c : doc()["candidates"])
      if (c["rule"] == rule) out.push_back(c);
    return out;
  }
  static const json &candidate(const std::string &id) {
    for (const json &c : doc()["candidates"])
      if (c["id"] == id) return c;
    throw std::runtime_error("no candidate " + id);
  }

  // The text a diff makes of lbm.hip, through `git apply` on a copy.
  static std::string applied(const std::string &diff) {
    TempDir tree;
    writeText(tree.path() + "/" + kLbm, test::readText(test::sourcePath(kLbm)));
    writeText(tree.path() + "/edit.diff", diff);
    const std::string said = test::applyWithGit(tree.path(), "edit.diff", false);
    if (!said.empty()) throw std::runtime_error(said);
    return test::readText(tree.path() + "/" + kLbm);
  }
};
LbmAdvise::Run *LbmAdvise::run_ = nullptr;

// What `analyze --format json` says of a kernel, as advise's figures.
void expectSameFigures(const json &advised, const json &analyzed, const std::string &what) {
  for (const char *key : {"vgprs", "agprs", "vgprs_total", "sgprs", "vgpr_spills", "sgpr_spills", "scratch_bytes"})
    EXPECT_EQ(advised[key], analyzed[key]) << what << ": " << key;
  EXPECT_EQ(advised["waves_per_simd"], analyzed["occupancy"]["waves_per_simd"]) << what;
  EXPECT_EQ(advised["kernel"], analyzed["name"]) << what;
}

TEST_F(LbmAdvise, LeavesTheSourceTheTreeAndTmpdirAsTheyWere) {
  test::expectUnchanged(run_->source_before, test::sourcePath(kLbm));
  EXPECT_EQ(entriesOf(REGSCOPE_SOURCE_DIR), run_->top_before);
  EXPECT_EQ(entriesOf(test::sourcePath("kernels/lbm")), run_->lbm_before);
  EXPECT_TRUE(test::dirIsEmpty(run_->tmp->path()));
}

TEST_F(LbmAdvise, FindsThePowEditAndTheRestrictCandidates) {
  ASSERT_EQ(doc()["kernels"].size(), 1u);
  EXPECT_EQ(doc()["kernels"][0]["name"], "kernel");
  EXPECT_EQ(doc()["kernels"][0]["line"], 5);
  EXPECT_NE(doc()["frontend"]["version"].get<std::string>().find("clang version 15."), std::string::npos);
  EXPECT_EQ(doc()["frontend"]["arch"], "gfx90a");
  EXPECT_EQ(doc()["input"], kLbm);

  const std::vector<json> pow = candidates("pow-to-multiply");
  ASSERT_EQ(pow.size(), 1u);
  EXPECT_EQ(pow[0]["line"], 35);
  EXPECT_TRUE(pow[0]["assumption"].is_null()) << "x * x is x squared: nothing to assume";
  // The edit is the post's: lbm_nopow.hip is the original with that line changed.
  EXPECT_EQ(replaceOnce(applied(pow[0]["diff"]), "// Variant 1: the original, as printed in the post.",
                        "// Variant 2: pow(current_phi, 2.0) replaced by current_phi * current_phi."),
            test::readText(test::sourcePath("kernels/lbm/lbm_nopow.hip")));

  // One candidate per pointer parameter (31), and one with all of them.
  std::set<std::string> restricted;
  for (const json &c : candidates("restrict")) {
    const std::string id = c["id"];
    restricted.insert(id.substr(id.rfind(':') + 1));
    EXPECT_FALSE(c["assumption"].is_null()) << id << ": aliasing is the caller's to know";
  }
  EXPECT_EQ(restricted.size(), 31u);
  EXPECT_TRUE(restricted.count("g14") && restricted.count("g7") && restricted.count("phi"));
  ASSERT_EQ(candidates("restrict-all").size(), 1u);
}

TEST_F(LbmAdvise, PowToMultiplyMeasuresAsAnalyzeOfLbmNopow) {
  const json pow = candidates("pow-to-multiply").at(0);  // a copy: candidates() returns a temporary
  const test::RunResult nopow = analyze({"kernels/lbm/lbm_nopow.hip"});
  ASSERT_EQ(nopow.exit_code, 0) << nopow.err;
  const json analyzed = json::parse(nopow.out)["kernels"];
  ASSERT_EQ(analyzed.size(), 1u);
  ASSERT_EQ(pow["measured"].size(), 1u);
  expectSameFigures(pow["measured"][0], analyzed[0], "pow -> multiplication vs analyze lbm_nopow.hip");
  EXPECT_LT(analyzed[0]["vgprs"], doc()["baseline"][0]["vgprs"]);
  EXPECT_EQ(pow["verdict"], "helps");

  // The baseline is `analyze lbm.hip`: the same compile, so a hit in the cache advise filled.
  const test::RunResult original = analyze({kLbm});
  ASSERT_EQ(original.exit_code, 0) << original.err;
  expectSameFigures(doc()["baseline"][0], json::parse(original.out)["kernels"][0], "baseline vs analyze lbm.hip");
}

// The same edit, written by the test into a copy of the file: the texts agree
// byte for byte for every candidate; the figures of an `analyze` of the copy
// agree for every candidate that changed a figure, one of each rule besides,
// and the combination of all kept edits (a file each: some 35 compiles).
TEST_F(LbmAdvise, EveryCandidateIsTheSameEditMadeByHand) {
  const std::string original = test::readText(test::sourcePath(kLbm));
  const json &base = doc()["baseline"][0];
  ASSERT_FALSE(base["next_waves"].is_null());
  const std::string next = std::to_string(base["next_waves"].get<int>());
  auto restrictParam = [](std::string text, const std::string &name) {
    for (const char *after : {",", ")"}) {
      const std::string from = "double *" + name + after;
      if (text.find(from) != std::string::npos) return replaceOnce(text, from, "double *__restrict__ " + name + after);
    }
    throw std::runtime_error("test: no parameter " + name);
  };
  const std::string head = "__global__ void kernel(";
  std::set<std::string> rules_measured;
  std::vector<std::pair<std::string, std::string>> to_measure;  // candidate id, hand-edited text
  std::size_t compared = 0;
  for (const json &c : doc()["candidates"]) {
    const std::string id = c["id"], rule = c["rule"], what = id.substr(id.rfind(':') + 1);
    std::string hand;
    if (rule == "pow-to-multiply") continue;  // against lbm_nopow.hip
    if (rule == "restrict") {
      hand = restrictParam(original, what);
    } else if (rule == "restrict-all") {
      hand = original;
      for (const char *p : {"phi", "laplacian_phi", "grad_phi_x", "grad_phi_y", "grad_phi_z"})
        hand = restrictParam(hand, p);
      for (int i = 0; i <= 6; ++i) hand = restrictParam(hand, "f" + std::to_string(i));
      for (int i = 0; i <= 18; ++i) hand = restrictParam(hand, "g" + std::to_string(i));
    } else if (rule == "launch-bounds") {
      hand = replaceOnce(original, head,
                         what == "256" ? "__global__ void __launch_bounds__(256) kernel("
                                       : "__global__ void __launch_bounds__(256, " + next + ") kernel(");
    } else if (rule == "waves-per-eu") {
      hand = replaceOnce(original, head, "__global__ void __attribute__((amdgpu_waves_per_eu(" + next + "))) kernel(");
    } else {
      ADD_FAILURE() << "unexpected candidate on LBM: " << id;
      continue;
    }
    EXPECT_EQ(applied(c["diff"]), hand) << id;
    ++compared;
    const bool first_of_rule = rules_measured.insert(rule).second;  // before ||, which would skip it
    if (c["verdict"] != "no gain" || first_of_rule) to_measure.emplace_back(id, hand);
  }
  EXPECT_EQ(compared, 35u);  // 31 + all + 2 launch bounds + waves per EU
  EXPECT_EQ(rules_measured, (std::set<std::string>{"restrict", "restrict-all", "launch-bounds", "waves-per-eu"}));

  // Beside the build tree's cache, under names that depend on the candidate,
  // so a rerun of the same build finds these compiles in the cache too.
  const std::string dir = std::string(REGSCOPE_LBM_CACHE_DIR) + "/by-hand";
  std::vector<std::string> files;
  for (std::size_t i = 0; i < to_measure.size(); ++i) {
    std::string name = to_measure[i].first;
    std::replace_if(
        name.begin(), name.end(), [](char ch) { return !std::isalnum(static_cast<unsigned char>(ch)); }, '_');
    files.push_back(dir + "/" + name + "/lbm.hip");
    writeText(files.back(), to_measure[i].second);
  }
  files.push_back(dir + "/combined/lbm.hip");
  writeText(files.back(), applied(doc()["combination"]["diff"]));
  const test::RunResult r = analyze(files);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json by_hand = json::parse(r.out)["kernels"];
  ASSERT_EQ(by_hand.size(), files.size());
  for (std::size_t i = 0; i < to_measure.size(); ++i) {
    const json &c = candidate(to_measure[i].first);
    ASSERT_EQ(c["measured"].size(), 1u) << c["id"];
    EXPECT_EQ(by_hand[i]["file"], files[i]);
    expectSameFigures(c["measured"][0], by_hand[i], to_measure[i].first);
  }
  expectSameFigures(doc()["combination"]["measured"][0], by_hand[files.size() - 1], "all kept edits together");
}

TEST_F(LbmAdvise, CombinesGreedilyKeepingOnlyWhatImprovesTheCombination) {
  const json &steps = doc()["combination"]["steps"];
  ASSERT_FALSE(steps.empty());
  EXPECT_TRUE(steps[0]["kept"]);
  EXPECT_FALSE(steps[0]["compiled"]) << "the first step is the best candidate alone, measured already";
  auto keyOf = [](const json &figures) {
    const json &k = figures.at(0);
    return std::make_tuple(k["waves_per_simd"].get<int>(), -(k["vgpr_spills"].get<int>() + k["sgpr_spills"].get<int>()),
                           -k["scratch_bytes"].get<int>(), -k["vgprs_total"].get<int>(), -k["sgprs"].get<int>());
  };
  auto gainOf = [&](const std::string &id) {
    const json &g = candidate(id)["gain"];
    return std::make_tuple(g["waves"].get<int>(), g["spills"].get<int>(), g["scratch_bytes"].get<int>(),
                           g["vgprs"].get<int>(), g["sgprs"].get<int>());
  };
  auto current = keyOf(doc()["baseline"]);
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const json &step = steps[i];
    if (i > 0) EXPECT_GE(gainOf(steps[i - 1]["candidate"]), gainOf(step["candidate"])) << "in order of gain";
    if (!step["kept"]) {
      EXPECT_FALSE(step["reason"].is_null()) << step["candidate"];
      continue;
    }
    kept.push_back(step["candidate"]);
    EXPECT_GT(keyOf(step["measured"]), current) << step["candidate"];
    current = keyOf(step["measured"]);
  }
  EXPECT_EQ(doc()["combination"]["applied"].get<std::vector<std::string>>(), kept);
  EXPECT_EQ(keyOf(doc()["combination"]["measured"]), current);
  EXPECT_GT(current, keyOf(doc()["baseline"])) << "the seed's edits help together";
  // Every helpful candidate was a step; compiles: the original, each edit, each compiled step.
  std::size_t helpful = 0;
  int expected = 1;
  for (const json &c : doc()["candidates"]) {
    helpful += c["verdict"] == "helps";
    expected += c["verdict"] != "not tried";
  }
  EXPECT_EQ(steps.size(), helpful);
  for (const json &s : steps) expected += s["compiled"].get<bool>();
  EXPECT_EQ(doc()["compiles"], expected);
}

TEST_F(LbmAdvise, ThePatchIsTheCombinedDiffAndGitAppliesIt) {
  const std::string patch = test::readText(run_->out->path() + "/fix.diff");
  EXPECT_EQ(patch, doc()["combination"]["diff"]);
  EXPECT_EQ(patch.rfind(std::string("--- a/") + kLbm + "\n+++ b/" + kLbm + "\n", 0), 0u) << patch;
  TempDir tree;
  writeText(tree.path() + "/" + kLbm, test::readText(test::sourcePath(kLbm)));
  EXPECT_EQ(test::applyWithGit(tree.path(), run_->out->path() + "/fix.diff", true), "");
  // Each candidate's own diff applies alone too.
  for (const json &c : doc()["candidates"])
    if (!c["diff"].is_null()) EXPECT_NO_THROW(applied(c["diff"])) << c["id"];
}

// Rerun with the cache advise filled: the same document, every figure from the cache.
TEST_F(LbmAdvise, AWarmRunSaysTheSame) {
  const test::RunResult warm = advise({"--format", "json"});
  ASSERT_EQ(warm.exit_code, 0) << warm.err;
  EXPECT_EQ(json::parse(warm.out), doc());
  test::expectUnchanged(run_->source_before, test::sourcePath(kLbm));
}

TEST_F(LbmAdvise, TheTextEndsWithWhatAllConfirmedEditsDoTogether) {
  const test::RunResult text = advise({"--format", "text"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const json &b = doc()["baseline"][0], &c = doc()["combination"]["measured"][0];
  // A figure that moved is "before -> after", one that did not is only its value.
  auto change = [](int before, int after) {
    return (before == after ? "" : std::to_string(before) + " -> ") + std::to_string(after);
  };
  // At the default 1024-thread workgroups the next whole-workgroup step is 8
  // waves/SIMD (64 VGPRs): the waves-per-EU edit that asks for it spills, and
  // the occupancy-first combination keeps it; its spills and scratch are named.
  const int b_spills = b["vgpr_spills"].get<int>() + b["sgpr_spills"].get<int>(),
            c_spills = c["vgpr_spills"].get<int>() + c["sgpr_spills"].get<int>();
  const std::string line =
      "all confirmed edits together: " + change(b["vgprs"].get<int>(), c["vgprs"].get<int>()) + " VGPRs, " +
      (b_spills == c_spills ? "" : std::to_string(b_spills) + " -> " + std::to_string(c_spills) + " spills, ") +
      (b["scratch_bytes"] == c["scratch_bytes"] ? ""
                                                : std::to_string(b["scratch_bytes"].get<int>()) + " -> " +
                                                      std::to_string(c["scratch_bytes"].get<int>()) + " B scratch, ") +
      change(b["waves_per_simd"].get<int>(), c["waves_per_simd"].get<int>()) + " waves/SIMD";
  EXPECT_NE(text.out.find(line), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(std::string(kLbm) + ":35:"), std::string::npos) << "the pow edit's location";
  EXPECT_NE(text.out.find("pow-to-multiply (seed 000)"), std::string::npos);
  EXPECT_NE(text.out.find("tried, no gain ("), std::string::npos);
  EXPECT_NE(text.out.find("    +++ b/" + std::string(kLbm)), std::string::npos) << "each edit's diff";

  const test::RunResult csv = advise({"--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.out.find("location,id,rule,kernel,arch,vgprs_before,vgprs,agprs_before,agprs,sgprs_before,sgprs,"),
            std::string::npos)
      << csv.out;
  EXPECT_EQ(csv.out.find("+++"), std::string::npos) << "diffs are not CSV";
  const test::RunResult md = advise({"--format", "markdown"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("```diff\n--- a/" + std::string(kLbm)), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("| LOCATION | RULE |"), std::string::npos);
}

}  // namespace
}  // namespace regscope
