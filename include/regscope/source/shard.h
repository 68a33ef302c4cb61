// --shard K/N: which inputs one of N machines analyses (docs/sharding.md).
// The partition depends only on each input's repository-relative key and its
// size in bytes, so every machine of a Slurm job array or a CI matrix that
// sees the same checkout computes the same N shards: disjoint, covering
// every input, balanced by size.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace regscope {

struct ShardSpec {
  int index = 0;  // 1-based; 0: not sharded
  int count = 0;
  bool sharded() const { return count > 0; }
  std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

// "K/N" with 1 <= K <= N. Throws regscope::Error naming the spec otherwise
// ("0/3", "4/3", "1/0", "a/b", "3").
ShardSpec parseShardSpec(const std::string &text);

// --shard auto: K and N from a Slurm job array. K is the task's place in the
// array (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP + 1,
// N is SLURM_ARRAY_TASK_COUNT; SLURM_ARRAY_TASK_MAX, when set, must agree.
// `env` looks a variable up (std::getenv in the tool). Throws regscope::Error,
// naming the variable, when one is missing, not a number, or inconsistent.
ShardSpec shardFromSlurm(const std::function<const char *(const char *)> &env);

// One input to place: its key (repository-relative path, see shardKey) and
// its weight (the file's size in bytes).
struct ShardItem {
  std::string key;
  std::uint64_t weight = 0;
};

// The shard (0-based) of each item, in the items' order. Greedy longest
// first: items by weight (heaviest first, then key), each to the lightest
// shard so far (the lowest-numbered among equals). Depends only on the keys
// and weights, never on their order or on the machine. Throws regscope::Error
// when `count` < 1 or two items share a key.
std::vector<int> partitionShards(const std::vector<ShardItem> &items, int count);

// The key of an input, the same under any checkout directory: its path
// relative to the top of the git repository that holds it; outside a
// repository, relative to `base` (the compile database's directory with -p,
// else the working directory); else the absolute path. A compile database's
// second entry of a file (other flags) gets "#2", as the baseline keys it.
std::string shardKey(const std::string &absolute_path, const std::string &base, int variant = 0);

}  // namespace regscope
