// The field table, generated from fields.def.
#include <algorithm>
#include <iterator>

#include "regscope/collect/kernel_record.h"

namespace regscope {
namespace {

constexpr FieldInfo kFields[] = {
#define REGSCOPE_FIELD(name, key, vendor, description) {Field::name, key, Vendor::vendor, description},
#include "regscope/collect/fields.def"
#undef REGSCOPE_FIELD
};

constexpr bool rowsInEnumOrder() {
  for (std::size_t i = 0; i < std::size(kFields); ++i)
    if (kFields[i].field != static_cast<Field>(i)) return false;
  return true;
}
static_assert(std::size(kFields) == kFieldCount, "one row per Field");
static_assert(rowsInEnumOrder(), "fieldTable()[i] describes Field(i)");

}  // namespace

const std::array<FieldInfo, kFieldCount> &fieldTable() {
  static const std::array<FieldInfo, kFieldCount> table = [] {
    std::array<FieldInfo, kFieldCount> t{};
    std::copy(std::begin(kFields), std::end(kFields), t.begin());
    return t;
  }();
  return table;
}

const char *fieldKey(Field f) { return kFields[static_cast<std::size_t>(f)].key; }

std::optional<Field> fieldByKey(std::string_view key) {
  for (const FieldInfo &info : kFields)
    if (key == info.key) return info.field;
  return std::nullopt;
}

bool KernelRecord::isUnresolved(Field f) const {
  return std::find(unresolved.begin(), unresolved.end(), f) != unresolved.end();
}

}  // namespace regscope
