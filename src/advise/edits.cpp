// Edits as text: applying Replacements (clang's Rewriter), combining several
// candidates' edits, and the unified diff the user applies.
#include <algorithm>
#include <string_view>

#include "regscope/advise/advise.h"
#include "regscope/support/error.h"

namespace regscope {
namespace {

// Lines with their '\n' (the last may lack one), so that a missing final
// newline is a difference like any other.
std::vector<std::string_view> splitLines(const std::string &text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    lines.emplace_back(text.data() + start, end - start);
    start = end;
  }
  return lines;
}

enum class Op : char { Same = ' ', Del = '-', Add = '+' };
struct Step {
  Op op;
  int a;  // index in the old lines (Same, Del)
  int b;  // index in the new lines (Same, Add)
};

// Myers' O((N+M)D) shortest edit script over the lines between the common
// prefix and suffix (edits are local, so what is left is small).
std::vector<Step> editScript(const std::vector<std::string_view> &a, const std::vector<std::string_view> &b) {
  int prefix = 0;
  while (prefix < static_cast<int>(std::min(a.size(), b.size())) && a[prefix] == b[prefix]) ++prefix;
  int suffix = 0;
  while (suffix < static_cast<int>(std::min(a.size(), b.size())) - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;
  const int n = static_cast<int>(a.size()) - prefix - suffix;
  const int m = static_cast<int>(b.size()) - prefix - suffix;
  auto A = [&](int i) { return a[prefix + i]; };
  auto B = [&](int j) { return b[prefix + j]; };

  const int max = n + m;
  const int off = max + 1;
  std::vector<int> v(2 * max + 3, 0);
  std::vector<std::vector<int>> trace;
  int found_d = 0;
  for (int d = 0; d <= max; ++d) {
    trace.push_back(v);
    bool done = false;
    for (int k = -d; k <= d && !done; k += 2) {
      int x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
      int y = x - k;
      while (x < n && y < m && A(x) == B(y)) ++x, ++y;
      v[off + k] = x;
      done = x >= n && y >= m;
    }
    if (done) {
      found_d = d;
      break;
    }
  }
  std::vector<Step> middle;
  int x = n, y = m;
  for (int d = found_d; d >= 0; --d) {
    const std::vector<int> &vd = trace[d];
    const int k = x - y;
    const int prev_k = (k == -d || (k != d && vd[off + k - 1] < vd[off + k + 1])) ? k + 1 : k - 1;
    const int prev_x = d == 0 ? 0 : vd[off + prev_k];
    const int prev_y = d == 0 ? 0 : prev_x - prev_k;
    while (x > prev_x && y > prev_y) middle.push_back({Op::Same, --x, --y});
    if (d > 0) {
      if (x == prev_x)
        middle.push_back({Op::Add, -1, --y});
      else
        middle.push_back({Op::Del, --x, -1});
    }
  }
  std::reverse(middle.begin(), middle.end());
  std::vector<Step> steps;
  for (int i = 0; i < prefix; ++i) steps.push_back({Op::Same, i, i});
  for (Step s : middle) steps.push_back({s.op, s.a < 0 ? -1 : s.a + prefix, s.b < 0 ? -1 : s.b + prefix});
  for (int i = 0; i < suffix; ++i)
    steps.push_back({Op::Same, static_cast<int>(a.size()) - suffix + i, static_cast<int>(b.size()) - suffix + i});
  return steps;
}

void emitLine(std::string &out, char mark, std::string_view line) {
  out += mark;
  if (!line.empty() && line.back() == '\n') {
    out.append(line.data(), line.size());
  } else {
    out.append(line.data(), line.size());
    out += "\n\\ No newline at end of file\n";
  }
}

std::string range(int start, int count) {
  // diff -u: a hunk with no lines on one side names the line before it.
  return std::to_string(count == 0 ? start : start + 1) + "," + std::to_string(count);
}

}  // namespace

std::string applyEdit(const std::string &text, const clang::tooling::Replacements &edit) {
  llvm::Expected<std::string> applied = clang::tooling::applyAllReplacements(text, edit);
  if (!applied) throw Error("advise: an edit does not apply: " + llvm::toString(applied.takeError()));
  return *applied;
}

std::string unifiedDiff(const std::string &label, const std::string &before, const std::string &after) {
  if (before == after) return "";
  const std::vector<std::string_view> a = splitLines(before), b = splitLines(after);
  const std::vector<Step> steps = editScript(a, b);
  constexpr int kContext = 3;
  // An absolute label loses its leading '/': git apply -p1 strips a/ and b/.
  const std::string path = label.substr(std::min(label.find_first_not_of('/'), label.size()));
  std::string out = "--- a/" + path + "\n+++ b/" + path + "\n";
  std::size_t i = 0;
  while (i < steps.size()) {
    if (steps[i].op == Op::Same) {
      ++i;
      continue;
    }
    // A hunk: context before, then changes until a run of more than
    // 2 * context unchanged lines (or the end), then context after.
    std::size_t begin = i >= kContext ? i - kContext : 0;
    std::size_t end = i;
    while (end < steps.size()) {
      if (steps[end].op != Op::Same) {
        ++end;
        continue;
      }
      std::size_t run = end;
      while (run < steps.size() && steps[run].op == Op::Same) ++run;
      if (run == steps.size() || run - end > 2 * kContext) {
        end = std::min(run, end + kContext);
        break;
      }
      end = run;
    }
    int a_start = -1, b_start = -1, a_count = 0, b_count = 0;
    for (std::size_t s = begin; s < end; ++s) {
      if (steps[s].op != Op::Add) {
        if (a_start < 0) a_start = steps[s].a;
        ++a_count;
      }
      if (steps[s].op != Op::Del) {
        if (b_start < 0) b_start = steps[s].b;
        ++b_count;
      }
    }
    // A side with no lines starts where the other side's position is.
    auto position = [&](bool old_side) {
      int count = 0;
      for (std::size_t s = 0; s < begin; ++s) count += old_side ? steps[s].op != Op::Add : steps[s].op != Op::Del;
      return count;
    };
    if (a_start < 0) a_start = position(true);
    if (b_start < 0) b_start = position(false);
    out += "@@ -" + range(a_start, a_count) + " +" + range(b_start, b_count) + " @@\n";
    for (std::size_t s = begin; s < end; ++s) {
      const Step &st = steps[s];
      emitLine(out, static_cast<char>(st.op), st.op == Op::Add ? b[st.b] : a[st.a]);
    }
    i = end;
  }
  return out;
}

CombinedEdit combineEdits(const std::string &original, const std::vector<const Candidate *> &candidates) {
  CombinedEdit out;
  std::vector<std::pair<clang::tooling::Replacement, std::string>> taken;  // each replacement's candidate
  auto overlaps = [](const clang::tooling::Replacement &x, const clang::tooling::Replacement &y) {
    const unsigned x_end = x.getOffset() + x.getLength(), y_end = y.getOffset() + y.getLength();
    if (x.getLength() == 0 && y.getLength() == 0) return x.getOffset() == y.getOffset();
    return x.getOffset() < y_end && y.getOffset() < x_end;
  };
  for (const Candidate *c : candidates) {
    if (c->hint_only || c->edit.empty()) continue;
    clang::tooling::Replacements merged = out.edit;
    std::string collides;
    for (const clang::tooling::Replacement &r : c->edit) {
      const bool present = std::any_of(taken.begin(), taken.end(), [&](const auto &t) { return t.first == r; });
      if (present) continue;  // the same edit from another candidate (one __restrict__ of all of them)
      if (llvm::Error err = merged.add(r)) {
        llvm::consumeError(std::move(err));
        for (const auto &t : taken)
          if (overlaps(t.first, r)) collides = t.second;
        if (collides.empty()) collides = "an earlier edit";
        break;
      }
    }
    if (!collides.empty()) {
      out.conflicts.emplace_back(c->id, collides);
      continue;
    }
    for (const clang::tooling::Replacement &r : c->edit)
      if (std::none_of(taken.begin(), taken.end(), [&](const auto &t) { return t.first == r; }))
        taken.emplace_back(r, c->id);
    out.edit = std::move(merged);
    out.applied.push_back(c->id);
  }
  out.edited_source = applyEdit(original, out.edit);
  return out;
}

}  // namespace regscope
