// The model stage's vendor-neutral part: the launch a kernel is assumed to
// run with, the figures a record lacks, and the names of the launch's sources.
// Each vendor's model is in its backend (src/backends/<vendor>/kernel_model.cpp).
#include "regscope/model/kernel_model.h"

#include <algorithm>
#include <climits>

#include "regscope/model/model_figures.h"

namespace regscope {
namespace {

// The figures that feed a vendor's occupancy: one unknown, no occupancy.
bool feedsOccupancy(Field f) {
  switch (f) {
    case Field::Vgprs:
    case Field::Agprs:
    case Field::VgprsTotal:
    case Field::Sgprs:
    case Field::LdsBytes:
    case Field::Registers:
    case Field::GrfCount:
    case Field::SimdSize:
    case Field::MaxWorkgroupSize:  // the workgroup the model assumes when the launch does not say
    case Field::WaveSize:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool occupancyUnknown(const std::vector<Field> &unknown) {
  return std::any_of(unknown.begin(), unknown.end(), feedsOccupancy);
}

// The workgroup/block size the model assumes: --block-size, else what the
// kernel was compiled for (`field`), else the vendor's default.
LaunchAssumption chooseLaunch(const KernelRecord &record, const Figures &value, const LaunchOverrides &launch,
                              Field field, BlockSizeSource field_source, int fallback, int dynamic_shared) {
  LaunchAssumption a;
  a.dynamic_shared = dynamic_shared;
  a.dynamic_source = dynamic_shared ? launch.dynamic_source : DynamicSharedSource::None;
  a.max_block_size = record.has(field) ? value(field) : 0;
  if (launch.block_size) {
    a.block_size = *launch.block_size;
    a.source = launch.block_size_source;
  } else if (record.has(field)) {
    a.block_size = value(field);
    a.source = field_source;
  } else {
    a.block_size = fallback;
    a.source = BlockSizeSource::Default;
  }
  // A launch the source passes but regscope could not evaluate: what is
  // modelled above is an assumption, said as such (a flag or config wins).
  if (!launch.block_size) a.block_size_unread_at = launch.block_size_unread_at;
  if (!dynamic_shared) a.dynamic_unread_at = launch.dynamic_unread_at;
  return a;
}

std::string launchUnknown(const LaunchAssumption &launch, const char *dynamic_flag) {
  if (!launch.dynamic_unread_at.empty())
    return "its launch at " + launch.dynamic_unread_at +
           " passes dynamic shared memory (LDS) regscope cannot evaluate: give the bytes with " + dynamic_flag +
           " or .regscope.json's \"dynamic_lds\"";
  if (!launch.block_size_unread_at.empty())
    return "its launch at " + launch.block_size_unread_at + " passes a block size regscope cannot evaluate (" +
           std::to_string(launch.block_size) +
           " threads assumed): give it with --block-size or .regscope.json's \"block_size\"";
  return "";
}

const char *dynamicSharedSourceName(DynamicSharedSource source) {
  switch (source) {
    case DynamicSharedSource::None:
      return "none";
    case DynamicSharedSource::Flag:
      return "flag";
    case DynamicSharedSource::Config:
      return "config";
    case DynamicSharedSource::LaunchSite:
      return "launch_site";
    case DynamicSharedSource::FuncAttribute:
      return "func_attribute";
    case DynamicSharedSource::TritonMetadata:
      return "triton_metadata";
  }
  return "?";
}

std::string figureOutOfRange(const KernelRecord &record) {
  for (const FieldInfo &info : fieldTable()) {
    if (!record.has(info.field)) continue;
    const std::int64_t v = figure(record, info.field);
    if (v < 0 || v > kMaxModelFigure)
      return std::string(info.key) + " " + std::to_string(v) + " is outside what any target allows";
  }
  return "";
}

std::vector<Field> missingFigures(const KernelRecord &record, const std::vector<Field> &required) {
  std::vector<Field> missing;
  auto need = [&](Field f) {
    if (!record.has(f) && !record.isUnresolved(f) && std::find(missing.begin(), missing.end(), f) == missing.end())
      missing.push_back(f);
  };
  for (Field f : record.missing) need(f);  // a source's format always carries it
  for (Field f : required) need(f);
  return missing;
}

const char *blockSizeSourceName(BlockSizeSource source) {
  switch (source) {
    case BlockSizeSource::Flag:
      return "--block-size";
    case BlockSizeSource::Config:
      return "config";
    case BlockSizeSource::LaunchSite:
      return "launch_site";
    case BlockSizeSource::MaxFlatWorkgroupSize:
      return "max_flat_workgroup_size";
    case BlockSizeSource::LaunchBounds:
      return "launch_bounds";
    case BlockSizeSource::Default:
      return "default";
    case BlockSizeSource::RequiredWorkGroupSize:
      return "reqd_work_group_size";
    case BlockSizeSource::TritonMetadata:
      return "triton_metadata";
  }
  return "?";
}

}  // namespace regscope
