// regscope's own version, and the version of the documents it writes.
#pragma once

namespace regscope {

inline constexpr const char *kRegscopeVersion = "0.1.0";
// JSON documents (docs/json-schema.md): minor versions only add fields.
inline constexpr const char *kSchemaVersion = "1.1";

}  // namespace regscope
