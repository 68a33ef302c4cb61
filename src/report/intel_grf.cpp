#include "intel_grf.h"

#include <map>
#include <tuple>
#include <utility>

namespace regscope {

void recommendGrfModes(std::vector<KernelReport> &kernels, std::size_t first) {
  // (file, kernel, device) -> the small and large GRF records
  std::map<std::tuple<std::string, std::string, std::string>, std::pair<KernelReport *, KernelReport *>> pairs;
  for (std::size_t i = first; i < kernels.size(); ++i) {
    KernelReport &k = kernels[i];
    const IntelKernelModel *intel = k.intel();
    if (!intel || intel->target.grf == GrfMode::Auto) continue;
    auto &pair = pairs[{k.record.file, k.record.name, intel->target.device}];
    (intel->target.grf == GrfMode::Small ? pair.first : pair.second) = &k;
  }
  for (auto &[key, pair] : pairs) {
    if (!pair.first || !pair.second) continue;
    const IntelKernelModel &small = std::get<IntelKernelModel>(pair.first->model);
    if (!small.spill_known) continue;  // no rule on a spill figure nobody gave
    const GrfRecommendation rule = recommendGrfMode(small.device, small.spill_bytes);
    for (KernelReport *k : {pair.first, pair.second}) std::get<IntelKernelModel>(k->model).grf_recommendation = rule;
  }
}

}  // namespace regscope
