// A view with a shard report's "shard" object in its JSON (docs/sharding.md);
// every other format is the view's own, unchanged.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>

#include "regscope/views/view.h"

namespace regscope {

std::unique_ptr<View> withShardJson(std::unique_ptr<View> view, nlohmann::json shard);

}  // namespace regscope
