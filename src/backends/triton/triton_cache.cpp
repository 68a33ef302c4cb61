// Triton's cache metadata and IR, read as text (include/regscope/backends/triton/triton_cache.h).
#include "regscope/backends/triton/triton_cache.h"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "regscope/support/error.h"

namespace regscope {
namespace {

using nlohmann::json;

json parseObject(std::string_view text, const char *what) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::exception &) {
    throw Error(std::string("not ") + what + " (invalid JSON)");
  }
  if (!doc.is_object()) throw Error(std::string("not ") + what + " (not a JSON object)");
  return doc;
}

// An integer value of `key` in `obj`; nullopt when absent or null; an Error when of another type.
std::optional<std::int64_t> integer(const json &obj, const char *key) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  if (!it->is_number_integer())
    throw Error(std::string("Triton metadata: '") + key + "' is not an integer: " + it->dump());
  return it->get<std::int64_t>();
}

std::int64_t required(const json &obj, const char *key) {
  std::optional<std::int64_t> v = integer(obj, key);
  if (!v) throw Error(std::string("Triton metadata without '") + key + "': the launch cannot be known");
  return *v;
}

std::optional<std::string> text(const json &obj, const char *key) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) throw Error(std::string("Triton metadata: '") + key + "' is not a string");
  return it->get<std::string>();
}

std::optional<int> smallInt(const json &obj, const char *key, std::int64_t most) {
  std::optional<std::int64_t> v = integer(obj, key);
  if (!v) return std::nullopt;
  if (*v < 0 || *v > most)
    throw Error(std::string("Triton metadata: '") + key + "' " + std::to_string(*v) + " is outside 0.." +
                std::to_string(most));
  return static_cast<int>(*v);
}

// Skips a balanced (...) or <...> group starting at `at` (the opener); returns the index after it.
std::size_t skipGroup(std::string_view s, std::size_t at, char open, char close) {
  int depth = 0;
  for (std::size_t i = at; i < s.size(); ++i) {
    if (s[i] == '"') {  // a string: its brackets do not count
      for (++i; i < s.size() && s[i] != '"'; ++i)
        if (s[i] == '\\') ++i;
      continue;
    }
    if (s[i] == open) ++depth;
    if (s[i] == close && --depth == 0) return i + 1;
  }
  return std::string_view::npos;
}

// The text with every `loc(...)` removed and runs of blanks made one space.
std::string withoutLocations(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s.compare(i, 4, "loc(") == 0 && (i == 0 || !std::isalnum(static_cast<unsigned char>(s[i - 1])))) {
      const std::size_t end = skipGroup(s, i + 3, '(', ')');
      if (end == std::string_view::npos) break;
      i = end;
      continue;
    }
    const char c = s[i++];
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

TritonInfo readTritonMetadata(std::string_view json_text) {
  const json doc = parseObject(json_text, "Triton metadata");
  TritonInfo info;
  const std::optional<std::string> name = text(doc, "name");
  if (!name || name->empty()) throw Error("Triton metadata without 'name': the kernel cannot be named");
  info.function = *name;
  info.version = text(doc, "triton_version").value_or("");
  info.hash = text(doc, "hash").value_or("");
  // The target: {backend, arch, warp_size} (3.x); backend_name/arch/warp_size beside it.
  std::optional<std::string> backend = text(doc, "backend_name");
  std::optional<std::string> arch;
  std::optional<std::int64_t> warp_size = integer(doc, "warp_size");
  if (auto t = doc.find("target"); t != doc.end() && !t->is_null()) {
    if (!t->is_object()) throw Error("Triton metadata: 'target' is not an object");
    if (auto b = text(*t, "backend")) backend = b;
    if (auto a = t->find("arch"); a != t->end()) {
      if (a->is_string())
        arch = a->get<std::string>();
      else if (a->is_number_integer())
        arch = std::to_string(a->get<std::int64_t>());
      else
        throw Error("Triton metadata: 'target.arch' is neither a string nor an integer");
    }
    if (std::optional<std::int64_t> w = integer(*t, "warp_size")) {
      if (warp_size && *warp_size != *w)
        throw Error("Triton metadata: 'warp_size' " + std::to_string(*warp_size) + " and 'target.warp_size' " +
                    std::to_string(*w) + " disagree");
      warp_size = w;
    }
  }
  if (!arch) arch = text(doc, "arch");
  if (!backend || (*backend != "hip" && *backend != "cuda"))
    throw Error("Triton metadata: the target's backend is " +
                (backend ? "'" + *backend + "'" : std::string("missing")) + " (regscope reads hip and cuda)");
  if (!arch || arch->empty()) throw Error("Triton metadata without the target's arch");
  if (!warp_size) throw Error("Triton metadata without the target's warp size");
  if (*warp_size != 32 && *warp_size != 64)
    throw Error("Triton metadata: warp size " + std::to_string(*warp_size) + " (GPUs have 32 or 64)");
  info.backend = *backend;
  info.target = *arch;
  info.warp_size = static_cast<int>(*warp_size);
  const std::int64_t warps = required(doc, "num_warps");
  if (warps < 1 || warps * info.warp_size > 1024)
    throw Error("Triton metadata: num_warps " + std::to_string(warps) + " x warp size " +
                std::to_string(info.warp_size) + " is no block a GPU launches (1 to 1024 threads)");
  info.num_warps = static_cast<int>(warps);
  const std::int64_t shared = required(doc, "shared");
  if (shared < 0 || shared > (std::int64_t{1} << 22))
    throw Error("Triton metadata: 'shared' " + std::to_string(shared) + " bytes is outside what any GPU has");
  info.shared = shared;
  info.num_stages = smallInt(doc, "num_stages", 64).value_or(0);
  info.num_ctas = smallInt(doc, "num_ctas", 64).value_or(1);
  if (info.num_ctas < 1) throw Error("Triton metadata: num_ctas 0");
  info.waves_per_eu = smallInt(doc, "waves_per_eu", 64);
  info.matrix_instr_nonkdim = smallInt(doc, "matrix_instr_nonkdim", 1024);
  info.kpack = smallInt(doc, "kpack", 64);
  info.maxnreg = smallInt(doc, "maxnreg", 1024);
  // Metadata that records the constexprs (Triton 2.x: `constants`, by
  // argument index or name) keys by them without IR; the dump sorts objects.
  for (const char *declared : {"constants", "signature"})
    if (auto it = doc.find(declared); it != doc.end() && !it->is_null())
      info.declared_constants += std::string(info.declared_constants.empty() ? "" : " ") + declared + "=" + it->dump();
  info.key = tritonKey(info);
  return info;
}

bool looksLikeTritonMetadata(std::string_view json_text) {
  try {
    const json doc = parseObject(json_text, "JSON");
    return doc.contains("triton_version") || (doc.contains("num_warps") && doc.contains("target"));
  } catch (const Error &) {
    return false;
  }
}

std::vector<std::string> tritonGroupChildren(std::string_view json_text) {
  const json doc = parseObject(json_text, "a Triton group file");
  auto it = doc.find("child_paths");
  if (it == doc.end() || !it->is_object()) throw Error("not a Triton group file (no 'child_paths')");
  std::vector<std::string> names;
  for (const auto &[name, path] : it->items()) names.push_back(name);
  return names;
}

void readTritonIr(TritonInfo &info, std::string_view ir) {
  {
    // The IR without its `#loc` lines and `loc(...)` references: what the
    // frontend made of the code and its constexprs, not where it was written.
    std::string code;
    std::size_t start = 0;
    while (start < ir.size()) {
      std::size_t end = ir.find('\n', start);
      if (end == std::string_view::npos) end = ir.size();
      const std::string_view line = ir.substr(start, end - start);
      if (line.rfind("#loc", 0) != 0) code += withoutLocations(line) + "\n";
      start = end + 1;
    }
    char digest[17];
    std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(fnv1a(code)));
    info.ir_digest = digest;
  }
  // `#loc = loc("/path/kernels.py":31:0)`: where the function is defined.
  if (std::size_t at = ir.find("#loc = loc(\""); at != std::string_view::npos) {
    const std::size_t start = at + 12;
    const std::size_t quote = ir.find('"', start);
    if (quote != std::string_view::npos && quote + 1 < ir.size() && ir[quote + 1] == ':') {
      info.python_file = std::string(ir.substr(start, quote - start));
      int line = 0;
      for (std::size_t i = quote + 2; i < ir.size() && std::isdigit(static_cast<unsigned char>(ir[i])); ++i)
        line = line * 10 + (ir[i] - '0');
      info.python_line = line;
    }
  }
  std::string params;
  for (const char *form : {"tt.func public @", "tt.func @"}) {
    const std::string head = form + info.function + "(";
    const std::size_t at = ir.find(head);
    if (at == std::string_view::npos) continue;
    const std::size_t open = at + head.size() - 1;
    const std::size_t end = skipGroup(ir, open, '(', ')');
    if (end != std::string_view::npos) params = withoutLocations(ir.substr(open, end - open));
    break;
  }
  std::set<std::string> shapes;
  for (std::size_t at = ir.find("tensor<"); at != std::string_view::npos; at = ir.find("tensor<", at + 7)) {
    const std::size_t end = skipGroup(ir, at + 6, '<', '>');
    if (end == std::string_view::npos) break;
    std::string shape(ir.substr(at + 7, end - at - 8));
    if (std::size_t comma = shape.find(','); comma != std::string::npos) shape.resize(comma);  // a layout
    shapes.insert(shape);
  }
  if (params.empty() && shapes.empty()) return;
  info.specialisation = params + " shapes:";
  for (const std::string &s : shapes) info.specialisation += " " + s;
  info.key = tritonKey(info);
}

std::string tritonKey(const TritonInfo &info) {
  std::string file = info.python_file.empty() ? "?" : info.python_file;
  if (std::size_t slash = file.rfind('/'); slash != std::string::npos) file = file.substr(slash + 1);
  std::string key = "triton:" + file + ":" + info.function + "[num_warps=" + std::to_string(info.num_warps) +
                    " num_stages=" + std::to_string(info.num_stages) + " num_ctas=" + std::to_string(info.num_ctas);
  // The digest of the IR's specialisation, with the constexprs the metadata
  // records when it records them (without either: no digest).
  std::string spec = info.specialisation;
  if (!info.declared_constants.empty()) spec += (spec.empty() ? "" : " ") + info.declared_constants;
  if (!spec.empty()) {
    char digest[17];
    std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(fnv1a(spec)));
    key += std::string(" spec=") + digest;
  }
  return key + "]";
}

std::string tritonArch(const TritonInfo &info) {
  if (info.backend == "hip") return info.target.substr(0, info.target.find(':'));  // "gfx942:sramecc+:xnack-"
  std::string digits;
  for (char c : info.target)
    if (std::isdigit(static_cast<unsigned char>(c))) digits.push_back(c);
  return "sm_" + digits;  // 90 (and "90a") -> sm_90
}

Vendor tritonVendor(const TritonInfo &info) { return info.backend == "hip" ? Vendor::Amd : Vendor::Nvidia; }

bool tritonRegistersUnread(const KernelRecord &record) {
  return record.triton && record.vendor == Vendor::Nvidia && !record.has(Field::Registers);
}

}  // namespace regscope
