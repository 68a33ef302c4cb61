// The result cache: dependency files, hits, misses, damaged entries.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "regscope/cache/cache.h"
#include "regscope/support/depfile.h"
#include "regscope/support/process.h"
#include "test_util.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

TEST(DependencyFile, ContinuationsAndEscapedSpaces) {
  EXPECT_EQ(parseDependencyFile("k.o: /src/k.hip \\\n  /usr/include/a\\ b.h \\\n  /x/c.h\n"),
            (std::vector<std::string>{"/src/k.hip", "/usr/include/a b.h", "/x/c.h"}));
  EXPECT_TRUE(parseDependencyFile("").empty());
}

class Cache : public ::testing::Test {
 protected:
  void SetUp() override {
    source_ = dir_.path() + "/k.hip";
    header_ = dir_.path() + "/k.h";
    std::ofstream(source_) << "#include \"k.h\"\n";
    std::ofstream(header_) << "#define N 1\n";
    job_.compiler = "/bin/sh";  // any existing file: its identity is part of the key
    job_.source = source_;
    job_.archs = {"gfx90a"};
    KernelRecord r;
    r.name = "_Z1kv";
    r.values[static_cast<std::size_t>(Field::Vgprs)] = 42;
    result_.records = {r};
    result_.producer = "clang 15";
  }
  TempDir dir_, cache_dir_;
  std::string source_, header_;
  CompileJob job_;
  CachedResult result_;
};

TEST_F(Cache, HitUntilADependencyChanges) {
  ResultCache cache(cache_dir_.path());
  const std::string key = cache.keyFor(job_);
  EXPECT_FALSE(cache.lookup(key));
  cache.store(key, result_, {source_, header_});
  auto hit = cache.lookup(key);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->producer, "clang 15");
  ASSERT_EQ(hit->records.size(), 1u);
  EXPECT_EQ(hit->records[0].value(Field::Vgprs), 42);
  EXPECT_FALSE(hit->records[0].has(Field::Agprs));

  // Rewritten with the same bytes (new mtime): still a hit.
  std::ofstream(header_) << "#define N 1\n";
  EXPECT_TRUE(cache.lookup(key));
  // Changed bytes: a miss.
  std::ofstream(header_) << "#define N 2\n";
  EXPECT_FALSE(cache.lookup(key));
}

TEST_F(Cache, KeysDependOnFlagsArchsAndSource) {
  ResultCache cache(cache_dir_.path());
  const std::string key = cache.keyFor(job_);
  CompileJob other = job_;
  other.extra_flags = {"-DN=2"};
  EXPECT_NE(cache.keyFor(other), key);
  other = job_;
  other.archs = {"gfx908"};
  EXPECT_NE(cache.keyFor(other), key);
  other = job_;
  other.source = header_;
  EXPECT_NE(cache.keyFor(other), key);
  EXPECT_EQ(cache.keyFor(job_), key);
}

TEST_F(Cache, DamagedEntriesAndMissingFilesAreMisses) {
  ResultCache cache(cache_dir_.path());
  const std::string key = cache.keyFor(job_);
  cache.store(key, result_, {source_, header_});
  std::ofstream(cache_dir_.path() + "/" + key + ".json") << "{\"format\": 1, \"truncated";
  EXPECT_FALSE(cache.lookup(key));
  cache.store(key, result_, {source_, header_});
  fs::remove(header_);
  EXPECT_FALSE(cache.lookup(key));
  ResultCache disabled("");
  disabled.store(key, result_, {source_});
  EXPECT_FALSE(disabled.lookup(key));
}

// Issue 30: a cache shared between machines, an entry edited by hand (a
// scratch of 144 made 0, VGPRs 196 made 64) was served and a gate passed.
// Each entry carries a SHA-256 of its key and content: an edit is a miss,
// counted (main says the count once), and the next store replaces it.
TEST_F(Cache, AnEntryEditedByHandIsAMissAndCounted) {
  ResultCache cache(cache_dir_.path());
  const std::string key = cache.keyFor(job_);
  const std::string path = cache_dir_.path() + "/" + key + ".json";
  result_.records[0].values[static_cast<std::size_t>(Field::ScratchBytes)] = 144;
  cache.store(key, result_, {source_, header_});
  ASSERT_TRUE(cache.lookup(key));
  const std::size_t before = ResultCache::editedEntriesSeen();
  nlohmann::json entry = nlohmann::json::parse(test::readText(path));
  ASSERT_TRUE(entry.contains("digest"));
  entry["records"][0]["values"]["scratch_bytes"] = 0;  // the edit: 144 -> 0, digest kept
  std::ofstream(path) << entry.dump();
  EXPECT_FALSE(cache.lookup(key));
  EXPECT_FALSE(cache.lookup(key));  // looked up again (after the fill claim): still one entry
  EXPECT_EQ(ResultCache::editedEntriesSeen(), before + 1);
  // One byte of the boundary: the unedited figure, written back, is a hit again.
  entry["records"][0]["values"]["scratch_bytes"] = 144;
  std::ofstream(path) << entry.dump();
  EXPECT_TRUE(cache.lookup(key));
  // An entry without a digest (an older regscope's, or one stripped of it) is a miss.
  entry.erase("digest");
  std::ofstream(path) << entry.dump();
  EXPECT_FALSE(cache.lookup(key));
  // A whole entry copied under another key (another compile's name) is a miss.
  cache.store(key, result_, {source_, header_});
  CompileJob other = job_;
  other.archs = {"gfx908"};
  const std::string other_key = cache.keyFor(other);
  fs::copy_file(path, cache_dir_.path() + "/" + other_key + ".json");
  EXPECT_FALSE(cache.lookup(other_key));
  EXPECT_EQ(ResultCache::editedEntriesSeen(), before + 2);  // two entries: the edited one, the copy
}

}  // namespace
}  // namespace regscope
