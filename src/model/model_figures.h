// How the models take a record's figures: in int, clamped into
// 0..kMaxModelFigure and named when they were not (shared by every vendor's
// model; private to src/model/).
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "regscope/model/kernel_model.h"

namespace regscope {

// A record's figures as the models take them, in int. A figure outside
// 0..kMaxModelFigure (ptxas's "4294966272 bytes smem", or a crafted file) is
// clamped into that range and named in `clamped`, never narrowed silently.
// The bound is far beyond every target's limits, so a clamped figure still
// exceeds the limit it exceeded, and sums of a few stay inside int.
class Figures {
 public:
  Figures(const KernelRecord &record, std::vector<Field> &clamped) : record_(record), clamped_(clamped) {}
  int operator()(Field f) const {
    const std::int64_t v = record_.value(f);
    if (v >= 0 && v <= kMaxModelFigure) return static_cast<int>(v);
    if (std::find(clamped_.begin(), clamped_.end(), f) == clamped_.end()) clamped_.push_back(f);
    return v < 0 ? 0 : static_cast<int>(kMaxModelFigure);
  }

 private:
  const KernelRecord &record_;
  std::vector<Field> &clamped_;
};

// a + b, where b comes from the command line: saturated rather than wrapped.
inline int addBytes(int a, int b) {
  return static_cast<int>(std::clamp<std::int64_t>(std::int64_t{a} + b, 0, INT_MAX));
}

}  // namespace regscope
