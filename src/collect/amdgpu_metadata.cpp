#include "amdgpu_metadata.h"

#include <map>
#include <optional>

namespace regscope {
namespace {

// Kernel keys. Note .vgpr_count is the unified total (arch + AGPR on
// gfx90a), not the architectural count.
const std::map<std::string, Field, std::less<>> kMetadataFields = {
    {".sgpr_count", Field::Sgprs},
    {".vgpr_count", Field::VgprsTotal},
    {".agpr_count", Field::Agprs},
    {".sgpr_spill_count", Field::SgprSpills},
    {".vgpr_spill_count", Field::VgprSpills},
    {".private_segment_fixed_size", Field::ScratchBytes},
    {".group_segment_fixed_size", Field::LdsBytes},
    {".max_flat_workgroup_size", Field::MaxWorkgroupSize},
    {".wavefront_size", Field::WaveSize},
    {".uses_dynamic_stack", Field::DynamicStack},
};

std::optional<std::int64_t> number(const llvm::msgpack::DocNode &node) {
  switch (node.getKind()) {
    case llvm::msgpack::Type::Int: return node.getInt();
    case llvm::msgpack::Type::UInt: return static_cast<std::int64_t>(node.getUInt());
    case llvm::msgpack::Type::Boolean: return node.getBool() ? 1 : 0;
    default: return std::nullopt;
  }
}

}  // namespace

std::string archFromTarget(std::string_view target) {
  std::size_t at = target.rfind("--");
  std::string_view arch = at == std::string_view::npos ? target : target.substr(at + 2);
  return std::string(arch);  // features kept: gfx90a:xnack+ and gfx90a:xnack- are different targets
}

Metadata readMetadata(llvm::msgpack::Document &doc) {
  Metadata out;
  if (doc.getRoot().getKind() != llvm::msgpack::Type::Map) return out;
  llvm::msgpack::MapDocNode root = doc.getRoot().getMap();
  if (auto target = root.find("amdhsa.target");
      target != root.end() && target->second.getKind() == llvm::msgpack::Type::String)
    out.arch = archFromTarget(target->second.getString().str());
  auto list = root.find("amdhsa.kernels");
  if (list == root.end() || list->second.getKind() != llvm::msgpack::Type::Array) return out;
  for (llvm::msgpack::DocNode &entry : list->second.getArray()) {
    if (entry.getKind() != llvm::msgpack::Type::Map) continue;
    llvm::msgpack::MapDocNode kernel = entry.getMap();
    auto name = kernel.find(".name");
    if (name == kernel.end() || name->second.getKind() != llvm::msgpack::Type::String) continue;
    MetadataKernel k;
    k.name = name->second.getString().str();
    for (auto &[key, value] : kernel) {
      if (key.getKind() != llvm::msgpack::Type::String) continue;
      auto known = kMetadataFields.find(key.getString());
      if (known == kMetadataFields.end()) continue;
      if (auto n = number(value)) k.values[static_cast<std::size_t>(known->second)] = *n;
    }
    out.kernels.push_back(std::move(k));
  }
  return out;
}

}  // namespace regscope
