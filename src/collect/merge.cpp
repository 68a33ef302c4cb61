// Joins per-source facts into one record per (kernel, arch).
#include <algorithm>
#include <map>
#include <utility>

#include "regscope/collect/collect.h"
#include "regscope/support/symbols.h"

namespace regscope {

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
      for (const std::string &note : facts.notes)  // only for figures that stayed unresolved
        for (Field f : record.unresolved)
          if (note.rfind(std::string(fieldKey(f)) + ":", 0) == 0 &&
              std::find(record.notes.begin(), record.notes.end(), note) == record.notes.end())
            record.notes.push_back(note);
    }
  return records;
}

}  // namespace regscope
