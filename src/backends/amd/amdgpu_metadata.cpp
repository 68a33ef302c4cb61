#include "amdgpu_metadata.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/BinaryFormat/MsgPackReader.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/YAMLParser.h>

#include <map>
#include <optional>
#include <vector>

#include "regscope/collect/scan.h"
#include "regscope/collect/yaml_input.h"
#include "regscope/support/error.h"

namespace regscope {
namespace {

// Kernel keys. Note .vgpr_count is what the code uses, VGPRs and AGPRs
// together on gfx90a+: not the architectural count, and not the allocation
// the kernel descriptor asks for (larger under amdgpu-waves-per-eu).
const std::map<std::string, Field, std::less<>> kMetadataFields = {
    {".sgpr_count", Field::Sgprs},
    {".vgpr_count", Field::VgprsUsed},
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
    case llvm::msgpack::Type::Int:
      return node.getInt();
    case llvm::msgpack::Type::UInt:
      return static_cast<std::int64_t>(node.getUInt());
    case llvm::msgpack::Type::Boolean:
      return node.getBool() ? 1 : 0;
    default:
      return std::nullopt;
  }
}

// Code objects nest three levels (root, kernel list, kernel); arguments four
// more. Anything far deeper is not metadata, and LLVM's YAML reader recurses
// over nesting when it skips a node.
constexpr int kMaxYamlNesting = 64;

// Walks the YAML nodes into msgpack nodes, as Document::fromYAML does (a
// scalar's type inferred from its text), but with every key a string, a
// nesting limit and no aliases: an alias can multiply a small input.
class YamlToMsgpack {
 public:
  explicit YamlToMsgpack(llvm::msgpack::Document &doc) : doc_(doc) {}

  llvm::msgpack::DocNode convert(llvm::yaml::Node *node, int depth) {
    if (depth > kMaxYamlNesting)
      throw Error("metadata nested deeper than " + std::to_string(kMaxYamlNesting) + " levels");
    using llvm::yaml::Node;
    switch (node->getType()) {
      case Node::NK_Null:
        return doc_.getNode();
      case Node::NK_Scalar: {
        llvm::SmallString<64> storage;
        llvm::msgpack::DocNode out = doc_.getNode();
        out.fromString(llvm::cast<llvm::yaml::ScalarNode>(node)->getValue(storage), tagOf(*node));
        return out;
      }
      case Node::NK_BlockScalar:
        return doc_.getNode(llvm::cast<llvm::yaml::BlockScalarNode>(node)->getValue(), /*Copy=*/true);
      case Node::NK_Mapping: {
        llvm::msgpack::MapDocNode map = doc_.getMapNode();
        for (llvm::yaml::KeyValueNode &entry : *llvm::cast<llvm::yaml::MappingNode>(node)) {
          auto *key = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(entry.getKey());
          if (!key) throw Error("a metadata key is not a plain string");
          llvm::SmallString<64> storage;
          llvm::msgpack::DocNode name = doc_.getNode(key->getValue(storage), /*Copy=*/true);
          llvm::yaml::Node *value = entry.getValue();
          if (!value) throw Error("a metadata key has no value");
          map[name] = convert(value, depth + 1);
        }
        return map;
      }
      case Node::NK_Sequence: {
        llvm::msgpack::ArrayDocNode array = doc_.getArrayNode();
        for (llvm::yaml::Node &item : *llvm::cast<llvm::yaml::SequenceNode>(node))
          array.push_back(convert(&item, depth + 1));
        return array;
      }
      case Node::NK_Alias:
        throw Error("YAML aliases are not allowed in metadata");
      case Node::NK_KeyValue:
        break;
    }
    throw Error("unexpected YAML node in metadata");
  }

 private:
  // The tags fromString knows; a plain or quoted scalar's type comes from its text.
  static llvm::StringRef tagOf(const llvm::yaml::Node &node) {
    const std::string tag = node.getVerbatimTag();
    for (llvm::StringRef known : {"!int", "!nil", "!bool", "!float", "!str"})
      if (tag == known) return known;
    return "";
  }

  llvm::msgpack::Document &doc_;
};

// Checks one msgpack object (the note's root) element by element before
// Document::readFromBlob sees it: readFromBlob keeps map keys in a std::map
// whose ordering reaches llvm_unreachable for a map or array key, and trusts
// the element counts a header claims.
void checkMsgpack(llvm::StringRef blob) {
  llvm::msgpack::Reader reader(blob);
  struct Level {
    std::uint64_t remaining;  // objects still to read: keys and values for a map
    bool map;
  };
  std::vector<Level> stack;
  std::uint64_t pending = 0;  // every level's remaining objects: each takes at least a byte
  do {
    llvm::msgpack::Object object;
    llvm::Expected<bool> read = reader.read(object);
    if (!read) throw Error("malformed AMDGPU metadata note: " + llvm::toString(read.takeError()));
    if (!*read) throw Error("truncated AMDGPU metadata note");
    if (!stack.empty()) {
      Level &top = stack.back();
      const bool is_key = top.map && top.remaining % 2 == 0;
      if (is_key && object.Kind != llvm::msgpack::Type::String)
        throw Error("malformed AMDGPU metadata note: a map key is not a string");
      --top.remaining;
      --pending;
    }
    if (object.Kind == llvm::msgpack::Type::Array || object.Kind == llvm::msgpack::Type::Map) {
      const bool map = object.Kind == llvm::msgpack::Type::Map;
      const std::uint64_t count = static_cast<std::uint64_t>(object.Length) * (map ? 2 : 1);
      if (count > blob.size() - pending)
        throw Error("malformed AMDGPU metadata note: a " + std::string(map ? "map" : "array") + " claims " +
                    std::to_string(object.Length) + " elements in a " + std::to_string(blob.size()) + "-byte note");
      pending += count;
      stack.push_back({count, map});
    }
    while (!stack.empty() && stack.back().remaining == 0) stack.pop_back();
  } while (!stack.empty());
}

}  // namespace

void metadataFromMsgpack(std::string_view blob, llvm::msgpack::Document &doc) {
  const llvm::StringRef bytes(blob.data(), blob.size());
  checkMsgpack(bytes);
  if (!doc.readFromBlob(bytes, /*Multi=*/false)) throw Error("malformed AMDGPU metadata note");
}

void metadataFromYaml(std::string_view yaml, llvm::msgpack::Document &doc) {
  static const std::string kWhat = "malformed .amdgpu_metadata block";
  checkYamlBytes(yaml, kWhat);
  QuietYamlStream quiet(yaml);
  YamlToMsgpack convert(doc);
  auto document = quiet.stream().begin();
  if (document != quiet.stream().end())
    if (llvm::yaml::Node *root = document->getRoot()) doc.getRoot() = convert.convert(root, 0);
  quiet.throwIfFailed(kWhat);
}

std::string archFromTarget(std::string_view target) {
  std::size_t at = target.rfind("--");
  std::string_view arch = at == std::string_view::npos ? target : target.substr(at + 2);
  return std::string(arch);  // features kept: gfx90a:xnack+ and gfx90a:xnack- are different targets
}

std::vector<Field> missingFromMetadata(const MetadataKernel &kernel) {
  std::vector<Field> missing;
  for (Field f : {Field::Sgprs, Field::VgprsUsed, Field::LdsBytes, Field::ScratchBytes, Field::MaxWorkgroupSize,
                  Field::WaveSize, Field::SgprSpills, Field::VgprSpills})
    if (!kernel.values[static_cast<std::size_t>(f)]) missing.push_back(f);
  return missing;
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
