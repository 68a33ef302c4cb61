// What each backend's description of its kernels is made of (Backend::
// kernelSection, kernelJson): the kernel table's section, with the identity
// columns every vendor's table starts with; notes said once per message with
// the kernels they cover; and a figure as a cell or as JSON, "?" or null
// where it was not read, never 0.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "regscope/backend/modelled_kernel.h"
#include "regscope/describe/document.h"

namespace regscope {

// One backend's part of the kernel table: its kernels' rows and their notes.
struct KernelSection {
  Table table;
  Notes notes;
};

// ---- the table
// A kernel table: the identity columns (signature, symbol, arch, location),
// then `columns`.
Table kernelTable(std::vector<Column> columns);
// How the terminal fits the table (docs/output.md): the columns said once
// when alike in every row (`fold`), and those left out first, least needed
// first (`drop_first`), by header.
void fitColumns(Table &table, const std::vector<std::string> &fold, const std::vector<std::string> &drop_first);
// A row: the kernel's identity cells, then `cells`.
void addKernelRow(Table &table, const KernelReport &k, std::vector<Cell> cells);

// Whether the figure is unresolved until link (LLVM 20+) or was not read
// (ModelFacts::unknown).
bool figureMissing(const KernelReport &k, Field f);
// The figure as a count, "?" where missing; 0 only where a source said 0 or
// the figure is one a compiler leaves out when it is 0.
Cell figureCell(const KernelReport &k, Field f);
// The figure in bytes ("64 KiB"), "?" where missing.
Cell bytesCell(const KernelReport &k, Field f);
// "3/0", "?/0": two figures in one column.
std::string figurePair(const KernelReport &k, Field a, Field b);
// "unknown: vgprs, sgprs not read": a kernel without an occupancy.
std::string unknownText(const KernelReport &k);

// ---- the notes
// Notes in first-said order; a message several kernels share is said once,
// naming up to four of them.
class NoteList {
 public:
  void add(const KernelReport &k, std::string message);
  // A line about the whole section, after the kernels' notes.
  void addLine(std::string line) { lines_.push_back(std::move(line)); }
  Notes build() const;

 private:
  struct Note {
    std::string message;
    std::vector<std::string> kernels;  // who(): the name, arch and twin tag
    std::vector<std::string> files;    // each kernel's file name, to tell alike names apart
  };
  std::vector<Note> notes_;
  std::map<std::string, std::size_t> index_;
  std::vector<std::string> lines_;
};

// Where the assumed block size came from, and how to give the real one.
std::string launchNote(const LaunchAssumption &launch);
// Where the dynamic LDS (`what`: "LDS", "shared memory") counted came from,
// when regscope read it in the source; "" otherwise.
std::string dynamicSharedNote(const LaunchAssumption &launch, const char *what);
// "with 4096 bytes of dynamic shared memory per block" (`what`): a section's
// line when the run's flag (--dynamic-smem, --dynamic-slm) gave the size,
// which is then every kernel's; "" otherwise.
std::string dynamicSharedFlagLine(const LaunchAssumption &launch, const char *what);
// KernelRecord::loop_spill_site as {"file", "line"}; null when no spill in a loop has a line.
nlohmann::json loopSpillSiteJson(const KernelRecord &record);
// A Triton kernel's launch and options, as its cache entry's metadata says;
// `dynamic_shared` is its backend's words for the metadata's `shared` ("8 KiB
// of dynamic LDS").
std::string tritonNote(const KernelReport &k, const std::string &dynamic_shared);

// ---- the JSON (docs/json-schema.md, "kernels")
// The keys every kernel's object has: vendor, name, demangled, arch, file,
// line, unknown, sources, warnings.
nlohmann::json kernelJsonBase(const KernelReport &k);
// The record's figure, null where no source gave it.
nlohmann::json figureJson(const KernelRecord &r, Field f);

}  // namespace regscope
