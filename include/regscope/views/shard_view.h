// A view with a shard report's "shard" object in its JSON (docs/sharding.md);
// every other format is the view's own, unchanged.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>

#include "regscope/views/view.h"

namespace regscope {

// `shard` makes the object when the JSON is written (no other format pays for it).
std::unique_ptr<View> withShardJson(std::unique_ptr<View> view, std::function<nlohmann::json()> shard);

}  // namespace regscope
