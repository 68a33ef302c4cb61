// A view with the "shard" object in its JSON (include/regscope/views/shard_view.h).
#include "regscope/views/shard_view.h"

namespace regscope {
namespace {

class ShardJsonView : public View {
 public:
  ShardJsonView(std::unique_ptr<View> view, std::function<nlohmann::json()> shard)
      : view_(std::move(view)), shard_(std::move(shard)) {}
  Document document() const override { return view_->document(); }
  nlohmann::json toJson() const override {
    nlohmann::json j = view_->toJson();
    j["shard"] = shard_();
    return j;
  }
  std::optional<CiReport> ci() const override { return view_->ci(); }
  nlohmann::json page() const override { return view_->page(); }

 private:
  std::unique_ptr<View> view_;
  std::function<nlohmann::json()> shard_;
};

}  // namespace

std::unique_ptr<View> withShardJson(std::unique_ptr<View> view, std::function<nlohmann::json()> shard) {
  return std::make_unique<ShardJsonView>(std::move(view), std::move(shard));
}

}  // namespace regscope
