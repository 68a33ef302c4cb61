// What each backend's description of its kernels is made of.
#include "regscope/describe/kernel_section.h"

#include <algorithm>
#include <filesystem>

#include "regscope/describe/phrases.h"

namespace regscope {
namespace {

// The columns that say which kernel a row is, first in every vendor's table:
// the full signature (the terminal may elide it), its symbol, the arch and where.
std::vector<Column> identityColumns() {
  std::vector<Column> columns = {{"KERNEL", "kernel", false, Show::Everywhere, /*elide=*/true},
                                 {"", "name", false, Show::Data},
                                 {"ARCH", "arch"},
                                 {"LOCATION", "", false, Show::Text},
                                 {"", "file", false, Show::Data},
                                 {"", "line", true, Show::Data}};
  columns[2].fold = true;  // one arch in every row: said once
  columns[3].path = true;
  return columns;
}

std::vector<Cell> identityCells(const KernelReport &k) {
  const KernelRecord &r = k.record;
  // A Triton kernel is where its author wrote it (the @triton.jit function's
  // file and line), not its cache entry, which the data columns keep.
  const bool python = r.triton && !r.triton->python_file.empty();
  std::string location =
      python ? locationText(r.triton->python_file, r.triton->python_line) : locationText(k.display_file, r.line);
  if (!k.twin.empty()) location += " " + k.twin;  // what tells it from a kernel alike in name, arch and place
  return {r.demangled, r.name, r.arch, location, k.display_file, Cell::count(r.line)};
}

std::string who(const KernelReport &k) {
  return shortKernelName(k.record.demangled) + (k.twin.empty() ? "" : " " + k.twin) + " [" + k.record.arch + "]";
}

}  // namespace

Table kernelTable(std::vector<Column> columns) {
  Table table;
  table.columns = identityColumns();
  table.columns.insert(table.columns.end(), columns.begin(), columns.end());
  return table;
}

void fitColumns(Table &table, const std::vector<std::string> &fold, const std::vector<std::string> &drop_first) {
  for (Column &c : table.columns) {
    c.fold = c.fold || std::find(fold.begin(), fold.end(), c.header) != fold.end();
    const auto at = std::find(drop_first.begin(), drop_first.end(), c.header);
    if (at != drop_first.end()) c.drop = static_cast<int>(drop_first.end() - at);
  }
}

void addKernelRow(Table &table, const KernelReport &k, std::vector<Cell> cells) {
  std::vector<Cell> row = identityCells(k);
  row.insert(row.end(), std::make_move_iterator(cells.begin()), std::make_move_iterator(cells.end()));
  table.add(std::move(row));
}

bool figureMissing(const KernelReport &k, Field f) {
  return k.record.isUnresolved(f) || std::find(k.unknown.begin(), k.unknown.end(), f) != k.unknown.end();
}
Cell figureCell(const KernelReport &k, Field f) {
  if (figureMissing(k, f)) return "?";
  return Cell::count(k.record.value(f));
}
Cell bytesCell(const KernelReport &k, Field f) {
  if (figureMissing(k, f)) return "?";
  return Cell(bytesText(k.record.value(f)), k.record.value(f));
}
std::string figurePair(const KernelReport &k, Field a, Field b) {
  auto one = [&](Field f) { return figureMissing(k, f) ? std::string("?") : std::to_string(k.record.value(f)); };
  return one(a) + "/" + one(b);
}
std::string unknownText(const KernelReport &k) {
  std::string fields;
  for (Field f : k.unknown) fields += (fields.empty() ? "" : ", ") + std::string(fieldKey(f));
  return "unknown: " + fields + " not read";
}

void NoteList::add(const KernelReport &k, std::string message) {
  auto [it, inserted] = index_.try_emplace(message, notes_.size());
  if (inserted) notes_.push_back({std::move(message), {}, {}});
  notes_[it->second].kernels.push_back(who(k));
  notes_[it->second].files.push_back(std::filesystem::path(k.display_file).filename().string());
}

Notes NoteList::build() const {
  Notes notes;
  for (const Note &note : notes_) {
    constexpr std::size_t kNamed = 4;
    std::string kernels;
    // Kernels alike in name and arch but in different files (a .s and its code object) are named
    // with their file, as the table's LOCATION tells them apart.
    auto named = [&](std::size_t i) {
      const bool alike = std::count(note.kernels.begin(), note.kernels.end(), note.kernels[i]) > 1;
      return alike && !note.files[i].empty() ? note.kernels[i] + " in " + note.files[i] : note.kernels[i];
    };
    for (std::size_t i = 0; i < note.kernels.size() && i < kNamed; ++i) kernels += (i ? ", " : "") + named(i);
    if (note.kernels.size() > kNamed) kernels += " and " + std::to_string(note.kernels.size() - kNamed) + " more";
    notes.items.push_back(kernels + ": " + note.message);
  }
  notes.items.insert(notes.items.end(), lines_.begin(), lines_.end());
  return notes;
}

// Where the assumed block size came from, and how to give the real one.
std::string launchNote(const LaunchAssumption &launch) {
  const std::string size = std::to_string(launch.block_size) + " threads";
  switch (launch.source) {
    case BlockSizeSource::Flag:
      return "assumes workgroups of " + size + " (--block-size)";
    case BlockSizeSource::Config:
      return "assumes workgroups of " + size + " (.regscope.json)";
    case BlockSizeSource::LaunchSite:
      return "assumes workgroups of " + size + ", the size its launches in the file use";
    case BlockSizeSource::TritonMetadata:
      return "";  // Triton's launch: the kernel's Triton note says it
    case BlockSizeSource::MaxFlatWorkgroupSize:
    case BlockSizeSource::LaunchBounds:
    case BlockSizeSource::RequiredWorkGroupSize:
    case BlockSizeSource::Default:
      break;
  }
  return "assumes workgroups of " + size +
         ", the most it was compiled for (__launch_bounds__, else HIP's default): give the real size with "
         "--block-size, .regscope.json's \"block_size\" or __launch_bounds__";
}

// Where the dynamic LDS counted came from, when regscope read it in the source.
std::string dynamicSharedNote(const LaunchAssumption &launch, const char *what) {
  const std::string bytes = "counts " + bytesText(launch.dynamic_shared) + " of dynamic " + what;
  if (launch.dynamic_source == DynamicSharedSource::LaunchSite)
    return bytes + ", the size its launches in the file give";
  if (launch.dynamic_source == DynamicSharedSource::FuncAttribute)
    return bytes +
           ", the MaxDynamicSharedMemorySize its hip/cudaFuncSetAttribute in the file sets (its launches' own "
           "size is not a constant)";
  return "";
}

std::string dynamicSharedFlagLine(const LaunchAssumption &launch, const char *what) {
  if (!launch.dynamic_shared || launch.dynamic_source != DynamicSharedSource::Flag) return "";
  return "with " + std::to_string(launch.dynamic_shared) + " bytes of dynamic " + what;
}

// A Triton kernel's launch and options, as its cache entry's metadata says.
std::string tritonNote(const KernelReport &k, const std::string &dynamic_shared) {
  const TritonInfo &t = *k.record.triton;
  std::string note = "Triton" + (t.version.empty() ? std::string() : " " + t.version) + " @triton.jit " + t.function;
  if (!t.python_file.empty()) {
    const std::size_t slash = t.python_file.rfind('/');
    note += " (" + t.python_file.substr(slash == std::string::npos ? 0 : slash + 1) + ":" +
            std::to_string(t.python_line) + ")";
  }
  note += ": launched as num_warps " + std::to_string(t.num_warps) + " x " + std::to_string(t.warp_size) + " = " +
          std::to_string(t.blockSize()) + " threads with " + dynamic_shared;
  note += "; num_stages " + std::to_string(t.num_stages);
  if (t.num_ctas > 1) note += ", num_ctas " + std::to_string(t.num_ctas);
  if (t.waves_per_eu && *t.waves_per_eu > 0)
    note += ", waves_per_eu " + std::to_string(*t.waves_per_eu) + " (asks the compiler to fit " +
            std::to_string(*t.waves_per_eu) + " waves/SIMD)";
  if (t.matrix_instr_nonkdim && *t.matrix_instr_nonkdim > 0)
    note += ", matrix_instr_nonkdim " + std::to_string(*t.matrix_instr_nonkdim);
  if (t.kpack && *t.kpack != 1) note += ", kpack " + std::to_string(*t.kpack);
  if (t.maxnreg) note += ", maxnreg " + std::to_string(*t.maxnreg);
  return note;
}

nlohmann::json kernelJsonBase(const KernelReport &k) {
  const KernelRecord &r = k.record;
  nlohmann::json unknown = nlohmann::json::array();
  for (Field f : k.unknown) unknown.push_back(fieldKey(f));
  return {{"vendor", vendorName(r.vendor)}, {"name", r.name}, {"demangled", r.demangled}, {"arch", r.arch},
          {"file", k.display_file},         {"line", r.line}, {"unknown", unknown},       {"sources", r.sources},
          {"warnings", r.warnings}};
}

nlohmann::json loopSpillSiteJson(const KernelRecord &r) {
  if (r.loop_spill_site.line <= 0) return nullptr;
  return {{"file", r.loop_spill_site.file}, {"line", r.loop_spill_site.line}};
}

nlohmann::json figureJson(const KernelRecord &r, Field f) {
  return r.has(f) ? nlohmann::json(r.value(f)) : nlohmann::json();
}

}  // namespace regscope
