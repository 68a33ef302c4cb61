#include "regscope/report/select.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <tuple>

#include "regscope/support/error.h"
#include "regscope/support/plural.h"

namespace regscope {
namespace {

std::regex compile(const std::string &pattern, const char *option) {
  try {
    return std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error &e) {
    throw Error(std::string(option) + " '" + pattern + "' is not a valid regular expression (ECMAScript): " + e.what());
  }
}

const std::string &nameOf(const KernelReport &k) {
  return k.record.demangled.empty() ? k.record.name : k.record.demangled;
}

// Larger is worse, so that std::tuple's order ranks the worst first.
auto harm(const KernelReport &k) {
  const OccupancySummary &s = k.summary;
  const bool invalid = s.limiter == Limiter::Invalid;
  const bool local_known = s.spills_known && s.scratch_known;
  const long local = (s.spills_known ? s.spills : 0) + (s.scratch_known ? s.scratch_bytes : 0);
  // The fraction of the device's resident waves/warps it reaches; a kernel
  // with no occupancy (not modelled, figures unknown) ranks after every one with it.
  const bool occupancy_known =
      s.max_level > 0 && s.limiter != Limiter::Unknown && !invalid && s.limiter != Limiter::Unresolved;
  const double vacancy = occupancy_known ? 1.0 - static_cast<double>(s.level) / s.max_level : -1.0;
  return std::make_tuple(invalid, local > 0, local_known, s.spills_known ? s.spills : -1,
                         s.scratch_known ? s.scratch_bytes : -1, vacancy, s.registers_known ? s.registers : -1);
}

}  // namespace

void addLibrarySummaries(Report &report) {
  struct Library {
    std::set<std::string> kernels, archs;
  };
  std::map<std::string, Library> libraries;
  for (const KernelReport &k : report.kernels) {
    const std::string &file = k.display_file;
    const std::size_t slash = file.find_last_of('/');
    const std::string name = slash == std::string::npos ? file : file.substr(slash + 1);
    // libfoo.so, libfoo.so.12, _C.cpython-312-x86_64-linux-gnu.so
    const std::size_t so = name.find(".so");
    if (so == std::string::npos || (so + 3 != name.size() && name[so + 3] != '.')) continue;
    Library &library = libraries[file];
    library.kernels.insert(k.record.name);
    library.archs.insert(k.record.arch);
  }
  for (const auto &[file, library] : libraries) {
    std::string archs;
    for (const std::string &a : library.archs) archs += (archs.empty() ? "" : ", ") + a;
    report.notes.push_back(file + ": " + plural(library.kernels.size(), "kernel", "kernels") + ", " +
                           plural(library.archs.size(), "arch", "archs") + " (" + archs + ")");
  }
}

void checkSelection(const KernelSelection &selection) {
  if (!selection.kernel.empty()) compile(selection.kernel, "--kernel");
  if (!selection.exclude.empty()) compile(selection.exclude, "--exclude");
}

bool hurtsMore(const KernelReport &a, const KernelReport &b) { return harm(a) > harm(b); }

void selectKernels(Report &report, const KernelSelection &selection) {
  if (!selection.any()) return;
  const std::size_t all = report.kernels.size();
  const std::regex kernel = compile(selection.kernel.empty() ? "" : selection.kernel, "--kernel");
  const std::regex exclude = compile(selection.exclude, "--exclude");
  // In place, and the ranking over indices: a library's 100,000 kernels are
  // never held twice.
  std::vector<KernelReport> &kernels = report.kernels;
  kernels.erase(std::remove_if(kernels.begin(), kernels.end(),
                               [&](const KernelReport &k) {
                                 return (!selection.kernel.empty() && !std::regex_search(nameOf(k), kernel)) ||
                                        (!selection.exclude.empty() && std::regex_search(nameOf(k), exclude));
                               }),
                kernels.end());
  const std::size_t matched = kernels.size();
  if (selection.top > 0 && kernels.size() > 0) {  // the worst first; ties keep the report's order
    std::vector<std::size_t> rank(kernels.size());
    for (std::size_t i = 0; i < rank.size(); ++i) rank[i] = i;
    std::stable_sort(rank.begin(), rank.end(),
                     [&](std::size_t a, std::size_t b) { return hurtsMore(kernels[a], kernels[b]); });
    rank.resize(std::min(rank.size(), static_cast<std::size_t>(selection.top)));
    std::vector<KernelReport> worst;
    worst.reserve(rank.size());
    for (std::size_t i : rank) worst.push_back(std::move(kernels[i]));
    kernels = std::move(worst);
  }
  kernels.shrink_to_fit();
  std::string how;
  if (!selection.kernel.empty()) how += "--kernel '" + selection.kernel + "'";
  if (!selection.exclude.empty()) how += std::string(how.empty() ? "" : ", ") + "--exclude '" + selection.exclude + "'";
  if (selection.top > 0)
    how += std::string(how.empty() ? "" : ", ") + "--top " + std::to_string(selection.top) + " of " +
           std::to_string(matched) + " matching, worst first";
  report.notes.push_back("showing " + std::to_string(report.kernels.size()) + " of " + std::to_string(all) +
                         " kernels (" + how + ")");
}

}  // namespace regscope
