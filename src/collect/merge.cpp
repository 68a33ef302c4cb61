// Joins per-source facts into one record per (kernel, arch).
#include <llvm/Demangle/Demangle.h>

#include <algorithm>
#include <map>
#include <utility>

#include "regscope/collect.h"

namespace regscope {

const char *fieldKey(Field f) {
  static const char *const keys[kFieldCount] = {
      "vgprs",       "agprs",       "vgprs_total",        "sgprs",      "scratch_bytes",
      "vgpr_spills", "sgpr_spills", "lds_bytes",          "max_workgroup_size",
      "wave_size",   "dynamic_stack", "compiler_occupancy",
      "registers",   "spill_store_bytes", "spill_load_bytes", "stack_bytes", "shared_bytes",
      "constant_bytes", "barriers", "max_threads_per_block", "min_blocks_per_sm", "wgp_mode",
      "agpr_copies", "mfma_instructions"};
  return keys[static_cast<std::size_t>(f)];
}

std::string demangle(const std::string &mangled) { return llvm::demangle(mangled); }

std::string functionBaseName(const std::string &demangled) {
  // The parameter list starts at the first '(' outside template arguments.
  int depth = 0;
  std::size_t paren = std::string::npos;
  for (std::size_t i = 0; i < demangled.size(); ++i) {
    char c = demangled[i];
    if (c == '<') ++depth;
    else if (c == '>') --depth;
    else if (c == '(' && depth == 0) { paren = i; break; }
  }
  std::string head = demangled.substr(0, paren);
  // Drop trailing template arguments: "scale<float>" -> "scale".
  if (!head.empty() && head.back() == '>') {
    int d = 0;
    for (std::size_t i = head.size(); i-- > 0;) {
      if (head[i] == '>') ++d;
      else if (head[i] == '<' && --d == 0) { head.resize(i); break; }
    }
  }
  // Drop return type and qualifiers: "void ns::scale" -> "scale".
  std::size_t cut = head.find_last_of(" :");
  return cut == std::string::npos ? head : head.substr(cut + 1);
}

std::vector<KernelRecord> mergeFacts(const std::vector<FactSet> &sets) {
  std::vector<KernelRecord> records;
  std::map<std::pair<std::string, std::string>, std::size_t> index;
  std::map<std::pair<std::string, std::string>, bool> not_kernel;

  for (const FactSet &set : sets)
    for (const KernelFacts &facts : set.kernels)
      if (!facts.is_kernel) not_kernel[{facts.name, facts.arch}] = true;

  for (const FactSet &set : sets) {
    for (const KernelFacts &facts : set.kernels) {
      auto key = std::make_pair(facts.name, facts.arch);
      if (not_kernel.count(key)) continue;
      auto [it, inserted] = index.try_emplace(key, records.size());
      if (inserted) {
        KernelRecord record;
        record.name = facts.name;
        record.demangled = demangle(facts.name);
        record.arch = facts.arch;
        record.vendor = facts.vendor;
        records.push_back(std::move(record));
      }
      KernelRecord &record = records[it->second];
      record.sources.push_back(set.source);
      if (record.file.empty() && !facts.file.empty()) {
        record.file = facts.file;
        record.line = facts.line;
      }
      for (std::size_t i = 0; i < kFieldCount; ++i) {
        const auto &mine = record.values[i];
        const auto &theirs = facts.values[i];
        if (!theirs) continue;
        if (!mine) {
          record.values[i] = theirs;
        } else if (*mine != *theirs) {
          record.warnings.push_back(std::string(fieldKey(static_cast<Field>(i))) + ": " +
                                    record.sources.front() + " says " + std::to_string(*mine) +
                                    ", " + set.source + " says " + std::to_string(*theirs) +
                                    " (using " + record.sources.front() + ")");
        }
      }
    }
  }
  // A figure stays unresolved only if no source resolved it.
  for (const FactSet &set : sets)
    for (const KernelFacts &facts : set.kernels) {
      auto it = index.find({facts.name, facts.arch});
      if (it == index.end()) continue;
      KernelRecord &record = records[it->second];
      for (Field f : facts.unresolved)
        if (!record.has(f) && std::find(record.unresolved.begin(), record.unresolved.end(), f) == record.unresolved.end())
          record.unresolved.push_back(f);
    }
  return records;
}

}  // namespace regscope
