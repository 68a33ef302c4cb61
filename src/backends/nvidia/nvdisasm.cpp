// joinNvdisasm: nvdisasm's own per-instruction liveness (-plr) joined with its
// line table (-g/-gi) of the same cubin; nvdisasm cannot print both at once.
//
// The formats (CUDA Binary Utilities, "nvdisasm" examples):
//   -plr (graphical, the default --life-range-mode):
//     // +-----------------+------+          header: section names, then
//     // |      GPR        | PRED |          digit rows giving each column's
//     // |    000000000011 |      |          register number, '#' the count
//     // |  # 012345678901 | # 01 |
//   .text.acos:
//     /*0020*/  S2R R0, SR_CTAID.X ;   // |  2 ^:           |      |
//     ('^' assigned, 'v' used, 'x' used and reassigned, ':' in use)
//   -plr -lrm count: counts only, "// | regs | preds | uregs | upreds |".
//   -g:  //## File "/path/k.cu", line 25
//   -gi: //## File "/p/k.cu", line 17 inlined at "/p/k.cu", line 23   (innermost first)
//        //## File "/p/k.cu", line 23                                  (outermost last)
// Functions start at ".text.NAME:". Instructions carry "/*offset*/" when the
// output prints offsets; otherwise the two are joined by position.
#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "regscope/backends/nvidia/isa.h"
#include "regscope/isa/isa.h"
#include "regscope/isa/loops.h"
#include "regscope/isa/summary.h"
#include "regscope/support/error.h"

namespace regscope {
namespace {

using isa_detail::naturalLoopDepths;
using isa_detail::peakInstruction;
using isa_detail::rankSpills;
using isa_detail::summarizeLines;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Whitespace collapsed, for comparing the two outputs' instruction texts.
std::string squeeze(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == ' ' || c == '\t') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// "0 1 2": numbers side by side in one row (a digit, spaces, a digit).
bool spacedDigits(std::string_view row) {
  const std::size_t first = row.find_first_of("0123456789");
  if (first == std::string_view::npos) return false;
  const std::size_t gap = row.find(' ', first);
  return gap != std::string_view::npos && row.find_first_of("0123456789", gap) != std::string_view::npos;
}

// Which register file a -plr section counts.
enum class Section { Gpr, Pred, Ugpr, Upred, Other };

Section sectionNamed(std::string_view name) {
  name = trim(name);
  if (name == "GPR" || name == "regs") return Section::Gpr;
  if (name == "PRED" || name == "preds") return Section::Pred;
  if (name == "UGPR" || name == "UR" || name == "uregs") return Section::Ugpr;
  if (name == "UPRED" || name == "UP" || name == "upreds") return Section::Upred;
  return Section::Other;
}

struct SassInstruction {
  long address = -1;
  std::string text;
  int gprs = 0, ugprs = 0;
  std::string gpr_columns;  // graphical mode: one char per GPR column
  std::string leaf_file, outer_file;
  int leaf_line = 0, outer_line = 0;
  std::vector<std::string> labels;  // ".L_x_3": the labels printed just before it
};

struct SassFunction {
  std::string name;
  std::vector<SassInstruction> instructions;
  std::vector<int> gpr_numbers;  // graphical mode: register number of each column
};

// The part of a line before "//", and the part after it.
void splitComment(std::string_view line, std::string_view &code, std::string_view &comment) {
  std::size_t slash = line.find("//");
  code = trim(line.substr(0, slash));
  comment = slash == std::string_view::npos ? std::string_view() : line.substr(slash + 2);
}

std::vector<std::string_view> bars(std::string_view comment) {
  std::vector<std::string_view> fields;
  std::size_t first = comment.find('|');
  if (first == std::string_view::npos) return fields;
  comment.remove_prefix(first + 1);
  for (std::size_t next; (next = comment.find('|')) != std::string_view::npos; comment.remove_prefix(next + 1))
    fields.push_back(comment.substr(0, next));
  return fields;
}

struct Reader {
  std::vector<SassFunction> functions;
  std::vector<Section> sections{Section::Gpr, Section::Pred, Section::Ugpr, Section::Upred};
  std::vector<std::string> gpr_digit_rows;  // header rows of the GPR section
  std::size_t gpr_first_column = std::string::npos;

  SassFunction &current() {
    if (functions.empty()) functions.push_back(SassFunction{"(no function)", {}, {}});
    return functions.back();
  }

  // A header row of -plr: section names or register-number digits.
  void header(const std::vector<std::string_view> &fields) {
    bool names = false;
    for (std::string_view f : fields) names = names || sectionNamed(f) != Section::Other;
    if (names) {
      sections.clear();
      for (std::string_view f : fields) sections.push_back(sectionNamed(f));
      gpr_digit_rows.clear();
      gpr_first_column = std::string::npos;
      return;
    }
    auto gpr = std::find(sections.begin(), sections.end(), Section::Gpr);
    if (gpr == sections.end() || static_cast<std::size_t>(gpr - sections.begin()) >= fields.size()) return;
    std::string_view field = fields[gpr - sections.begin()];
    std::size_t hash = field.find('#');
    if (hash != std::string_view::npos) {
      // "  # 0123..": the ones row; the columns start after "# ".
      std::size_t first = field.find_first_of("0123456789", hash);
      if (first != std::string_view::npos) gpr_first_column = first;
    }
    if (field.find_first_of("0123456789") != std::string_view::npos) gpr_digit_rows.emplace_back(field);
  }

  // Each GPR column's register number. nvdisasm 13 prints the numbers in one
  // row, "# 0 1 2 ... 9 10 11", a register's column under its number's last
  // digit; the CUDA Binary Utilities' examples print them vertically, a
  // digit row per decimal place ("000000000011" over "012345678901").
  std::vector<int> columnNumbers() const {
    std::vector<int> numbers;
    if (gpr_first_column == std::string::npos) return numbers;
    std::size_t width = 0;
    for (const std::string &row : gpr_digit_rows) width = std::max(width, row.size());
    if (gpr_digit_rows.size() == 1 && spacedDigits(gpr_digit_rows.front())) {
      const std::string &row = gpr_digit_rows.front();
      numbers.assign(width - gpr_first_column, -1);
      for (std::size_t c = gpr_first_column; c < row.size();) {
        if (!isDigit(row[c])) {
          ++c;
          continue;
        }
        int n = 0;
        for (; c < row.size() && isDigit(row[c]); ++c) n = n * 10 + (row[c] - '0');
        numbers[c - 1 - gpr_first_column] = n;
      }
      return numbers;
    }
    for (std::size_t c = gpr_first_column; c < width; ++c) {
      int n = 0;
      bool any = false;
      for (const std::string &row : gpr_digit_rows) {
        char d = c < row.size() ? row[c] : ' ';
        if (isDigit(d)) {
          n = n * 10 + (d - '0');
          any = true;
        } else if (d == ' ') {
          n = n * 10;
        }
      }
      numbers.push_back(any ? n : -1);
    }
    return numbers;
  }

  void counts(SassInstruction &inst, const std::vector<std::string_view> &fields) {
    for (std::size_t i = 0; i < fields.size() && i < sections.size(); ++i) {
      std::string_view f = fields[i];
      std::size_t start = f.find_first_not_of(' ');
      int n = 0;
      std::size_t p = start;
      while (p != std::string_view::npos && p < f.size() && isDigit(f[p])) n = n * 10 + (f[p++] - '0');
      if (sections[i] == Section::Gpr) {
        inst.gprs = n;
        if (gpr_first_column != std::string::npos && gpr_first_column < f.size()) {
          inst.gpr_columns = std::string(f.substr(gpr_first_column));
          // Without a printed count, the count is the columns in use.
          if (p == start)
            inst.gprs = static_cast<int>(
                std::count_if(inst.gpr_columns.begin(), inst.gpr_columns.end(), [](char c) { return c != ' '; }));
        }
      } else if (sections[i] == Section::Ugpr) {
        inst.ugprs = n;
      }
    }
  }

  void line(std::string_view raw, std::vector<std::pair<std::string, int>> &pending_locations) {
    std::string_view code, comment;
    splitComment(raw, code, comment);
    if (code.empty()) {
      std::string_view c = trim(comment);
      if (c.substr(0, 2) == "##") {
        parseLocation(c.substr(2), pending_locations);
        return;
      }
      std::vector<std::string_view> fields = bars(comment);
      if (!fields.empty()) header(fields);
      return;
    }
    if (code.size() > 6 && code.substr(0, 6) == ".text." && code.back() == ':') {
      functions.push_back(SassFunction{std::string(code.substr(6, code.size() - 7)), {}, {}});
      pending_locations.clear();
      last_location_.clear();
      pending_labels_.clear();
      return;
    }
    if (code.size() > 3 && code.substr(0, 2) == ".L" && code.back() == ':') {  // a branch target
      pending_labels_.emplace_back(code.substr(0, code.size() - 1));
      return;
    }
    if (code.front() == '.' || code.back() == ':') return;
    std::size_t semicolon = code.find(';');
    if (semicolon == std::string_view::npos) return;
    SassInstruction inst;
    std::string_view body = trim(code.substr(0, semicolon));
    if (body.substr(0, 2) == "/*") {
      std::size_t close = body.find("*/");
      if (close == std::string_view::npos) return;
      inst.address = std::stol(std::string(body.substr(2, close - 2)), nullptr, 16);
      body = trim(body.substr(close + 2));
    }
    if (body.empty()) return;
    inst.text = squeeze(body);
    inst.labels = std::move(pending_labels_);
    pending_labels_.clear();
    counts(inst, bars(comment));
    if (!pending_locations.empty()) {
      last_location_ = pending_locations;
      pending_locations.clear();
    }
    if (!last_location_.empty()) {
      // The innermost row in the function's own file (the outermost row's),
      // as for AMD (src/isa/inline_sites.h).
      inst.leaf_file = last_location_.front().first;
      inst.leaf_line = last_location_.front().second;
      std::size_t own = 0;
      while (own + 1 < last_location_.size() && last_location_[own].first != last_location_.back().first) ++own;
      inst.outer_file = last_location_[own].first;
      inst.outer_line = last_location_[own].second;
    }
    SassFunction &f = current();
    if (f.instructions.empty()) f.gpr_numbers = columnNumbers();
    f.instructions.push_back(std::move(inst));
  }

  // ' File "/p/k.cu", line 17 inlined at "/p/k.cu", line 23': the innermost
  // frame of this row is appended; rows come innermost first.
  void parseLocation(std::string_view s, std::vector<std::pair<std::string, int>> &pending) {
    s = trim(s);
    if (s.substr(0, 4) != "File") return;
    std::size_t open = s.find('"');
    std::size_t close = open == std::string_view::npos ? open : s.find('"', open + 1);
    if (close == std::string_view::npos) return;
    std::string file(s.substr(open + 1, close - open - 1));
    std::size_t at = s.find("line", close);
    if (at == std::string_view::npos) return;
    at += 4;
    while (at < s.size() && s[at] == ' ') ++at;
    int line = 0;
    while (at < s.size() && isDigit(s[at])) line = line * 10 + (s[at++] - '0');
    pending.push_back({file, line});
  }

  std::vector<std::pair<std::string, int>> last_location_;
  std::vector<std::string> pending_labels_;
};

// ---- control flow and spill sites (docs/explain.md, "Spill sites") ----

// What an instruction does to control flow, read from its SASS text:
// "@!P0 BRA `(.L_x_3)", "BRA.U !UP0, `(.L_x_1)", "BRA.DIV UR4, `(.L_x_5)", "EXIT",
// "@P0 EXIT", "RET.REL.NODEC R20 0x0", "BRX R4 -0x230", "@P0 CALL.REL.NOINC `(.L_x_11)".
struct SassFlow {
  enum Kind { Next, Branch, ConditionalBranch, Call, End, Indirect } kind = Next;
  std::string target;  // the label of a branch or call
};

// The label of "`(.L_x_3)" in an instruction's text; empty without one.
std::string branchTarget(std::string_view text) {
  const std::size_t open = text.find("`(");
  const std::size_t close = open == std::string_view::npos ? open : text.find(')', open);
  return close == std::string_view::npos ? std::string() : std::string(text.substr(open + 2, close - open - 2));
}

// The opcode ("STL.64", "BRA") of an instruction's text, past its predicate.
std::string_view opcodeOf(std::string_view text, bool &predicated) {
  predicated = !text.empty() && text.front() == '@';
  if (predicated) {
    const std::size_t space = text.find(' ');
    text = space == std::string_view::npos ? std::string_view() : trim(text.substr(space + 1));
  }
  return text.substr(0, text.find(' '));
}

std::string_view baseOpcode(std::string_view opcode) { return opcode.substr(0, opcode.find('.')); }

SassFlow flowOf(std::string_view text) {
  bool predicated = false;
  const std::string_view opcode = opcodeOf(text, predicated);
  const std::string_view base = baseOpcode(opcode);
  SassFlow flow;
  if (base == "BRA" || base == "JMP") {
    flow.target = branchTarget(text);
    if (flow.target.empty()) {
      flow.kind = SassFlow::Indirect;
      return flow;
    }
    // A predicate, or an operand before the target (BRA.U's uniform predicate,
    // BRA.DIV's mask): the branch may not be taken.
    const bool operand_before = text.substr(0, text.find("`(")).find(',') != std::string_view::npos;
    flow.kind = predicated || operand_before ? SassFlow::ConditionalBranch : SassFlow::Branch;
  } else if (base == "CALL") {
    // ptxas leaves loops through "CALL.REL.NOINC `(.L_x_11)" to a label of the
    // function (no return address: a branch); a call to another function returns.
    flow.target = branchTarget(text);
    flow.kind = SassFlow::Call;
  } else if (base == "BRX" || base == "JMX") {
    flow.kind = SassFlow::Indirect;
  } else if (base == "EXIT" || base == "RET" || base == "KILL") {
    flow.kind = predicated ? SassFlow::Next : SassFlow::End;
  }
  return flow;
}

// Each instruction's loop depth in the function's CFG: blocks start at the
// first instruction, at a label a branch targets and after a branch or an
// exit. `loops_known` is false when a branch's targets are not all known.
std::vector<int> sassLoopDepths(const SassFunction &f, bool &loops_known, std::vector<std::string> &notes) {
  const int n = static_cast<int>(f.instructions.size());
  std::vector<SassFlow> flows;
  flows.reserve(n);
  std::map<std::string, int> label_at;
  for (int i = 0; i < n; ++i) {
    flows.push_back(flowOf(f.instructions[i].text));
    for (const std::string &label : f.instructions[i].labels) label_at[label] = i;
  }
  std::vector<bool> leader(n, false);
  if (n > 0) leader[0] = true;
  for (int i = 0; i < n; ++i) {
    const SassFlow &flow = flows[i];
    const bool internal = label_at.count(flow.target) > 0;
    if (flow.kind == SassFlow::Call && !internal) continue;  // returns: no edge
    if (flow.kind != SassFlow::Next && i + 1 < n) leader[i + 1] = true;
    if (internal) leader[label_at[flow.target]] = true;
  }
  std::vector<int> block_of(n, 0), first_of;
  for (int i = 0; i < n; ++i) {
    if (leader[i]) first_of.push_back(i);
    block_of[i] = static_cast<int>(first_of.size()) - 1;
  }
  const int blocks = static_cast<int>(first_of.size());
  std::vector<std::vector<int>> successors(blocks);
  loops_known = true;
  for (int b = 0; b < blocks; ++b) {
    const int last = (b + 1 < blocks ? first_of[b + 1] : n) - 1;
    const SassFlow &flow = flows[last];
    bool falls_through =
        flow.kind == SassFlow::Next || flow.kind == SassFlow::ConditionalBranch || flow.kind == SassFlow::Call;
    if (flow.kind == SassFlow::Call) {
      if (label_at.count(flow.target)) successors[b].push_back(block_of[label_at[flow.target]]);
    } else if (flow.kind == SassFlow::Branch || flow.kind == SassFlow::ConditionalBranch) {
      auto it = label_at.find(flow.target);
      if (it != label_at.end()) {
        successors[b].push_back(block_of[it->second]);
      } else {
        loops_known = false;
        notes.push_back("a branch at offset " + std::to_string(f.instructions[last].address) + " goes to " +
                        flow.target + ", which is not in the function: loop depths may be too low");
      }
    } else if (flow.kind == SassFlow::Indirect) {
      loops_known = false;
      notes.push_back("an indirect branch (" + f.instructions[last].text + ") has targets nvdisasm does not name: " +
                      "loop depths may be too low, and the local-memory accesses in loops are not counted");
    }
    if (falls_through && last + 1 < n) successors[b].push_back(b + 1);
  }
  const std::vector<int> block_depth = naturalLoopDepths(successors);
  std::vector<int> depth(n, 0);
  for (int i = 0; i < n; ++i) depth[i] = block_depth[block_of[i]];
  return depth;
}

// The bytes one thread moves by a local-memory access: its width suffix
// ("STL.64", "LDL.U8", "LDL.LU.128"), 4 without one.
int accessBytes(std::string_view opcode) {
  int bytes = 4;
  for (std::size_t dot = opcode.find('.'); dot != std::string_view::npos; dot = opcode.find('.', dot + 1)) {
    const std::string_view part = opcode.substr(dot + 1, opcode.find('.', dot + 1) - dot - 1);
    if (part == "64") bytes = 8;
    if (part == "128") bytes = 16;
    if (part == "U8" || part == "S8") bytes = 1;
    if (part == "U16" || part == "S16") bytes = 2;
  }
  return bytes;
}

// STL/LDL: local memory, where ptxas puts spilled registers and the arrays it
// cannot keep in registers; SASS does not tell the two apart.
void addSpillSites(IsaFunction &f, const SassFunction &sass) {
  bool loops_known = true;
  const std::vector<int> depth = sassLoopDepths(sass, loops_known, f.notes);
  for (std::size_t i = 0; i < f.instructions.size() && i < depth.size(); ++i) {
    f.instructions[i].loop_depth = depth[i];
    bool predicated = false;
    const std::string_view opcode = opcodeOf(sass.instructions[i].text, predicated);
    const std::string_view base = baseOpcode(opcode);
    if (base != "STL" && base != "LDL") continue;
    SpillSite site;
    site.instruction = static_cast<int>(i);
    site.store = base == "STL";
    site.medium = SpillMedium::Local;
    site.bytes = accessBytes(opcode);
    f.spills.push_back(site);
  }
  f.spill_totals.loops_known = loops_known;
  rankSpills(f);
}

std::vector<SassFunction> read(std::string_view text) {
  Reader reader;
  std::vector<std::pair<std::string, int>> pending;
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    reader.line(text.substr(0, end), pending);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
  reader.functions.erase(std::remove_if(reader.functions.begin(), reader.functions.end(),
                                        [](const SassFunction &f) { return f.instructions.empty(); }),
                         reader.functions.end());
  return reader.functions;
}

int fileIndex(IsaReport &report, std::map<std::string, int> &files, const std::string &path) {
  if (path.empty()) return -1;
  auto [it, added] = files.try_emplace(path, static_cast<int>(report.files.size()));
  if (added) report.files.push_back(SourceFile{"", path});
  return it->second;
}

// Graphical mode: the registers live across the peak, by the line of the
// nearest earlier instruction that assigned them (a walk back in address
// order, not over the CFG).
void liveAcross(IsaFunction &f, const SassFunction &sass, const std::vector<IsaInstruction> &insts) {
  const int at = f.peak.instruction;
  const std::string &columns = sass.instructions[at].gpr_columns;
  std::map<std::pair<int, int>, LiveAcross> by_line;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c] == ' ') continue;
    if (c < sass.gpr_numbers.size() && sass.gpr_numbers[c] >= 0)
      f.peak.live_registers.push_back("R" + std::to_string(sass.gpr_numbers[c]));
    if (columns[c] != ':' && columns[c] != 'v') continue;  // '^', 'x': written here
    int def = -1;
    for (int i = at - 1; i >= 0 && def < 0; --i) {
      const std::string &cols = sass.instructions[i].gpr_columns;
      if (c < cols.size() && (cols[c] == '^' || cols[c] == 'x')) def = i;
    }
    std::pair<int, int> key = def < 0 ? std::make_pair(-1, 0) : std::make_pair(insts[def].file, insts[def].line);
    LiveAcross &a = by_line[key];
    a.file = key.first;
    a.line = key.second;
    ++a.vgprs;
  }
  for (auto &entry : by_line) f.peak.live_across.push_back(entry.second);
  std::stable_sort(f.peak.live_across.begin(), f.peak.live_across.end(),
                   [](const LiveAcross &a, const LiveAcross &b) { return a.vgprs > b.vgprs; });
}

}  // namespace

IsaReport joinNvdisasm(std::string_view life_ranges, std::string_view line_info) {
  std::vector<SassFunction> live = read(life_ranges);
  std::vector<SassFunction> lines = read(line_info);
  if (live.empty()) throw Error("no SASS instructions in the nvdisasm -plr output");
  std::map<std::string, const SassFunction *> lines_by_name;
  for (const SassFunction &f : lines) lines_by_name[f.name] = &f;

  IsaReport report;
  std::map<std::string, int> files;
  for (const SassFunction &sass : live) {
    IsaFunction f;
    f.name = sass.name;
    f.is_kernel = true;
    auto it = lines_by_name.find(sass.name);
    const SassFunction *located = it == lines_by_name.end() ? nullptr : it->second;
    std::map<long, const SassInstruction *> by_address;
    if (located)
      for (const SassInstruction &i : located->instructions)
        if (i.address >= 0) by_address[i.address] = &i;
    if (!located) f.notes.push_back("no line table for this function in the nvdisasm -g output");
    for (std::size_t k = 0; k < sass.instructions.size(); ++k) {
      const SassInstruction &s = sass.instructions[k];
      const SassInstruction *loc = nullptr;
      if (located && s.address >= 0) {
        auto a = by_address.find(s.address);
        if (a != by_address.end()) loc = a->second;
      } else if (located && k < located->instructions.size()) {
        loc = &located->instructions[k];
      }
      if (loc && loc->text != s.text)
        throw Error("nvdisasm -plr and -g disagree on instruction " + std::to_string(k) + " of " + sass.name + ": '" +
                    s.text + "' vs '" + loc->text + "'");
      IsaInstruction inst;
      inst.text = s.text;
      inst.address = s.address >= 0 ? s.address : (loc ? loc->address : -1);
      inst.live_vgprs = s.gprs;
      inst.live_sgprs = s.ugprs;
      if (loc) {
        inst.file = fileIndex(report, files, loc->outer_file);
        inst.line = loc->outer_line;
        inst.leaf_file = fileIndex(report, files, loc->leaf_file);
        inst.leaf_line = loc->leaf_line;
        f.has_line_info = f.has_line_info || inst.leaf_file >= 0;
      }
      f.instructions.push_back(std::move(inst));
    }
    if (located && located->instructions.size() != sass.instructions.size() && by_address.empty())
      throw Error("nvdisasm -plr and -g list different instruction counts for " + sass.name);
    addSpillSites(f, sass);
    summarizeLines(f);
    f.peak.instruction = peakInstruction(f);
    if (f.peak.instruction >= 0) {
      f.peak.vgprs = f.instructions[f.peak.instruction].live_vgprs;
      f.peak.sgprs = f.instructions[f.peak.instruction].live_sgprs;
      if (!sass.instructions[f.peak.instruction].gpr_columns.empty()) liveAcross(f, sass, f.instructions);
    }
    report.functions.push_back(std::move(f));
  }
  return report;
}

IsaReport readNvdisasmListing(std::string_view listing) {
  IsaReport report;
  std::map<std::string, int> files;
  for (const SassFunction &sass : read(listing)) {
    IsaFunction f;
    f.name = sass.name;
    f.is_kernel = true;
    for (const SassInstruction &s : sass.instructions) {
      IsaInstruction inst;
      inst.text = s.text;
      inst.address = s.address;
      inst.file = fileIndex(report, files, s.outer_file);
      inst.line = s.outer_line;
      inst.leaf_file = fileIndex(report, files, s.leaf_file);
      inst.leaf_line = s.leaf_line;
      f.has_line_info = f.has_line_info || inst.leaf_file >= 0;
      f.instructions.push_back(std::move(inst));
    }
    f.has_liveness = false;
    addSpillSites(f, sass);
    report.functions.push_back(std::move(f));
  }
  return report;
}

IsaReport readCubinListing(const CubinListing &listing) {
  if (listing.life_ranges_error.empty()) return joinNvdisasm(listing.life_ranges, listing.line_info);
  IsaReport report = readNvdisasmListing(listing.line_info);
  report.notes.push_back(listing.life_ranges_error +
                         ": no per-line registers; the lines and local-memory accesses are nvdisasm -gi's");
  return report;
}

}  // namespace regscope
