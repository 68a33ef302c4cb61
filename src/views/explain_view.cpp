// `regscope explain` and `analyze --lines`: where each kernel's registers go,
// from the isa stage's reading of the same compile that gave its figures.
#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

#include "html_page.h"
#include "phrases.h"
#include "regscope/model/limiter.h"
#include "regscope/support/version.h"
#include "regscope/target/vendor_words.h"
#include "regscope/views/views.h"
#include "report_json.h"

namespace regscope {
namespace {

using nlohmann::json;

// How many hottest lines explain marks in the listing and lists in JSON's `hottest`.
constexpr std::size_t kMarkedLines = 5;
// Lines without instructions in a run this long are folded into one row of the listing (shorter runs are
// kept: a comment or blank line between statements reads better in place).
constexpr std::size_t kFoldedRun = 3;

std::string fixed(double value, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

// A source line's text for a table: tabs as spaces, trailing blanks dropped.
std::string sourceLine(const KernelIsa &kernel, int file, int line) {
  auto it = kernel.sources.find(file);
  if (it == kernel.sources.end() || line < 1 || line > static_cast<int>(it->second.lines.size())) return "";
  std::string text = it->second.lines[line - 1];
  std::replace(text.begin(), text.end(), '\t', ' ');
  text.erase(text.find_last_not_of(" \r") + 1);
  return text;
}

std::string fileName(const KernelIsa &kernel, int file) {
  auto it = kernel.sources.find(file);
  return it != kernel.sources.end() ? it->second.display : kernel.isa->files[file].path();
}

std::string baseName(const std::string &path) { return path.substr(path.rfind('/') + 1); }

std::string where(const KernelIsa &kernel, int file, int line) {
  if (line <= 0) return "(no source line)";  // line 0 is DWARF's "no line", never a place to print
  if (file < 0) return "?:" + std::to_string(line);
  return fileName(kernel, file) + ":" + std::to_string(line);
}

// "v0-v7 v10 a0-a3 s4-s5 vcc_lo": runs of one file's numbered registers joined.
std::string registerRanges(const std::vector<std::string> &registers) {
  std::string out, prefix;
  int first = -1, last = -1;
  auto flush = [&] {
    if (first < 0) return;
    out += (out.empty() ? "" : " ") + prefix + std::to_string(first) +
           (last > first ? "-" + prefix + std::to_string(last) : "");
    first = last = -1;
  };
  for (const std::string &reg : registers) {
    const std::size_t digits = reg.find_first_of("0123456789");
    const bool numbered =
        digits != std::string::npos && digits > 0 && reg.find_first_not_of("0123456789", digits) == std::string::npos;
    if (!numbered) {
      flush();
      out += (out.empty() ? "" : " ") + reg;
      continue;
    }
    const std::string p = reg.substr(0, digits);
    const int n = std::stoi(reg.substr(digits));
    if (first >= 0 && p == prefix && n == last + 1) {
      last = n;
      continue;
    }
    flush();
    prefix = p;
    first = last = n;
  }
  flush();
  return out;
}

// A line's peaks are null where no liveness was read (IsaFunction::has_liveness).
json lineToJson(const KernelIsa &kernel, const LinePressure &line, bool live) {
  auto peak = [live](int n) { return live ? json(n) : json(nullptr); };
  return {{"file", line.file < 0 ? json(nullptr) : json(fileName(kernel, line.file))},
          {"line", line.line},
          {"instructions", line.instructions},
          {"peak_vgprs", peak(line.peak_vgprs)},
          {"peak_agprs", peak(line.peak_agprs)},
          {"peak_sgprs", peak(line.peak_sgprs)},
          {"source", sourceLine(kernel, line.file, line.line)}};
}

json hottestToJson(const KernelIsa &kernel, std::size_t n) {
  json lines = json::array();
  if (const IsaFunction *f = kernel.get(); f && f->has_liveness)
    for (const LinePressure &line : hottestLines(*f, n)) lines.push_back(lineToJson(kernel, line, true));
  return lines;
}

json mixToJson(const InstructionMix &mix) {
  json counts = json::object();
  for (std::size_t k = 0; k < kInstrKindCount; ++k) counts[instrKindKey(static_cast<InstrKind>(k))] = mix.counts[k];
  return {{"counts", counts},
          {"total", mix.total},
          {"alu", mix.alu},
          {"memory", mix.memory},
          {"alu_per_memory", mix.memory ? json(mix.alu_per_memory) : json(nullptr)}};
}

json estimateToJson(const IsaFunction &f) {
  const StaticEstimate &e = f.estimate;
  json blocks = json::array();
  for (const BlockEstimate &b : e.blocks)
    blocks.push_back({{"label", b.label},
                      {"first_instruction", b.first_instruction},
                      {"instructions", b.instructions},
                      {"in_loop", b.in_loop},
                      {"loop_depth", b.loop_depth},
                      {"estimated", b.estimated},
                      {"cycles", b.cycles},
                      {"ipc", b.ipc}});
  return {{"available", e.available},
          {"cycles", e.cycles},
          {"loop_cycles", e.loop_cycles},
          {"unmodelled_instructions", e.unmodelled_instructions},
          {"blocks", blocks}};
}

json peakToJson(const KernelIsa &kernel, const IsaFunction &f) {
  const PressurePeak &p = f.peak;
  if (p.instruction < 0) return nullptr;
  const IsaInstruction &at = f.instructions[p.instruction];
  json across = json::array();
  for (const LiveAcross &a : p.live_across)
    across.push_back({{"file", a.file < 0 ? json(nullptr) : json(fileName(kernel, a.file))},
                      {"line", a.line},
                      {"vgprs", a.vgprs},
                      {"agprs", a.agprs},
                      {"sgprs", a.sgprs},
                      {"source", sourceLine(kernel, a.file, a.line)}});
  return {{"instruction", p.instruction},
          {"text", at.text},
          {"asm_line", at.asm_line},
          {"address", at.address >= 0 ? json(at.address) : json(nullptr)},
          {"line", at.line},
          {"source", sourceLine(kernel, at.file, at.line)},
          {"vgprs", p.vgprs},
          {"agprs", p.agprs},
          {"sgprs", p.sgprs},
          {"live_registers", p.live_registers},
          {"live_across", across}};
}

// ---- spill sites (docs/explain.md, "Spill sites") ----

// "spill", "reload", "private store", "private load", and NVIDIA's "local
// store", "local load" (STL/LDL: spills or local arrays, SASS cannot tell
// which): what a site does.
std::string spillKind(const SpillSite &site) {
  if (site.medium == SpillMedium::Local) return site.store ? "local store" : "local load";
  if (site.spill) return site.store ? "spill" : "reload";
  return site.store ? "private store" : "private load";
}

// "private store" -> "private_store": the kind as a JSON value.
std::string jsonKey(std::string words) {
  std::replace(words.begin(), words.end(), ' ', '_');
  return words;
}

// What the compiler counted, beside what the code holds: AMD's remarks and
// metadata count the dwords spill stores write (VGPRs spilled) and the SGPRs
// written into VGPR lanes (SGPRs spilled).
struct SpillCounts {
  std::optional<std::int64_t> vgprs, sgprs;
};
SpillCounts compilerSpillCounts(const KernelReport &k) {
  SpillCounts c;
  if (k.record.has(Field::VgprSpills)) c.vgprs = k.record.value(Field::VgprSpills);
  if (k.record.has(Field::SgprSpills)) c.sgprs = k.record.value(Field::SgprSpills);
  return c;
}

json spillsToJson(const KernelIsa &kernel, const IsaFunction &f) {
  json sites = json::array();
  for (const SpillSite &site : f.spills) {
    const IsaInstruction &at = f.instructions[site.instruction];
    sites.push_back({{"kind", jsonKey(spillKind(site))},
                     {"medium", spillMediumKey(site.medium)},
                     {"bytes", site.bytes},
                     {"loop_depth", site.loop_depth},
                     {"file", at.file < 0 ? json(nullptr) : json(fileName(kernel, at.file))},
                     {"line", at.line > 0 ? json(at.line) : json(nullptr)},
                     {"source", sourceLine(kernel, at.file, at.line)},
                     {"instruction", site.instruction},
                     {"text", at.text},
                     {"asm_line", at.asm_line > 0 ? json(at.asm_line) : json(nullptr)},
                     {"address", at.address >= 0 ? json(at.address) : json(nullptr)},
                     {"marked_by_compiler", site.from_comment}});
  }
  return sites;
}

json spillSummaryToJson(const KernelReport &k, const IsaFunction &f) {
  const SpillTotals &t = f.spill_totals;
  const SpillCounts compiler = compilerSpillCounts(k);
  auto optional = [](const std::optional<std::int64_t> &v) { return v ? json(*v) : json(nullptr); };
  return {{"accesses", t.accesses},
          {"in_loops", t.in_loops},
          {"loops_known", t.loops_known},
          {"store_bytes", t.store_bytes},
          {"load_bytes", t.load_bytes},
          {"max_loop_depth", t.max_depth},
          {"stores", t.stores},
          {"store_dwords", t.store_dwords},
          {"lane_stores", t.lane_stores},
          {"private_accesses", t.private_accesses},
          {"private_in_loops", t.private_in_loops},
          {"compiler_vgpr_spills", optional(compiler.vgprs)},
          {"compiler_sgpr_spills", optional(compiler.sgprs)}};
}

// "303 accesses, 290 in loops (max depth 1)"; "no spills".
std::string spillHeadline(const SpillTotals &t) {
  if (t.accesses == 0) return "none";
  return std::to_string(t.accesses) + (t.accesses == 1 ? " access, " : " accesses, ") +
         (t.in_loops == 0 ? std::string("none in a loop")
                          : std::to_string(t.in_loops) + " in loops (max depth " + std::to_string(t.max_depth) + ")");
}

json explainedKernelToJson(const KernelReport &k, const KernelIsa &kernel) {
  json j = {{"name", k.record.name},
            {"demangled", k.record.demangled},
            {"arch", k.record.arch},
            {"file", k.display_file},
            {"line", k.record.line},
            {"registers", k.summary.registers},
            {"occupancy", k.summary.level},
            {"max_occupancy", k.summary.max_level},
            {"limiter", limiterName(k.summary.limiter)}};
  const IsaFunction *f = kernel.get();
  if (!f) {
    j["isa"] = nullptr;
    j["notes"] = json::array({kernel.missing});
    return j;
  }
  json lines = json::array();
  for (const LinePressure &line : f->lines) lines.push_back(lineToJson(kernel, line, f->has_liveness));
  std::vector<std::string> notes = f->notes;
  notes.insert(notes.end(), kernel.isa->notes.begin(), kernel.isa->notes.end());
  j["isa"] = {
      {"has_line_info", f->has_line_info},
      {"has_liveness", f->has_liveness},
      {"instructions", f->instructions.size()},
      {"max_live", f->has_liveness ? json{{"vgprs", f->max_vgprs}, {"agprs", f->max_agprs}, {"sgprs", f->max_sgprs}}
                                   : json(nullptr)},
      {"peak", peakToJson(kernel, *f)},
      {"lines", lines},
      {"hottest", hottestToJson(kernel, kMarkedLines)},
      {"mix", mixToJson(f->mix)},
      {"estimate", estimateToJson(*f)}};
  j["spill_summary"] = spillSummaryToJson(k, *f);
  j["spills"] = spillsToJson(kernel, *f);
  j["notes"] = notes;
  return j;
}

// What the isa stage's three counts are on each vendor (target/vendor_words.h):
// AMD's VGPRs, AGPRs and SGPRs; NVIDIA's general registers (R) and uniform
// registers (UR), no AGPRs.
struct RegisterNames {
  const char *vector, *matrix, *scalar;  // column headings; matrix null: the vendor has none
};
RegisterNames registerNames(Vendor vendor) {
  const VendorWords &words = vendorWords(vendor);
  return {words.vector_column, words.matrix_column, words.scalar_column};
}

// "94 VGPRs, 0 AGPRs, 20 SGPRs" or "101 registers, 2 uniform registers".
std::string liveCounts(Vendor vendor, int vector, int matrix, int scalar) {
  const VendorWords &words = vendorWords(vendor);
  std::string text = std::to_string(vector) + " " + words.vector_word;
  if (words.matrix_word) text += ", " + std::to_string(matrix) + " " + words.matrix_word;
  return text + ", " + std::to_string(scalar) + " " + words.scalar_word;
}

// The columns of a table of register counts: kernel and arch (data only), the
// line, the vendor's register kinds (the matrix one only where it exists).
std::vector<Column> registerColumns(Vendor vendor, const char *vector_key, const char *matrix_key,
                                    const char *scalar_key) {
  const RegisterNames names = registerNames(vendor);
  std::vector<Column> columns = {{"", "kernel", false, Show::Data},
                                 {"", "arch", false, Show::Data},
                                 {"LINE", "line", true},
                                 {names.vector, vector_key, true}};
  if (names.matrix) columns.push_back({names.matrix, matrix_key, true});
  columns.push_back({names.scalar, scalar_key, true});
  return columns;
}

// The kernel's heading: "laplacian_k5<double>(...) [gfx90a] laplacian.hip:12: 94 VGPRs allocated, 5/8
// waves/SIMD; at most 94 VGPRs, ... live at once".
Line heading(const KernelReport &k, const KernelIsa &kernel) {
  std::string text = shortKernelName(k.record.demangled) + " [" + k.record.arch + "] " +
                     locationText(k.display_file, k.record.line) + ": " + std::to_string(k.summary.registers) + " " +
                     vendorWords(k.summary.vendor).registers_allocated + ", " + std::to_string(k.summary.level) + "/" +
                     std::to_string(k.summary.max_level) + " " + occupancyUnit(k.summary.vendor);
  if (const IsaFunction *f = kernel.get())
    text += f->has_liveness ? "; at most " + liveCounts(k.summary.vendor, f->max_vgprs, f->max_agprs, f->max_sgprs) +
                                  " live at once"
                            : std::string("; live registers not read");
  return Line(text);
}

// A line in a table: its number in the file the kernel is declared in,
// "file:line" (the file's name only) in another, "(none)" for code without a
// source line.
Cell lineLabel(const KernelIsa &kernel, int file, int line) {
  if (line <= 0)
    return Cell(file < 0 || file == kernel.kernel_file ? "(none)" : "(none: " + baseName(fileName(kernel, file)) + ")");
  if (file == kernel.kernel_file) return Cell::count(line);
  return Cell(baseName(fileName(kernel, file)) + ":" + std::to_string(line), line);
}

Table linesTable(const KernelReport &k, const KernelIsa &kernel, const std::vector<LinePressure> &lines,
                 const std::vector<LinePressure> &hottest) {
  const bool agprs = registerNames(k.record.vendor).matrix != nullptr;
  Table table;
  table.columns = registerColumns(k.record.vendor, "peak_vgprs", "peak_agprs", "peak_sgprs");
  table.columns.insert(table.columns.end(),
                       {{"INSTR", "instructions", true}, {"HOT", "rank", true}, {"SOURCE", "source"}});
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const LinePressure &line = lines[i];
    // A run of lines without instructions (a signature, a docstring, comments) is said in one row.
    std::size_t run = 0;
    while (i + run < lines.size() && !lines[i + run].instructions && lines[i + run].file == line.file &&
           lines[i + run].line > 0)
      ++run;
    if (run >= kFoldedRun) {
      std::vector<Cell> row = {k.record.demangled, k.record.arch, Cell("")};
      row.insert(row.end(), agprs ? 5 : 4, Cell(""));
      row.push_back("... " + std::to_string(run) + " lines without instructions ...");
      table.add(std::move(row));
      i += run - 1;
      continue;
    }
    auto rank = std::find_if(hottest.begin(), hottest.end(),
                             [&](const LinePressure &h) { return h.file == line.file && h.line == line.line; });
    std::vector<Cell> row = {k.record.demangled, k.record.arch, lineLabel(kernel, line.file, line.line)};
    if (!line.instructions) {
      row.insert(row.end(), agprs ? 5 : 4, Cell(""));
    } else {
      row.push_back(Cell::count(line.peak_vgprs));
      if (agprs) row.push_back(Cell::count(line.peak_agprs));
      row.push_back(Cell::count(line.peak_sgprs));
      row.push_back(Cell::count(line.instructions));
      row.push_back(rank == hottest.end()
                        ? Cell("")
                        : Cell("#" + std::to_string(rank - hottest.begin() + 1), rank - hottest.begin() + 1));
    }
    row.push_back(sourceLine(kernel, line.file, line.line));
    table.add(std::move(row));
  }
  return table;
}

// explain's listing: every line of the kernel's own file from its first line
// with code to its last, lines without code blank; lines of other files after.
std::vector<LinePressure> listing(const KernelIsa &kernel, const IsaFunction &f) {
  std::vector<LinePressure> rows;
  int low = 0, high = 0;
  for (const LinePressure &line : f.lines)
    if (line.file == kernel.main_file && line.line > 0) {
      low = low ? std::min(low, line.line) : line.line;
      high = std::max(high, line.line);
    }
  std::size_t next = 0;
  std::vector<LinePressure> own;
  for (const LinePressure &line : f.lines)
    if (line.file == kernel.main_file && line.line > 0) own.push_back(line);
  for (int n = low; low && n <= high; ++n) {
    if (next < own.size() && own[next].line == n) {
      rows.push_back(own[next++]);
    } else {
      LinePressure blank;
      blank.file = kernel.main_file;
      blank.line = n;
      rows.push_back(blank);
    }
  }
  for (const LinePressure &line : f.lines)
    if (line.file != kernel.main_file || line.line <= 0) rows.push_back(line);
  return rows;
}

// How many rows of spill sites explain's text lists per kernel (JSON lists every site).
constexpr std::size_t kSpillRows = 12;

// The spill sites of one kernel as explain prints them: the summary, where
// the code's count and the compiler's differ, and a table grouping sites by
// line, loop depth, kind and medium, deepest first.
void spillSection(Document &doc, const KernelReport &k, const KernelIsa &kernel, const IsaFunction &f) {
  const SpillTotals &t = f.spill_totals;
  if (t.accesses == 0 && t.private_accesses == 0) return;
  const bool local =
      std::any_of(f.spills.begin(), f.spills.end(), [](const SpillSite &s) { return s.medium == SpillMedium::Local; });
  std::string text = (local ? "local memory (spills or local arrays): " : "spills: ") + spillHeadline(t);
  if (!t.loops_known) text += " (loop depths may be too low: see the notes)";
  if (t.private_accesses > 0)  // private memory the compiler did not mark as spills
    text += "; stack arrays: " + std::to_string(t.private_accesses) +
            (t.private_accesses == 1 ? " access" : " accesses") +
            (t.private_in_loops ? ", " + std::to_string(t.private_in_loops) + " in loops" : "");
  doc.line(Line(text));
  std::vector<std::string> notes;
  const SpillCounts compiler = compilerSpillCounts(k);
  if (compiler.vgprs && *compiler.vgprs != t.store_dwords)
    notes.push_back("the spill stores in the code write " + std::to_string(t.store_dwords) +
                    " dwords; the compiler counted " + std::to_string(*compiler.vgprs) + " VGPRs spilled");
  if (local && k.record.has(Field::SpillStoreBytes) && k.record.has(Field::SpillLoadBytes)) {
    const std::int64_t stores = k.record.value(Field::SpillStoreBytes), loads = k.record.value(Field::SpillLoadBytes);
    const bool equal = stores == t.store_bytes && loads == t.load_bytes;
    const bool more = stores <= t.store_bytes && loads <= t.load_bytes;
    notes.push_back("STL/LDL move " + std::to_string(t.store_bytes) + "/" + std::to_string(t.load_bytes) +
                    " bytes per thread; ptxas counted " + std::to_string(stores) + "/" + std::to_string(loads) +
                    " bytes of spill stores/loads" +
                    (equal  ? ": every access is a spill"
                     : more ? ": the difference is local arrays"
                            : ""));
  }
  if (compiler.sgprs && *compiler.sgprs != t.lane_stores)
    notes.push_back("the code writes " + std::to_string(t.lane_stores) +
                    " SGPRs into VGPR lanes; the compiler counted " + std::to_string(*compiler.sgprs) +
                    " SGPRs spilled");
  struct Row {
    int file, line, depth;
    bool spill;
    std::string kind;
    SpillMedium medium;
    int count = 0;
    long bytes = 0;
  };
  std::vector<Row> rows;
  std::map<std::tuple<int, int, int, std::string, int>, std::size_t> index;
  for (const SpillSite &site : f.spills) {  // ranked: the rows keep the first site's rank
    const IsaInstruction &at = f.instructions[site.instruction];
    const std::string kind = spillKind(site);
    auto key = std::make_tuple(at.file, at.line, site.loop_depth, kind, static_cast<int>(site.medium));
    auto [it, added] = index.try_emplace(key, rows.size());
    if (added) rows.push_back({at.file, at.line, site.loop_depth, site.spill, kind, site.medium});
    ++rows[it->second].count;
    rows[it->second].bytes += site.bytes;
  }
  // Spills before other private accesses; the innermost loop first, then the
  // most bytes, then the first site's rank.
  std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
    return std::make_tuple(!a.spill, -a.depth, -a.bytes) < std::make_tuple(!b.spill, -b.depth, -b.bytes);
  });
  Table table;
  table.columns = {{"", "kernel", false, Show::Data},
                   {"", "arch", false, Show::Data},
                   {"LINE", "line", true},
                   {"DEPTH", "loop_depth", true},
                   {"KIND", "kind"},
                   {"IN", "medium"},
                   {"N", "count", true},
                   {"BYTES", "bytes", true},
                   {"SOURCE", "source"}};
  for (std::size_t r = 0; r < rows.size() && r < kSpillRows; ++r) {
    const Row &row = rows[r];
    table.add({k.record.demangled, k.record.arch, lineLabel(kernel, row.file, row.line), Cell::count(row.depth),
               row.kind, spillMediumKey(row.medium), Cell::count(row.count), Cell::count(row.bytes),
               sourceLine(kernel, row.file, row.line)});
  }
  doc.table(std::move(table));
  if (rows.size() > kSpillRows)
    notes.push_back(std::to_string(rows.size() - kSpillRows) +
                    " more rows of spill sites: --format json lists every site");
  if (!notes.empty()) doc.notes({notes});
}

void explainKernel(Document &doc, const KernelReport &k, const KernelIsa &kernel) {
  doc.line(heading(k, kernel));
  const IsaFunction *f = kernel.get();
  if (!f) {
    doc.notes({{kernel.missing}});
    doc.line(Line());
    return;
  }
  if (!f->has_liveness) {
    doc.line(Line("per-line registers: not read (the notes say why)"));
  } else {
    const std::vector<LinePressure> hottest = hottestLines(*f, kMarkedLines);
    doc.table(linesTable(k, kernel, listing(kernel, *f), hottest));
  }
  if (f->peak.instruction >= 0) {
    const IsaInstruction &at = f->instructions[f->peak.instruction];
    doc.line(Line());
    const Vendor vendor = k.record.vendor;
    char offset[32];
    std::snprintf(offset, sizeof offset, "%04lx", at.address);
    // Code the compiler made for no source line (line 0 at a block's head): said so, with the line before it.
    std::string place = where(kernel, at.file, at.line);
    for (int i = f->peak.instruction - 1; at.file < 0 && i >= 0; --i)
      if (f->instructions[i].file >= 0 && f->instructions[i].line > 0) {
        place = "no source line (code the compiler made; the line before it is " +
                where(kernel, f->instructions[i].file, f->instructions[i].line) + ")";
        break;
      }
    doc.line(Line("peak: " + liveCounts(vendor, f->peak.vgprs, f->peak.agprs, f->peak.sgprs) + " live at " + place +
                  ": " + at.text +
                  (at.address >= 0 ? std::string(" (offset /*") + offset + "*/)"
                                   : " (line " + std::to_string(at.asm_line) + " of the .s)")));
    doc.line(Line("live there: " + registerRanges(f->peak.live_registers)));
    doc.line(Line("live across it, by the line that wrote them (long live ranges an edit can shorten):"));
    Table across;
    across.columns = registerColumns(vendor, "vgprs", "agprs", "sgprs");
    across.columns.push_back({"SOURCE", "source"});
    for (const LiveAcross &a : f->peak.live_across) {
      std::vector<Cell> row = {k.record.demangled, k.record.arch,
                               a.file < 0 ? Cell("(entry or none)") : lineLabel(kernel, a.file, a.line),
                               Cell::count(a.vgprs)};
      if (registerNames(vendor).matrix) row.push_back(Cell::count(a.agprs));
      row.push_back(Cell::count(a.sgprs));
      row.push_back(sourceLine(kernel, a.file, a.line));
      across.add(std::move(row));
    }
    doc.table(std::move(across));
  }
  if (f->spill_totals.accesses > 0 || f->spill_totals.private_accesses > 0) {
    doc.line(Line());
    spillSection(doc, k, kernel, *f);
  }
  doc.line(Line());
  if (f->mix.total == 0) {  // NVIDIA: nvdisasm gives liveness and lines, not the MC layer's instruction classes
    std::vector<std::string> notes = f->notes;
    notes.insert(notes.end(), kernel.isa->notes.begin(), kernel.isa->notes.end());
    notes.push_back("the instruction mix and the static estimate are read for AMD kernels only");
    doc.notes({notes});
    doc.line(Line());
    return;
  }
  std::string mix = "instruction mix (" + std::to_string(f->mix.total) + "):";
  for (std::size_t i = 0; i < kInstrKindCount; ++i)
    if (f->mix.counts[i])
      mix += " " + std::string(instrKindKey(static_cast<InstrKind>(i))) + " " + std::to_string(f->mix.counts[i]);
  if (f->mix.memory) mix += "; ALU:memory " + fixed(f->mix.alu_per_memory, 2);
  doc.line(Line(mix));
  if (f->estimate.available) {
    int loops = 0;
    for (const BlockEstimate &b : f->estimate.blocks) loops += b.in_loop;
    doc.line(
        Line("static estimate (LLVM MCA, one wave, in order; not a run time): " + std::to_string(f->estimate.cycles) +
             " cycles over " + std::to_string(f->estimate.blocks.size()) + " blocks" +
             (loops ? ", " + std::to_string(f->estimate.loop_cycles) + " of them in " + std::to_string(loops) +
                          " loop blocks (each counted once)"
                    : ", no loops")));
  }
  std::vector<std::string> notes = f->notes;
  notes.insert(notes.end(), kernel.isa->notes.begin(), kernel.isa->notes.end());
  doc.notes({notes});
  doc.line(Line());
}

// The function's own lines of its main file, every line from the first to
// the last that produced an instruction, with the live registers at each
// line's peak (0 for a line without instructions).
void addSourceAndMix(const KernelIsa &kernel, json &entry) {
  const IsaFunction *f = kernel.get();
  if (!f || kernel.main_file < 0) return;
  std::map<int, const LinePressure *> by_line;
  for (const LinePressure &line : f->lines)
    if (line.file == kernel.main_file && line.line > 0) by_line[line.line] = &line;
  if (by_line.empty()) return;
  std::map<int, std::pair<int, int>> spills;  // line -> (spill accesses, deepest loop)
  for (const SpillSite &site : f->spills) {
    const IsaInstruction &at = f->instructions[site.instruction];
    if (!site.spill || at.file != kernel.main_file) continue;
    auto &[count, depth] = spills[at.line];
    ++count;
    depth = std::max(depth, site.loop_depth);
  }
  std::vector<HeatLine> heat;
  for (int n = by_line.begin()->first; n <= by_line.rbegin()->first; ++n) {
    auto it = by_line.find(n);
    const LinePressure *p = it == by_line.end() ? nullptr : it->second;
    auto spilled = spills.find(n);
    heat.push_back({n, sourceLine(kernel, kernel.main_file, n), p ? p->peak_vgprs : 0, p ? p->peak_sgprs : 0,
                    p ? p->peak_agprs : 0, spilled == spills.end() ? 0 : spilled->second.first,
                    spilled == spills.end() ? 0 : spilled->second.second});
  }
  entry["source"] = sourceHeat(fileName(kernel, kernel.main_file), heat);
  std::vector<MixEntry> mix;
  for (std::size_t k = 0; k < kInstrKindCount; ++k)
    if (f->mix.counts[k] > 0) mix.push_back({instrKindKey(static_cast<InstrKind>(k)), f->mix.counts[k]});
  entry["mix"] = instructionMix(mix);
}

class ExplainView : public View {
 public:
  ExplainView(const Report &report, const std::vector<KernelIsa> &kernels) : report_(report), kernels_(kernels) {}

  Document document() const override {
    Document doc;
    for (std::size_t k = 0; k < report_.kernels.size() && k < kernels_.size(); ++k)
      explainKernel(doc, report_.kernels[k], kernels_[k]);
    return doc;
  }

  // The report's sections, each arch entry with its source as a heat strip
  // and its instruction mix (docs/html.md).
  json page() const override {
    json page = reportSections(report_, [this](const KernelReport &k, json &entry) {
      for (std::size_t i = 0; i < report_.kernels.size() && i < kernels_.size(); ++i)
        if (&report_.kernels[i] == &k) addSourceAndMix(kernels_[i], entry);
    });
    page.update(documentPage(document(), "regscope explain"));
    return page;
  }

  json toJson() const override {
    json kernels = json::array();
    for (std::size_t k = 0; k < report_.kernels.size() && k < kernels_.size(); ++k)
      kernels.push_back(explainedKernelToJson(report_.kernels[k], kernels_[k]));
    return {{"schema_version", kSchemaVersion},
            {"compiler", {{"path", report_.compiler_path}, {"version", report_.compiler_version}}},
            {"kernels", kernels}};
  }

 private:
  const Report &report_;
  const std::vector<KernelIsa> &kernels_;
};

// analyze --lines: the kernel table as analyze prints it, then per kernel its hottest lines.
class KernelLinesView : public View {
 public:
  KernelLinesView(const Report &report, const std::vector<KernelIsa> &kernels, std::string title, std::size_t n,
                  std::vector<Verdict> findings)
      : report_(report),
        kernels_(kernels),
        table_(kernelTableView(report, std::move(title), std::move(findings))),
        n_(n) {}

  Document document() const override {
    Document doc = table_->document();
    for (std::size_t k = 0; k < report_.kernels.size() && k < kernels_.size(); ++k) {
      const KernelReport &kernel = report_.kernels[k];
      doc.line(Line());
      doc.line(Line(kernel.record.demangled + " [" + kernel.record.arch + "]: hottest source lines"));
      if (const IsaFunction *f = kernels_[k].get()) {
        std::vector<LinePressure> hottest = hottestLines(*f, n_);
        doc.table(linesTable(kernel, kernels_[k], hottest, hottest));
        if (!f->has_line_info) doc.notes({{"the .s has no line information: lines are those of its .loc, if any"}});
      } else {
        doc.notes({{kernels_[k].missing}});
      }
    }
    return doc;
  }

  json toJson() const override {
    json j = table_->toJson();
    if (!j.contains("kernels")) return j;
    for (std::size_t k = 0; k < j["kernels"].size() && k < kernels_.size(); ++k) {
      j["kernels"][k]["lines"] = hottestToJson(kernels_[k], n_);
      if (!kernels_[k].get()) j["kernels"][k]["lines_note"] = kernels_[k].missing;
    }
    return j;
  }

  std::optional<CiReport> ci() const override { return table_->ci(); }

 private:
  const Report &report_;
  const std::vector<KernelIsa> &kernels_;
  std::unique_ptr<View> table_;
  std::size_t n_;
};

}  // namespace

std::unique_ptr<View> explainView(const Report &report, const std::vector<KernelIsa> &kernels) {
  return std::make_unique<ExplainView>(report, kernels);
}

std::unique_ptr<View> kernelLinesView(const Report &report, const std::vector<KernelIsa> &kernels, std::string title,
                                      std::size_t lines, std::vector<Verdict> findings) {
  return std::make_unique<KernelLinesView>(report, kernels, std::move(title), lines, std::move(findings));
}

}  // namespace regscope
