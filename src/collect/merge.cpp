// Joins per-source facts into one record per (kernel, arch).
#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

#include "regscope/collect/collect.h"
#include "regscope/support/symbols.h"

namespace regscope {

std::vector<KernelRecord> mergeFacts(const std::vector<FactSet> &sets) {
  std::vector<KernelRecord> records;
  // Keyed by views of the facts' names, which outlive this call: a library's
  // 100,000 kernel names (CUTLASS's run to kilobytes) are not copied twice more.
  using Key = std::pair<std::string_view, std::string_view>;  // (name, arch)
  std::map<Key, std::size_t> index;
  std::map<Key, bool> not_kernel;
  std::vector<std::vector<bool>> conflicts;            // per record: figures two sources disagree on
  std::vector<std::vector<const std::string *>> said;  // per record: which source gave each figure

  for (const FactSet &set : sets)
    for (const KernelFacts &facts : set.kernels)
      if (!facts.is_kernel) not_kernel[{facts.name, facts.arch}] = true;

  for (const FactSet &set : sets) {
    for (const KernelFacts &facts : set.kernels) {
      const Key key{facts.name, facts.arch};
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
      if (inserted) {
        conflicts.emplace_back(kFieldCount, false);
        said.emplace_back(kFieldCount, nullptr);
      }
      KernelRecord &record = records[it->second];
      record.sources.push_back(set.source);
      if (record.file.empty() && !facts.file.empty()) {
        record.file = facts.file;
        record.line = facts.line;
      }
      for (const std::string &w : facts.warnings) record.warnings.push_back(w);
      std::vector<bool> &disputed = conflicts[it->second];
      for (std::size_t i = 0; i < kFieldCount; ++i) {
        auto &mine = record.values[i];
        const auto &theirs = facts.values[i];
        if (!theirs || disputed[i]) continue;
        if (!mine) {
          record.values[i] = theirs;
          said[it->second][i] = &set.source;
          if (static_cast<Field>(i) == Field::LoopSpills) record.loop_spill_site = facts.loop_spill_site;
        } else if (*mine != *theirs) {
          // Two readings of one figure: neither is taken on trust. The figure
          // is unknown, and the warning names both.
          record.warnings.push_back(std::string(fieldKey(static_cast<Field>(i))) + ": " + *said[it->second][i] +
                                    " says " + std::to_string(*mine) + ", " + set.source + " says " +
                                    std::to_string(*theirs) + ": unknown");
          mine.reset();
          disputed[i] = true;
          if (static_cast<Field>(i) == Field::LoopSpills) record.loop_spill_site = {};
        }
      }
    }
  }
  // A figure stays unresolved only if no source resolved it.
  for (const FactSet &set : sets)
    for (const KernelFacts &facts : set.kernels) {
      auto it = index.find(Key{facts.name, facts.arch});
      if (it == index.end()) continue;
      KernelRecord &record = records[it->second];
      for (Field f : facts.unresolved)
        if (!record.has(f) &&
            std::find(record.unresolved.begin(), record.unresolved.end(), f) == record.unresolved.end())
          record.unresolved.push_back(f);
      for (Field f : facts.missing)
        if (!record.has(f) && std::find(record.missing.begin(), record.missing.end(), f) == record.missing.end())
          record.missing.push_back(f);
      for (const std::string &note : facts.notes)  // only for figures that stayed unresolved
        for (Field f : record.unresolved)
          if (note.rfind(std::string(fieldKey(f)) + ":", 0) == 0 &&
              std::find(record.notes.begin(), record.notes.end(), note) == record.notes.end())
            record.notes.push_back(note);
    }
  return records;
}

}  // namespace regscope
