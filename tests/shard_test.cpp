// --shard K/N and regscope merge (docs/sharding.md): the partition is
// disjoint, covering, balanced and the same under any checkout directory;
// shards merged give the one-process report; merge refuses shards that do
// not make one run.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "binary_test.h"
#include "regscope/pipeline/merge.h"
#include "regscope/source/shard.h"
#include "regscope/support/error.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::RunResult;
using test::sourcePath;

// ---- the spec ----

TEST(ShardSpec, ReadsKOfN) {
  const ShardSpec spec = parseShardSpec("2/5");
  EXPECT_EQ(spec.index, 2);
  EXPECT_EQ(spec.count, 5);
  EXPECT_EQ(parseShardSpec("1/1").count, 1);
}

TEST(ShardSpec, RefusesSpecsThatNameNoShard) {
  for (const char *bad : {"0/3", "4/3", "1/0", "a/b", "3", "", "/3", "1/", "-1/3", "1/3/4", "1.5/3", " 1/3"})
    EXPECT_THROW(parseShardSpec(bad), Error) << bad;
}

const char *lookup(const std::map<std::string, std::string> &env, const char *name) {
  auto it = env.find(name);
  return it == env.end() ? nullptr : it->second.c_str();
}

TEST(ShardSpec, AutoTakesThePlaceInTheSlurmArray) {
  std::map<std::string, std::string> env = {
      {"SLURM_ARRAY_TASK_ID", "7"}, {"SLURM_ARRAY_TASK_MIN", "5"}, {"SLURM_ARRAY_TASK_COUNT", "4"}};
  ShardSpec spec = shardFromSlurm([&](const char *n) { return lookup(env, n); });
  EXPECT_EQ(spec.index, 3);  // tasks 5, 6, 7, 8: the third
  EXPECT_EQ(spec.count, 4);
  env["SLURM_ARRAY_TASK_MAX"] = "8";
  EXPECT_EQ(shardFromSlurm([&](const char *n) { return lookup(env, n); }).index, 3);
  // --array=0-9:3 is tasks 0, 3, 6, 9: task 6 is the third of four.
  env = {{"SLURM_ARRAY_TASK_ID", "6"},
         {"SLURM_ARRAY_TASK_MIN", "0"},
         {"SLURM_ARRAY_TASK_COUNT", "4"},
         {"SLURM_ARRAY_TASK_STEP", "3"},
         {"SLURM_ARRAY_TASK_MAX", "9"}};
  spec = shardFromSlurm([&](const char *n) { return lookup(env, n); });
  EXPECT_EQ(spec.index, 3);
  EXPECT_EQ(spec.count, 4);
}

TEST(ShardSpec, AutoRefusesAMissingOrInconsistentSlurmEnvironment) {
  const std::map<std::string, std::string> good = {
      {"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_MIN", "1"}, {"SLURM_ARRAY_TASK_COUNT", "3"}};
  for (const char *missing : {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT"}) {
    std::map<std::string, std::string> env = good;
    env.erase(missing);
    try {
      shardFromSlurm([&](const char *n) { return lookup(env, n); });
      ADD_FAILURE() << "no error without " << missing;
    } catch (const Error &e) {
      EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
    }
  }
  const std::vector<std::map<std::string, std::string>> inconsistent = {
      {{"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_MIN", "1"}, {"SLURM_ARRAY_TASK_COUNT", "3"}},  // past the end
      {{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_MIN", "1"}, {"SLURM_ARRAY_TASK_COUNT", "3"}},  // before MIN
      {{"SLURM_ARRAY_TASK_ID", "x"}, {"SLURM_ARRAY_TASK_MIN", "1"}, {"SLURM_ARRAY_TASK_COUNT", "3"}},
      {{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_MIN", "1"}, {"SLURM_ARRAY_TASK_COUNT", "0"}},
      // --array=1,5,7: three tasks, but not contiguous
      {{"SLURM_ARRAY_TASK_ID", "5"},
       {"SLURM_ARRAY_TASK_MIN", "1"},
       {"SLURM_ARRAY_TASK_COUNT", "3"},
       {"SLURM_ARRAY_TASK_MAX", "7"}},
  };
  for (const auto &env : inconsistent)
    EXPECT_THROW(shardFromSlurm([&](const char *n) { return lookup(env, n); }), Error) << env.at("SLURM_ARRAY_TASK_ID");
}

// ---- the partition ----

std::vector<ShardItem> someItems(std::size_t n, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<ShardItem> items;
  for (std::size_t i = 0; i < n; ++i)
    items.push_back({"src/dir" + std::to_string(i % 7) + "/file" + std::to_string(i) + ".hip", random() % 100000});
  return items;
}

TEST(ShardPartition, ShardsAreDisjointAndCoverEveryInput) {
  for (int count : {1, 2, 3, 7, 16, 40}) {
    const std::vector<ShardItem> items = someItems(37, 1);
    const std::vector<int> shard = partitionShards(items, count);
    ASSERT_EQ(shard.size(), items.size());
    // Each input in exactly one shard: the union of the shards is every key, their sizes add up.
    std::map<int, std::set<std::string>> members;
    for (std::size_t i = 0; i < items.size(); ++i) {
      ASSERT_GE(shard[i], 0);
      ASSERT_LT(shard[i], count);
      members[shard[i]].insert(items[i].key);
    }
    std::set<std::string> all;
    std::size_t total = 0;
    for (const auto &[s, keys] : members) {
      total += keys.size();
      all.insert(keys.begin(), keys.end());
    }
    EXPECT_EQ(total, items.size());
    EXPECT_EQ(all.size(), items.size());
    // No shard idles while another holds two inputs.
    if (count <= static_cast<int>(items.size())) EXPECT_EQ(members.size(), static_cast<std::size_t>(count));
  }
}

TEST(ShardPartition, DependsOnKeysAndSizesNotOnTheirOrder) {
  std::vector<ShardItem> items = someItems(50, 2);
  const std::vector<int> first = partitionShards(items, 4);
  std::map<std::string, int> by_key;
  for (std::size_t i = 0; i < items.size(); ++i) by_key[items[i].key] = first[i];
  std::mt19937 random(3);
  std::shuffle(items.begin(), items.end(), random);
  const std::vector<int> shuffled = partitionShards(items, 4);
  for (std::size_t i = 0; i < items.size(); ++i) EXPECT_EQ(shuffled[i], by_key[items[i].key]) << items[i].key;
}

TEST(ShardPartition, BalancesBySizeLargestFirst) {
  // Worked by hand: a (100) to shard 0; b (60) to 1; c (50) to 1 (60 < 100);
  // d (40) to 0 (100 < 110); e (10) to 1 (110 < 140).
  const std::vector<ShardItem> items = {{"e", 10}, {"c", 50}, {"a", 100}, {"d", 40}, {"b", 60}};
  EXPECT_EQ(partitionShards(items, 2), (std::vector<int>{1, 1, 0, 0, 1}));
  // Equal sizes: by key, each to the lightest (lowest-numbered) shard.
  EXPECT_EQ(partitionShards({{"z", 5}, {"y", 5}, {"x", 5}}, 2), (std::vector<int>{0, 1, 0}));
}

TEST(ShardPartition, RefusesTwoInputsWithOneKey) {
  EXPECT_THROW(partitionShards({{"a.hip", 1}, {"a.hip", 2}}, 2), Error);
  EXPECT_THROW(partitionShards({{"a.hip", 1}}, 0), Error);
}

void write(const std::string &path, const std::string &text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

TEST(ShardKey, IsTheSameUnderAnotherCheckoutDirectory) {
  TempDir one, two;
  for (const TempDir *dir : {&one, &two}) {
    fs::create_directories(dir->path() + "/checkout/.git");
    write(dir->path() + "/checkout/src/k.hip", "x");
  }
  EXPECT_EQ(shardKey(one.path() + "/checkout/src/k.hip", one.path()), "src/k.hip");
  EXPECT_EQ(shardKey(two.path() + "/checkout/src/k.hip", "/"), "src/k.hip");
  EXPECT_EQ(shardKey(two.path() + "/checkout/src/../src/k.hip", "/", 2), "src/k.hip#2");
  // Outside a repository: below the base (the database's directory).
  write(one.path() + "/plain/b/k.hip", "x");
  EXPECT_EQ(shardKey(one.path() + "/plain/b/k.hip", one.path() + "/plain"), "b/k.hip");
}

// ---- merge's refusals, on the shards themselves ----

ShardReport shardOf(int index, int count, std::vector<std::size_t> jobs, std::size_t total) {
  ShardReport s;
  s.run.command = "analyze";
  s.run.count = count;
  s.run.regscope_version = "0.1.0";
  s.run.inputs_digest = "i";
  s.run.options_digest = "o";
  s.run.jobs = total;
  s.shards = {index};
  for (std::size_t j : jobs) {
    JobPiece p;
    p.index = j;
    p.key = "k" + std::to_string(j) + ".hip";
    s.pieces.push_back(p);
  }
  return s;
}

std::string refusal(const std::vector<ShardReport> &shards) {
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < shards.size(); ++i) paths.push_back("s" + std::to_string(i + 1) + ".json");
  try {
    mergeShardReports(shards, paths);
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST(MergeRefuses, ShardsOfDifferentRegscopeVersions) {
  ShardReport b = shardOf(2, 2, {1}, 2);
  b.run.regscope_version = "0.2.0";
  const std::string why = refusal({shardOf(1, 2, {0}, 2), b});
  EXPECT_NE(why.find("different regscope versions: 0.1.0 and 0.2.0"), std::string::npos) << why;
}

TEST(MergeRefuses, ShardsOfDifferentOptionsOrConfigs) {
  ShardReport b = shardOf(2, 2, {1}, 2);
  b.run.options_digest = "other";
  EXPECT_NE(refusal({shardOf(1, 2, {0}, 2), b}).find("different options"), std::string::npos);
  b = shardOf(2, 2, {1}, 2);
  b.run.config_digest = "other";
  EXPECT_NE(refusal({shardOf(1, 2, {0}, 2), b}).find("different configs"), std::string::npos);
}

TEST(MergeRefuses, OverlappingShards) {
  // Two shard files holding the same input (a doctored or mis-cut shard).
  const std::string why = refusal({shardOf(1, 2, {0, 1}, 2), shardOf(2, 2, {1}, 2)});
  EXPECT_NE(why.find("k1.hip is in two shards (s1.json, s2.json)"), std::string::npos) << why;
}

TEST(MergeRefuses, AShardThatHoldsLessThanItsPart) {
  const std::string why = refusal({shardOf(1, 2, {0}, 3), shardOf(2, 2, {1}, 3)});
  EXPECT_NE(why.find("hold 2 of the run's 3 inputs"), std::string::npos) << why;
}

// ---- through the binary ----

// The shard reports of `args` (parse or analyze ... --format json), K of N each, written to `dir`.
std::vector<std::string> shardFiles(const std::function<RunResult(const std::vector<std::string> &)> &run,
                                    std::vector<std::string> args, int count, const std::string &dir) {
  std::vector<std::string> files;
  for (int k = 1; k <= count; ++k) {
    const std::string out = dir + "/shard-" + std::to_string(k) + ".json";
    std::vector<std::string> a = args;
    for (const std::string &extra :
         {std::string("--shard"), std::to_string(k) + "/" + std::to_string(count), std::string("-o"), out})
      a.push_back(extra);
    const RunResult r = run(a);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    files.push_back(out);
  }
  return files;
}

json withoutShard(const std::string &text) {
  json j = json::parse(text);
  j.erase("shard");
  return j;
}

class ShardParse : public ::testing::Test {
 protected:
  void SetUp() override {
    // Real hipcc 5.2.3 and clang 19 assembly (fixtures/*/README): two producers, so the
    // merged report must take the first file's compiler, as one process does.
    for (const char *f : {"hipcc-5.2.3/lbm-gfx90a.s", "clang-19/probe-gfx90a.s", "hipcc-5.2.3/probe-gfx908.s",
                          "clang-19/lbm-gfx90a.s", "hipcc-5.2.3/lbm-gfx908.s", "hipcc-5.2.3/probe-gfx90a.s"}) {
      const std::string name = fs::path(f).parent_path().string() + "-" + fs::path(f).filename().string();
      fs::copy_file(sourcePath(std::string("fixtures/") + f), work_.path() + "/" + name);
      files_.push_back(name);
    }
  }
  RunResult run(const std::vector<std::string> &args, const std::vector<std::string> &env = {}) {
    return test::runRegscope(args, work_.path(), tmp_.path(), cache_.path(), env);
  }
  std::vector<std::string> args(std::vector<std::string> head) {
    head.insert(head.end(), files_.begin(), files_.end());
    return head;
  }
  TempDir work_, tmp_, cache_, out_;
  std::vector<std::string> files_;
};

TEST_F(ShardParse, MergedShardsGiveTheOneProcessReportInEveryFormat) {
  const std::vector<std::string> shards = shardFiles([&](const std::vector<std::string> &a) { return run(a); },
                                                     args({"parse", "--format", "json"}), 3, out_.path());
  for (const char *format : {"json", "text", "csv", "markdown", "sarif", "junit", "github", "html"}) {
    const RunResult one = run(args({"parse", "--format", format}));
    ASSERT_EQ(one.exit_code, 0) << one.err;
    std::vector<std::string> merge = {"merge", "--format", format};
    merge.insert(merge.end(), shards.begin(), shards.end());
    const RunResult merged = run(merge);
    ASSERT_EQ(merged.exit_code, 0) << merged.err;
    if (std::string(format) == "json")
      EXPECT_EQ(withoutShard(merged.out).dump(2), json::parse(one.out).dump(2));
    else
      EXPECT_EQ(merged.out, one.out) << format;
  }
  // The one-process JSON has kernels of both producers: the merge did merge.
  const json one = json::parse(run(args({"parse", "--format", "json"})).out);
  EXPECT_EQ(one.at("inputs").size(), 6u);
  EXPECT_GE(one.at("kernels").size(), 6u);
}

TEST_F(ShardParse, EachShardHoldsItsPartAndRecordsTheRun) {
  const std::vector<std::string> shards = shardFiles([&](const std::vector<std::string> &a) { return run(a); },
                                                     args({"parse", "--format", "json"}), 3, out_.path());
  std::set<std::string> inputs;
  std::size_t total = 0;
  std::string fingerprint;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    const json j = json::parse(test::readText(shards[k]));
    EXPECT_EQ(j.at("shard").at("shards"), json::array({k + 1}));
    EXPECT_EQ(j.at("shard").at("count"), 3);
    EXPECT_EQ(j.at("shard").at("jobs"), 6);
    if (k == 0) fingerprint = j.at("shard").at("fingerprint");
    EXPECT_EQ(j.at("shard").at("fingerprint"), fingerprint);
    EXPECT_GE(j.at("inputs").size(), 1u);  // 6 files of similar sizes over 3 shards: none idle
    for (const json &input : j.at("inputs")) inputs.insert(input.get<std::string>());
    total += j.at("inputs").size();
  }
  EXPECT_EQ(total, 6u);                                                    // disjoint
  EXPECT_EQ(inputs, std::set<std::string>(files_.begin(), files_.end()));  // covering
}

TEST_F(ShardParse, ThePartitionIsTheSameFromAnotherDirectoryAndPrefix) {
  // The same repository checked out elsewhere, the command run from a subdirectory.
  TempDir other;
  fs::create_directories(work_.path() + "/.git");
  fs::create_directories(other.path() + "/deep/checkout/.git");
  fs::create_directories(other.path() + "/deep/checkout/sub");
  std::vector<std::string> from_sub;
  for (const std::string &f : files_) {
    fs::copy_file(work_.path() + "/" + f, other.path() + "/deep/checkout/" + f);
    from_sub.push_back("../" + f);
  }
  for (int k = 1; k <= 3; ++k) {
    const std::string spec = std::to_string(k) + "/3";
    const RunResult here = run(args({"parse", "--format", "json", "--shard", spec}));
    std::vector<std::string> there_args = {"/usr/bin/env",
                                           "TMPDIR=" + tmp_.path(),
                                           "XDG_CACHE_HOME=" + cache_.path(),
                                           REGSCOPE_BINARY,
                                           "parse",
                                           "--format",
                                           "json",
                                           "--shard",
                                           spec};
    there_args.insert(there_args.end(), from_sub.begin(), from_sub.end());
    const RunResult there = runCaptured(there_args, other.path() + "/deep/checkout/sub");
    ASSERT_EQ(here.exit_code, 0) << here.err;
    ASSERT_EQ(there.exit_code, 0) << there.err;
    const json a = json::parse(here.out).at("shard"), b = json::parse(there.out).at("shard");
    EXPECT_EQ(a.at("fingerprint"), b.at("fingerprint"));
    std::vector<std::string> keys_a, keys_b;
    for (const json &p : a.at("pieces")) keys_a.push_back(p.at("key"));
    for (const json &p : b.at("pieces")) keys_b.push_back(p.at("key"));
    EXPECT_EQ(keys_a, keys_b) << spec;
    EXPECT_FALSE(keys_a.empty());
  }
}

TEST_F(ShardParse, MergeRefusesAMissingShard) {
  std::vector<std::string> shards = shardFiles([&](const std::vector<std::string> &a) { return run(a); },
                                               args({"parse", "--format", "json"}), 3, out_.path());
  const RunResult r = run({"merge", shards[0], shards[2]});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("regscope: error: merge: shard 2/3 is missing"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(ShardParse, MergeRefusesAShardGivenTwice) {
  std::vector<std::string> shards = shardFiles([&](const std::vector<std::string> &a) { return run(a); },
                                               args({"parse", "--format", "json"}), 2, out_.path());
  const RunResult r = run({"merge", shards[0], shards[1], shards[0]});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("shard 1/2 is given twice"), std::string::npos) << r.err;
  // A merge of both, with one of them again: the shards overlap.
  const RunResult merged = run({"merge", "--format", "json", "-o", out_.path() + "/merged.json", shards[0], shards[1]});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  const RunResult again = run({"merge", out_.path() + "/merged.json", shards[1]});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("shard 2/2 is given twice"), std::string::npos) << again.err;
}

TEST_F(ShardParse, MergeRefusesShardsOfDifferentRuns) {
  const std::string a = out_.path() + "/a.json", b = out_.path() + "/b.json";
  ASSERT_EQ(run(args({"parse", "--format", "json", "--shard", "1/2", "-o", a}), {"REGSCOPE_RUN_ID=monday"}).exit_code,
            0);
  ASSERT_EQ(run(args({"parse", "--format", "json", "--shard", "2/2", "-o", b}), {"REGSCOPE_RUN_ID=tuesday"}).exit_code,
            0);
  const RunResult r = run({"merge", a, b});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("different runs: run 'monday' and run 'tuesday'"), std::string::npos) << r.err;
}

TEST_F(ShardParse, MergeRefusesShardsOfDifferentInputsOrCounts) {
  const std::string a = out_.path() + "/a.json", b = out_.path() + "/b.json", c = out_.path() + "/c.json";
  ASSERT_EQ(run(args({"parse", "--format", "json", "--shard", "1/2", "-o", a})).exit_code, 0);
  std::vector<std::string> fewer = {"parse", "--format", "json", "--shard", "2/2", "-o", b};
  fewer.insert(fewer.end(), files_.begin(), files_.end() - 1);
  ASSERT_EQ(run(fewer).exit_code, 0);
  RunResult r = run({"merge", a, b});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("different inputs"), std::string::npos) << r.err;
  ASSERT_EQ(run(args({"parse", "--format", "json", "--shard", "2/3", "-o", c})).exit_code, 0);
  r = run({"merge", a, c});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("into 2 and into 3"), std::string::npos) << r.err;
}

TEST_F(ShardParse, MergeRefusesShardsOfDifferentOptions) {
  const std::string a = out_.path() + "/a.json", b = out_.path() + "/b.json";
  ASSERT_EQ(run(args({"parse", "--format", "json", "--shard", "1/2", "-o", a})).exit_code, 0);
  ASSERT_EQ(run(args({"parse", "--format", "json", "--shard", "2/2", "--arch", "gfx90a", "-o", b})).exit_code, 0);
  const RunResult r = run({"merge", a, b});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("different options"), std::string::npos) << r.err;
}

TEST_F(ShardParse, MergeRefusesAReportWithoutShardAndAnEditedShard) {
  const std::string plain = out_.path() + "/plain.json", a = out_.path() + "/a.json";
  ASSERT_EQ(run(args({"parse", "--format", "json", "-o", plain})).exit_code, 0);
  RunResult r = run({"merge", plain});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a shard report"), std::string::npos) << r.err;
  ASSERT_EQ(run(args({"parse", "--format", "json", "--shard", "1/1", "-o", a})).exit_code, 0);
  json j = json::parse(test::readText(a));
  j["shard"]["regscope_version"] = "9.9.9";  // a shard of another version, its fingerprint not redone
  std::ofstream(a) << j.dump();
  r = run({"merge", a});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("fingerprint does not match"), std::string::npos) << r.err;
}

// Issue 30: a shard with one figure edited by hand (LBM's 102 VGPRs made 60)
// or one kernel record deleted merged with exit 0, and gate --report stopped
// failing the kernel: the fingerprint covered the run, not the records. The
// shard's records_digest covers them: merge and --report refuse it, one line
// naming the shard, exit 2.
TEST_F(ShardParse, AShardWithAnEditedFigureOrADeletedRecordIsRefusedByMergeAndGate) {
  const std::vector<std::string> shards = shardFiles([&](const std::vector<std::string> &a) { return run(a); },
                                                     args({"parse", "--format", "json"}), 2, out_.path());
  ASSERT_EQ(run({"merge", shards[0], shards[1]}).exit_code, 0);  // as written: merged
  const json written = json::parse(test::readText(shards[0]));
  ASSERT_EQ(written.at("shard").at("format"), kShardFormat);
  // The LBM kernel of hipcc 5.2.3's gfx90a assembly: 102 VGPRs (the .s says "; NumVgprs: 102").
  std::string lbm_shard;
  json edited;
  for (const std::string &path : shards) {
    json j = json::parse(test::readText(path));
    for (json &piece : j["shard"]["pieces"])
      for (json &record : piece["records"])
        if (record["file"] == "hipcc-5.2.3-lbm-gfx90a.s" && record["values"].value("vgprs", 0) == 102) {
          record["values"]["vgprs"] = 60;
          lbm_shard = path;
          edited = j;
        }
  }
  ASSERT_FALSE(lbm_shard.empty());
  const std::string original = test::readText(lbm_shard);
  std::ofstream(lbm_shard) << edited.dump();
  for (const std::vector<std::string> &command :
       {std::vector<std::string>{"merge", shards[0], shards[1]},
        std::vector<std::string>{"gate", "--report", shards[0], "--report", shards[1], "--max-spills", "0"}}) {
    const RunResult r = run(command);
    EXPECT_EQ(r.exit_code, 2) << command[0] << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(lbm_shard + ": the shard's records do not match its digest"), std::string::npos) << r.err;
  }
  // One kernel record deleted (and its launch, so the shard is otherwise whole).
  json deleted = json::parse(original);
  for (json &piece : deleted["shard"]["pieces"])
    if (!piece["records"].empty()) {
      piece["records"].erase(0);
      piece["launches"].erase(0);
      break;
    }
  std::ofstream(lbm_shard) << deleted.dump();
  RunResult r = run({"merge", shards[0], shards[1]});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("do not match its digest"), std::string::npos) << r.err;
  // A shard of format 1 (no digest) is refused with what to do.
  json old = json::parse(original);
  old["shard"]["format"] = 1;
  old["shard"].erase("records_digest");
  std::ofstream(lbm_shard) << old.dump();
  r = run({"merge", shards[0], shards[1]});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(lbm_shard + ": this shard report carries no digest of its records"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("re-run the shard"), std::string::npos) << r.err;
  // Written back as regscope wrote it: merged again.
  std::ofstream(lbm_shard) << original;
  EXPECT_EQ(run({"merge", shards[0], shards[1]}).exit_code, 0);
}

// Issue 30: parse DIR --shard K/3 then merge said the honest shards were
// incomplete (a directory's walk was never recorded as its input's part).
TEST_F(ShardParse, ShardsOfADirectoryMergeToTheOneProcessReport) {
  fs::create_directories(work_.path() + "/tree/sub");
  for (std::size_t i = 0; i < files_.size(); ++i)
    fs::copy_file(work_.path() + "/" + files_[i], work_.path() + (i % 2 ? "/tree/sub/" : "/tree/") + files_[i]);
  const std::vector<std::string> shards = shardFiles([&](const std::vector<std::string> &a) { return run(a); },
                                                     {"parse", "--format", "json", "tree"}, 3, out_.path());
  std::vector<std::string> merge = {"merge", "--format", "json"};
  merge.insert(merge.end(), shards.begin(), shards.end());
  const RunResult merged = run(merge);
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  const RunResult one = run({"parse", "--format", "json", "tree"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const json a = json::parse(merged.out), b = json::parse(one.out);
  ASSERT_EQ(a.at("kernels").size(), b.at("kernels").size());
  EXPECT_GE(a.at("kernels").size(), 6u);  // the six files' kernels, each file read once
  // The same kernels with the same figures (the merge lists them in the walk's order of
  // its one input, the one-process report in its own: compared by file, name and arch).
  const auto byKernel = [](const json &report) {
    std::map<std::string, std::string> out;
    for (const json &k : report.at("kernels"))
      out[k.at("file").get<std::string>() + " " + k.at("name").get<std::string>() + " " +
          k.at("arch").get<std::string>()] = k.at("occupancy").dump();
    return out;
  };
  EXPECT_EQ(byKernel(a), byKernel(b));
}

TEST_F(ShardParse, BadShardSpecsAreErrors) {
  for (const char *bad : {"0/3", "4/3", "1/0", "a/b"}) {
    const RunResult r = run(args({"parse", "--shard", bad}));
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("regscope: error: --shard"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST_F(ShardParse, AutoSaysWhichShardItTookAndRefusesWithoutSlurm) {
  RunResult r = run(args({"parse", "--format", "json", "--shard", "auto"}),
                    {"SLURM_ARRAY_TASK_ID=3", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_COUNT=3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("regscope: --shard auto: shard 3/3 (SLURM_ARRAY_TASK_ID=3, SLURM_ARRAY_TASK_MIN=1, "
                       "SLURM_ARRAY_TASK_COUNT=3)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(json::parse(r.out).at("shard").at("shards"), json::array({3}));
  r = test::runRegscope(args({"parse", "--shard", "auto"}), work_.path(), tmp_.path(), cache_.path(),
                        {"SLURM_ARRAY_TASK_ID="});  // empty is unset
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("SLURM_ARRAY_TASK_ID is not set"), std::string::npos) << r.err;
}

// ---- analyze: a real multi-file analysis, sharded 3 ways ----

class ShardAnalyze : public test::BinaryWithHipcc {
 protected:
  std::vector<std::string> sources() {
    return {sourcePath("kernels/bitonic/bitonic.hip"), sourcePath("kernels/laplacian/laplacian.hip"),
            sourcePath("kernels/unroll/ax.hip"), sourcePath("kernels/wideload/wideload.hip")};
  }
};

TEST_F(ShardAnalyze, MergedShardsEqualOneProcessAndCompileEachFileOnce) {
  std::vector<std::string> base = {"analyze", "--no-cache", "-v", "--offload-arch", "gfx90a,gfx908"};
  for (const std::string &s : sources()) base.push_back(s);
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  auto compiles = [](const std::string &err) {
    std::size_t n = 0;
    for (std::size_t at = err.find(": compiled for "); at != std::string::npos;
         at = err.find(": compiled for ", at + 1))
      ++n;
    return n;
  };
  TempDir out;
  const RunResult one = run(with({"--format", "json"}));
  ASSERT_EQ(one.exit_code, 0) << one.err;
  std::vector<std::string> shards;
  std::size_t shard_compiles = 0;
  for (int k = 1; k <= 3; ++k) {
    shards.push_back(out.path() + "/s" + std::to_string(k) + ".json");
    const RunResult r = run(with({"--format", "json", "--shard", std::to_string(k) + "/3", "-o", shards.back()}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    shard_compiles += compiles(r.err);
  }
  EXPECT_EQ(compiles(one.err), 4u);
  EXPECT_EQ(shard_compiles, 4u);  // N shards do no compile twice
  std::vector<std::string> merge = {"merge", "--format", "json"};
  merge.insert(merge.end(), shards.begin(), shards.end());
  const RunResult merged = run(merge);
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  // Byte for byte, but for the shard object.
  json m = json::parse(merged.out);
  EXPECT_EQ(m.at("shard").at("shards"), json::array({1, 2, 3}));
  m.erase("shard");
  EXPECT_EQ(m.dump(2) + "\n", one.out);
  EXPECT_GE(m.at("kernels").size(), 8u);
  for (const char *format : {"text", "csv", "sarif", "markdown"}) {
    const RunResult a = run(with({"--format", format}));
    std::vector<std::string> mf = {"merge", "--format", format};
    mf.insert(mf.end(), shards.begin(), shards.end());
    const RunResult b = run(mf);
    EXPECT_EQ(a.out, b.out) << format;
  }
  // gate and baseline judge the shards (or the merge) without compiling.
  std::vector<std::string> gate_report = {"gate", "--max-spills", "0", "--format", "json", "-v", "--report"};
  gate_report.insert(gate_report.end(), shards.begin(), shards.end());
  const RunResult gated = run(gate_report);
  const RunResult gated_one = run({"gate", "--max-spills", "0", "--format", "json", "--no-cache", "--offload-arch",
                                   "gfx90a,gfx908", sources()[0], sources()[1], sources()[2], sources()[3]});
  EXPECT_EQ(gated.exit_code, gated_one.exit_code) << gated.err;
  EXPECT_EQ(gated.out, gated_one.out);
  EXPECT_EQ(compiles(gated.err), 0u);
  const std::string baseline = out.path() + "/baseline.json", baseline_one = out.path() + "/baseline-one.json";
  // wideload's launches pass a block size read at run time: not judged, so not recorded (--allow-unknown).
  std::vector<std::string> base_report = {"baseline", "-o", baseline, "--allow-unknown", "--report"};
  base_report.insert(base_report.end(), shards.begin(), shards.end());
  ASSERT_EQ(run(base_report).exit_code, 0);
  ASSERT_EQ(run({"baseline", "-o", baseline_one, "--allow-unknown", "--no-cache", "--offload-arch", "gfx90a,gfx908",
                 sources()[0], sources()[1], sources()[2], sources()[3]})
                .exit_code,
            0);
  EXPECT_EQ(test::readText(baseline), test::readText(baseline_one));
}

// ---- collect: a build's sidecars (regscope wrap), sharded 2 ways ----

TEST_F(ShardAnalyze, ShardedCollectMergesToTheOneProcessReport) {
  TempDir build;  // the build directory: the sources copied in, compiled there (hipcc leaves files in TMPDIR)
  fs::copy(sourcePath("kernels/common"), build.path() + "/common");
  for (const std::string &source : sources()) {
    const std::string name = fs::path(source).filename().string(), stem = fs::path(source).stem().string();
    fs::create_directories(build.path() + "/" + stem);
    fs::copy_file(source, build.path() + "/" + stem + "/" + name);
    const RunResult r = test::runRegscope({"wrap", "--", "hipcc", "-O3", "-I", "common", "--offload-arch=gfx90a", "-c",
                                           stem + "/" + name, "-o", stem + ".o"},
                                          build.path(), build.path(), cache_->path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_TRUE(fs::exists(build.path() + "/" + stem + ".o.regscope.json")) << r.err;
  }
  // A sidecar that cannot be read: an error of the run (before every input's), in shard 1's report.
  std::ofstream(build.path() + "/broken.o.regscope.json") << "{garbage";
  TempDir out;
  std::vector<std::string> shards;
  for (int k = 1; k <= 2; ++k) {
    shards.push_back(out.path() + "/c" + std::to_string(k) + ".json");
    const RunResult r =
        run({"collect", build.path(), "--shard", std::to_string(k) + "/2", "--format", "json", "-o", shards.back()});
    EXPECT_EQ(r.exit_code, k == 1 ? 2 : 0) << r.err;  // the broken sidecar is shard 1's to report
  }
  for (const char *format : {"json", "text", "csv"}) {
    const RunResult one = run({"collect", build.path(), "--format", format});
    const RunResult merged = run({"merge", "--format", format, shards[0], shards[1]});
    EXPECT_EQ(one.exit_code, 2);
    EXPECT_EQ(merged.exit_code, 2);
    EXPECT_EQ(merged.err, one.err);
    if (std::string(format) == "json") {
      EXPECT_EQ(withoutShard(merged.out).dump(2) + "\n", one.out);
      const json j = json::parse(one.out);
      EXPECT_EQ(j.at("errors").size(), 1u);
      EXPECT_GE(j.at("kernels").size(), 8u);
    } else {
      EXPECT_EQ(merged.out, one.out) << format;
    }
  }
}

}  // namespace
}  // namespace regscope
