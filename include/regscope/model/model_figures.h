// How the models take a record's figures: in int, clamped into
// 0..kMaxModelFigure and named when they were not; the launch the model
// assumes. Shared by every backend's model (src/backends/<vendor>/kernel_model.cpp).
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "regscope/model/kernel_model.h"

namespace regscope {

// A record's figures as the models take them, in int. The models first check
// every figure (impossibleFigure): one outside 0..kMaxModelFigure makes the
// kernel invalid, so the saturation here is never reached with one; a figure
// no source gave is 0 here only for figures the model checked are optional.
class Figures {
 public:
  explicit Figures(const KernelRecord &record) : record_(record) {}
  int operator()(Field f) const {
    const std::int64_t v = record_.values[static_cast<std::size_t>(f)].value_or(0);
    return static_cast<int>(std::clamp<std::int64_t>(v, 0, kMaxModelFigure));
  }

 private:
  const KernelRecord &record_;
};

// "vgprs 4294967364 is outside what any target allows", for the first figure
// outside 0..kMaxModelFigure; empty when there is none.
std::string figureOutOfRange(const KernelRecord &record);

// a + b, where b comes from the command line: saturated rather than wrapped.
inline int addBytes(int a, int b) {
  return static_cast<int>(std::clamp<std::int64_t>(std::int64_t{a} + b, 0, INT_MAX));
}

// The record's figure `f`, which it has, unclamped.
inline std::int64_t figure(const KernelRecord &record, Field f) { return *record.values[static_cast<std::size_t>(f)]; }

// Whether one of `unknown` feeds a vendor's occupancy: then there is none.
bool occupancyUnknown(const std::vector<Field> &unknown);

// The workgroup/block size the model assumes: --block-size, else what the
// kernel was compiled for (`field`, reported as `field_source`), else the
// vendor's `fallback`; `dynamic_shared` bytes given at launch.
LaunchAssumption chooseLaunch(const KernelRecord &record, const Figures &value, const LaunchOverrides &launch,
                              Field field, BlockSizeSource field_source, int fallback, int dynamic_shared);

}  // namespace regscope
