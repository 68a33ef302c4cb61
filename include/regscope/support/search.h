// Inverse questions over monotone rules ("the most VGPRs that still allow 5
// waves") are answered by searching the forward rule, so each rule is
// written once and its inverse cannot drift from it.
#pragma once

namespace regscope {

// Largest x in [lo, hi] with pred(x) true, assuming pred is true at lo and
// monotone (true ... true false ... false). Returns lo - 1 if pred(lo) fails.
template <typename Pred>
int largestWhere(int lo, int hi, Pred pred) {
  if (!pred(lo)) return lo - 1;
  while (lo < hi) {
    int mid = lo + (hi - lo + 1) / 2;
    if (pred(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

}  // namespace regscope
