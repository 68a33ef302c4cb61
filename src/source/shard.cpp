// The partition behind --shard K/N (include/regscope/source/shard.h).
#include "regscope/source/shard.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <numeric>
#include <optional>
#include <set>

#include "regscope/support/error.h"
#include "regscope/support/files.h"

namespace regscope {
namespace {

namespace fs = std::filesystem;

// A whole number, all of `text`, in [low, high]; nothing otherwise.
std::optional<long long> wholeNumberIn(const std::string &text, long long low, long long high) {
  long long n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || n < low || n > high) return std::nullopt;
  return n;
}

}  // namespace

ShardSpec parseShardSpec(const std::string &text) {
  const std::size_t slash = text.find('/');
  const std::string usage = "--shard '" + text + "': give K/N, shard K (1 to N) of N, e.g. 2/4, or auto (Slurm)";
  if (slash == std::string::npos) throw Error(usage);
  const std::optional<long long> k = wholeNumberIn(text.substr(0, slash), 1, 1 << 20);
  const std::optional<long long> n = wholeNumberIn(text.substr(slash + 1), 1, 1 << 20);
  if (!k || !n) throw Error(usage);
  if (*k > *n)
    throw Error("--shard '" + text + "': shard " + std::to_string(*k) + " of " + std::to_string(*n) +
                " does not exist (K runs from 1 to N)");
  return {static_cast<int>(*k), static_cast<int>(*n)};
}

ShardSpec shardFromSlurm(const std::function<const char *(const char *)> &env) {
  auto number = [&](const char *name, bool required, long long low) -> std::optional<long long> {
    const char *value = env(name);
    if (!value || !*value) {
      if (!required) return std::nullopt;
      throw Error(std::string("--shard auto: ") + name +
                  " is not set (run under a Slurm job array, sbatch --array=1-N, or give --shard K/N)");
    }
    std::optional<long long> n = wholeNumberIn(value, low, 1LL << 31);
    if (!n)
      throw Error(std::string("--shard auto: ") + name + "='" + value + "' is not a whole number of at least " +
                  std::to_string(low));
    return n;
  };
  const long long id = *number("SLURM_ARRAY_TASK_ID", true, 0);
  const long long min = *number("SLURM_ARRAY_TASK_MIN", true, 0);
  const long long count = *number("SLURM_ARRAY_TASK_COUNT", true, 1);
  const long long step = number("SLURM_ARRAY_TASK_STEP", false, 1).value_or(1);
  const std::optional<long long> max = number("SLURM_ARRAY_TASK_MAX", false, 0);
  const std::string said = "SLURM_ARRAY_TASK_ID=" + std::to_string(id) +
                           ", SLURM_ARRAY_TASK_MIN=" + std::to_string(min) +
                           ", SLURM_ARRAY_TASK_COUNT=" + std::to_string(count);
  if (id < min || (id - min) % step != 0 || (id - min) / step >= count)
    throw Error("--shard auto: inconsistent Slurm array (" + said +
                (step != 1 ? ", step " + std::to_string(step) : "") +
                "): the task is not one of the array's COUNT tasks from MIN");
  if (max && *max != min + (count - 1) * step)
    throw Error("--shard auto: inconsistent Slurm array (" + said + ", SLURM_ARRAY_TASK_MAX=" + std::to_string(*max) +
                "): a shard per task needs a contiguous array such as --array=1-N (no % limit changes this; "
                "a list such as 1,5,7 does)");
  if (count > (1 << 20)) throw Error("--shard auto: SLURM_ARRAY_TASK_COUNT=" + std::to_string(count) + " is too many");
  return {static_cast<int>((id - min) / step + 1), static_cast<int>(count)};
}

std::vector<int> partitionShards(const std::vector<ShardItem> &items, int count) {
  if (count < 1) throw Error("a partition needs at least one shard");
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (items[a].weight != items[b].weight) return items[a].weight > items[b].weight;
    return items[a].key < items[b].key;
  });
  {
    std::set<std::string> keys;
    for (const ShardItem &item : items)
      if (!keys.insert(item.key).second) throw Error("two inputs have the same shard key " + item.key);
  }
  // Loads as (load, shard): the lightest shard, the lowest-numbered among equals.
  std::set<std::pair<std::uint64_t, int>> loads;
  for (int s = 0; s < count; ++s) loads.insert({0, s});
  std::vector<int> shard(items.size(), 0);
  for (std::size_t i : order) {
    auto lightest = loads.begin();
    const auto [load, s] = *lightest;
    loads.erase(lightest);
    shard[i] = s;
    // Every input weighs at least 1: empty files still spread over the shards.
    loads.insert({load + std::max<std::uint64_t>(items[i].weight, 1), s});
  }
  return shard;
}

std::string shardKey(const std::string &absolute_path, const std::string &base, int variant) {
  std::error_code ec;
  const fs::path path = fs::weakly_canonical(fs::absolute(absolute_path, ec), ec).lexically_normal();
  std::string key = path.string();
  auto below = [&](const std::string &dir) -> bool {
    if (dir.empty()) return false;
    const fs::path rel = path.lexically_relative(fs::weakly_canonical(fs::absolute(dir, ec), ec));
    if (rel.empty() || *rel.begin() == "..") return false;
    key = rel.generic_string();
    return true;
  };
  if (std::optional<std::string> root = repositoryRoot(path.parent_path().string()); !(root && below(*root)))
    below(base);
  return variant ? key + "#" + std::to_string(variant) : key;
}

}  // namespace regscope
