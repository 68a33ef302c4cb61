// The collect stage over a build's own compile (regscope wrap): the object
// the build wrote and the kernel-resource-usage remarks it printed.
#include <algorithm>
#include <map>

#include "regscope/backends/amd/collect.h"
#include "regscope/collect/collect.h"

namespace regscope {
namespace {

// The figures the remarks and the code object's metadata both carry: a
// remark block belongs to an arch only if it agrees with that arch on each.
constexpr Field kSharedFields[] = {Field::Sgprs,    Field::Vgprs,      Field::Agprs,      Field::ScratchBytes,
                                   Field::LdsBytes, Field::VgprSpills, Field::SgprSpills, Field::DynamicStack};

bool agrees(const KernelFacts &remark, const KernelFacts &object) {
  for (Field f : kSharedFields)
    if (remark.get(f) && object.get(f) && *remark.get(f) != *object.get(f)) return false;
  return true;
}

// "gfx90a:xnack-" -> "gfx90a": --offload-arch values may carry features the metadata spells its own way.
std::string bareArch(const std::string &arch) { return arch.substr(0, arch.find(':')); }

// Gives each remark block of a multi-arch compile its arch. Clang's driver
// compiles the archs one after the other in sorted order (a std::set of
// target names: gfx908 before gfx90a, whatever the command's order), so the
// blocks of a kernel are first taken in that order, if each agrees with its
// arch's code object on every figure both carry. Otherwise a block that
// agrees with exactly one unclaimed arch takes it; blocks left over take the
// remaining archs only when they are identical (which one is which does not
// matter then), else they keep their place (file, line) and lose their
// figures: the code object's stay, and no figure is put under the wrong arch.
void assignArchs(FactSet &remarks, const std::vector<CodeObject> &objects) {
  std::map<std::string, std::vector<std::size_t>> blocks;  // kernel -> its blocks, in order
  for (std::size_t i = 0; i < remarks.kernels.size(); ++i) blocks[remarks.kernels[i].name].push_back(i);
  for (auto &[name, indices] : blocks) {
    std::vector<const KernelFacts *> candidates;  // one per arch that has the kernel
    for (const CodeObject &co : objects)
      for (const KernelFacts &k : co.facts.kernels)
        if (k.name == name) candidates.push_back(&k);
    std::vector<const KernelFacts *> sorted = candidates;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const KernelFacts *a, const KernelFacts *b) { return a->arch < b->arch; });
    bool in_order = indices.size() == sorted.size();
    for (std::size_t b = 0; in_order && b < indices.size(); ++b)
      in_order = agrees(remarks.kernels[indices[b]], *sorted[b]);
    if (in_order) {
      for (std::size_t b = 0; b < indices.size(); ++b) remarks.kernels[indices[b]].arch = sorted[b]->arch;
      continue;
    }
    std::vector<bool> taken(candidates.size(), false), placed(indices.size(), false);
    for (bool progress = true; progress;) {
      progress = false;
      for (std::size_t b = 0; b < indices.size(); ++b) {
        if (placed[b]) continue;
        std::vector<std::size_t> fits;
        for (std::size_t c = 0; c < candidates.size(); ++c)
          if (!taken[c] && agrees(remarks.kernels[indices[b]], *candidates[c])) fits.push_back(c);
        if (fits.size() != 1) continue;
        remarks.kernels[indices[b]].arch = candidates[fits.front()]->arch;
        taken[fits.front()] = placed[b] = true;
        progress = true;
      }
    }
    std::vector<std::size_t> left;
    for (std::size_t b = 0; b < indices.size(); ++b)
      if (!placed[b]) left.push_back(indices[b]);
    bool identical = true;
    for (std::size_t index : left) identical &= remarks.kernels[index].values == remarks.kernels[left.front()].values;
    std::size_t c = 0;
    for (std::size_t index : left) {
      while (c < candidates.size() && taken[c]) ++c;
      if (c == candidates.size()) break;  // more blocks than archs: the merge ignores an arch-less block
      KernelFacts &block = remarks.kernels[index];
      block.arch = candidates[c]->arch;
      taken[c] = true;
      if (!identical || !agrees(block, *candidates[c])) block.values = {};
    }
  }
}

}  // namespace

CollectedRun collectAmdObject(std::string_view remark_text, std::string_view object,
                              const std::vector<std::string> &archs, const std::string &compiled_source,
                              const SourceReader &read) {
  CollectedRun run;
  std::vector<CodeObject> objects = parseCodeObjects(object);
  auto rank = [&](const CodeObject &co) {
    for (std::size_t i = 0; i < archs.size(); ++i)
      if (archs[i] == co.arch || bareArch(archs[i]) == bareArch(co.arch)) return i;
    return archs.size();
  };
  std::stable_sort(objects.begin(), objects.end(),
                   [&](const CodeObject &a, const CodeObject &b) { return rank(a) < rank(b); });
  FactSet remarks = parseRemarkText(remark_text, objects.size() == 1 ? objects.front().arch : "");
  // Device functions' blocks (LLVM 15) are in no code object's kernel list.
  remarks.kernels.erase(
      std::remove_if(remarks.kernels.begin(), remarks.kernels.end(), [](const KernelFacts &k) { return !k.is_kernel; }),
      remarks.kernels.end());
  if (objects.size() > 1) assignArchs(remarks, objects);
  std::vector<FactSet> sets;
  for (CodeObject &co : objects) {
    if (run.producer.empty()) run.producer = co.producer;
    sets.push_back(std::move(co.facts));
  }
  sets.push_back(std::move(remarks));
  run.records = mergeFacts(sets);
  resolveDeclarations(run.records, compiled_source, read);
  return run;
}

}  // namespace regscope
