// The phrases every view and every backend's description share: how a kernel
// name, a byte count, a location and a next step read.
#include "regscope/describe/phrases.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace regscope {

// "free 6 VGPRs + free 2 SGPRs -> 5 waves/SIMD": what must go for the next step.
std::string stepText(const std::vector<std::string> &frees, int target, const char *unit) {
  std::string text;
  for (const std::string &f : frees) text += (text.empty() ? "" : " + ") + f;
  return text + " -> " + std::to_string(target) + " " + unit;
}

namespace {

// A demangled signature in parts: HEAD<ARGS...>(PARAMS). `params` holds the
// parenthesised list with what follows it (" const"); no template arguments
// when `head` does not end in one.
struct SignatureParts {
  std::string head;
  std::vector<std::string> args;
  bool templated = false;
  std::string params;
};

SignatureParts splitSignature(const std::string &text) {
  SignatureParts parts;
  std::string prefix = text;
  // The parameter list: the last top-level "(...)".
  const std::size_t close = text.rfind(')');
  if (close != std::string::npos) {
    int depth = 0;
    for (std::size_t i = close + 1; i-- > 0;) {
      if (text[i] == ')') ++depth;
      if (text[i] == '(' && --depth == 0) {
        if (i > 0) {
          prefix = text.substr(0, i);
          parts.params = text.substr(i);
        }
        break;
      }
    }
  }
  // The template arguments: the "<...>" that ends the prefix.
  if (!prefix.empty() && prefix.back() == '>') {
    int depth = 0;
    for (std::size_t i = prefix.size(); i-- > 0;) {
      const char c = prefix[i];
      if (c == '>' || c == ')' || c == ']') ++depth;
      if (c == '<' || c == '(' || c == '[') --depth;
      if (c == '<' && depth == 0) {
        parts.head = prefix.substr(0, i);
        parts.templated = true;
        const std::string list = prefix.substr(i + 1, prefix.size() - i - 2);
        int d = 0;
        std::string arg;
        for (char ch : list) {
          if (ch == '<' || ch == '(' || ch == '[') ++d;
          if (ch == '>' || ch == ')' || ch == ']') --d;
          if (ch == ',' && d == 0) {
            parts.args.push_back(arg);
            arg.clear();
            continue;
          }
          if (!(arg.empty() && ch == ' ')) arg += ch;
        }
        parts.args.push_back(arg);
        return parts;
      }
    }
  }
  parts.head = prefix;
  return parts;
}

// HEAD<args kept, runs of the others as "...">(...): `keep[i]` says whether argument i stays.
std::string withArgs(const SignatureParts &parts, const std::vector<bool> &keep, bool params) {
  std::string text = parts.head;
  if (parts.templated) {
    std::string list;
    bool dots = false;
    for (std::size_t i = 0; i < parts.args.size(); ++i) {
      if (keep[i]) {
        list += (list.empty() ? "" : ", ") + parts.args[i];
        dots = false;
      } else if (!dots) {
        list += (list.empty() ? "" : ", ") + std::string("...");
        dots = true;
      }
    }
    text += "<" + list + ">";
  }
  return text + (parts.params.empty() ? "" : params ? parts.params : "(...)");
}

// The forms a name may take, longest first: itself; its parameters elided;
// then its template arguments shortened, keeping `distinct` (the ones in
// which its siblings differ) and, with no siblings, the first and the last.
std::vector<std::string> shortForms(const std::string &name, const std::vector<bool> &distinct) {
  std::vector<std::string> forms{name};
  // A kernel returns void: the demangler's "void " before a template's name says nothing.
  SignatureParts parts = splitSignature(name.rfind("void ", 0) == 0 ? name.substr(5) : name);
  if (parts.params.empty() && !parts.templated) return forms;
  const std::vector<bool> all(parts.args.size(), true);
  forms.push_back(withArgs(parts, all, false));
  if (parts.args.size() < 2) return forms;
  std::vector<bool> keep = distinct;
  keep.resize(parts.args.size(), false);
  if (std::find(keep.begin(), keep.end(), true) == keep.end()) keep.front() = keep.back() = true;
  forms.push_back(withArgs(parts, keep, false));
  // Narrower still: the demangler's casts of enum values go ("(ggml_type)2" -> "2"); the value stays.
  SignatureParts bare = parts;
  bool cast = false;
  for (std::string &arg : bare.args) {
    const std::size_t close = arg.find(')');
    if (!arg.empty() && arg.front() == '(' && close != std::string::npos && close + 1 < arg.size()) {
      arg = arg.substr(close + 1);
      cast = true;
    }
  }
  if (cast) forms.push_back(withArgs(bare, keep, false));
  return forms;
}

// A form still too wide: its name (before the template arguments) cut in the
// middle, so that the arguments that tell siblings apart stay; else the whole
// form cut in the middle.
std::string cutName(const std::string &form, std::size_t width);

// "start...end" of `width` characters: the last resort for a form still too wide.
std::string cutMiddle(const std::string &text, std::size_t width) {
  if (text.size() <= width || width < 8) return text.size() <= width ? text : text.substr(0, width);
  const std::size_t tail = (width - 3) / 3;
  return text.substr(0, width - 3 - tail) + "..." + text.substr(text.size() - tail);
}

// `width` characters of `text` that keep position `at`, where it differs
// from a name it would otherwise read as: its start when `at` lies there,
// else "..." and the part around `at`.
std::string cutAround(const std::string &text, std::size_t width, std::size_t at) {
  if (text.size() <= width || width < 16) return cutMiddle(text, width);
  if (at + 8 <= width - 3) return text.substr(0, width - 3) + "...";
  const std::size_t keep = width - 6;
  const std::size_t start = std::min(at > keep / 2 ? at - keep / 2 : 0, text.size() - keep);
  return "..." + text.substr(start, keep) + (start + keep < text.size() ? "..." : "");
}

std::string cutName(const std::string &form, std::size_t width) {
  const SignatureParts parts = splitSignature(form);
  if (parts.templated) {
    const std::size_t rest = form.size() - parts.head.size();
    if (rest + 8 <= width) return cutMiddle(parts.head, width - rest) + form.substr(parts.head.size());
  }
  return cutMiddle(form, width);
}

// shortenNames over names that are each there once.
std::vector<std::string> shortenDistinctNames(const std::vector<std::string> &names, std::size_t width,
                                              bool *numbered) {
  std::vector<std::string> out(names);
  // Siblings: instantiations of the same template with as many arguments,
  // grouped by "head<N args>" so that each name meets its siblings once
  // (a table of 100,000 kernels must not compare every pair).
  std::vector<SignatureParts> parts;
  for (const std::string &name : names) parts.push_back(splitSignature(name));
  std::vector<std::string> family;  // "head<N": a name's siblings share it
  for (const SignatureParts &p : parts) family.push_back(p.head + '<' + std::to_string(p.args.size()));
  struct Family {
    std::size_t members = 0;
    std::vector<std::map<std::string, std::size_t>> values;  // per argument: value -> members with it
  };
  std::unordered_map<std::string, Family> families;
  for (std::size_t j = 0; j < names.size(); ++j) {
    if (!parts[j].templated) continue;
    Family &f = families[family[j]];
    ++f.members;
    f.values.resize(parts[j].args.size());
    for (std::size_t a = 0; a < parts[j].args.size(); ++a) ++f.values[a][parts[j].args[a]];
  }
  std::vector<std::vector<std::string>> forms(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    // An argument tells i apart when a sibling has another value there.
    std::vector<bool> distinct(parts[i].args.size(), false);
    if (auto f = families.find(family[i]); f != families.end())
      for (std::size_t a = 0; a < distinct.size(); ++a) {
        const auto same = f->second.values[a].find(parts[i].args[a]);
        distinct[a] = f->second.members > (same == f->second.values[a].end() ? 0 : same->second);
      }
    forms[i] = shortForms(names[i], distinct);
  }
  // Each name: its shortest form that fits (else the shortest, cut in the middle).
  std::vector<std::size_t> pick(names.size(), 0);
  for (std::size_t i = 0; i < names.size(); ++i) {
    pick[i] = forms[i].size() - 1;
    for (std::size_t f = 0; f < forms[i].size(); ++f)
      if (forms[i][f].size() <= width) {
        pick[i] = f;
        // the least shortening that fits: stop at the first (longest) form that fits
        break;
      }
  }
  // Siblings read alike: each takes the shortest form any of them needs.
  std::unordered_map<std::string, std::size_t> alike;  // family and its number of forms -> the pick
  auto alikeKey = [&](std::size_t i) { return family[i] + '/' + std::to_string(forms[i].size()); };
  for (std::size_t i = 0; i < names.size(); ++i)
    if (parts[i].templated) {
      std::size_t &most = alike[alikeKey(i)];
      most = std::max(most, pick[i]);
    }
  for (std::size_t i = 0; i < names.size(); ++i)
    if (parts[i].templated) pick[i] = alike[alikeKey(i)];
  // The last resorts for a name that collides in its longest form: the
  // part of it around where it differs from the other (`around`); when that
  // collides too, a number after it (below), never the whole name (some of
  // libtorch_cuda.so's CUTLASS names run to 13,000 columns).
  std::vector<std::size_t> around(names.size(), std::string::npos);
  auto cut = [&](std::size_t i, std::size_t w) {
    const std::string &form = forms[i][pick[i]];
    if (form.size() <= w) return form;
    return around[i] != std::string::npos ? cutAround(form, w, around[i]) : cutName(form, w);
  };
  for (std::size_t i = 0; i < names.size(); ++i) out[i] = cut(i, width);
  // Different names never read the same: back off to longer forms. Pairs
  // (i, j > i) in order, each met through the index of who shows which text,
  // as a scan of every pair would meet them.
  std::unordered_map<std::string, std::set<std::size_t>> showing;
  for (std::size_t i = 0; i < names.size(); ++i) showing[out[i]].insert(i);
  auto show = [&](std::size_t k, std::string text) {
    auto was = showing.find(out[k]);
    was->second.erase(k);
    if (was->second.empty()) showing.erase(was);
    out[k] = std::move(text);
    showing[out[k]].insert(k);
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < names.size(); ++i)
      for (std::size_t after = i;;) {
        const std::set<std::size_t> &same = showing.at(out[i]);
        auto j = same.upper_bound(after);
        if (j == same.end()) break;
        after = *j;
        std::size_t differ = 0;  // where the two names first differ
        while (differ < names[i].size() && differ < names[after].size() && names[i][differ] == names[after][differ])
          ++differ;
        for (std::size_t k : {i, after}) {
          if (pick[k] > 0)
            --pick[k];
          else if (around[k] == std::string::npos)
            around[k] = differ;
          else
            continue;  // as long as the width allows: numbered below
          show(k, cut(k, width));
          changed = true;
        }
      }
  }
  // Names that read alike however far they back off: each is cut to leave
  // room for a number, and the names that then read alike (whatever they
  // read alike with before) are numbered "~1", "~2" in the order of their
  // whole names. The room is the digits of the largest such group. A
  // numbered text that another shows too (a name that itself holds "~2") is
  // the whole name.
  std::vector<std::size_t> tied;
  for (const auto &[text, members] : showing)
    if (members.size() > 1) tied.insert(tied.end(), members.begin(), members.end());
  if (tied.empty()) return out;
  if (numbered) *numbered = true;
  std::sort(tied.begin(), tied.end(), [&](std::size_t a, std::size_t b) { return names[a] < names[b]; });
  for (std::size_t digits = 1;; ++digits) {
    const std::size_t room = width > digits + 1 ? width - digits - 1 : 0;
    std::map<std::string, std::vector<std::size_t>> by_base;  // members in the order of their names
    for (std::size_t k : tied) by_base[cut(k, room)].push_back(k);
    std::size_t largest = 0;
    for (const auto &[base, members] : by_base) largest = std::max(largest, members.size());
    if (std::to_string(largest).size() > digits) continue;  // too many for the room: more digits
    for (const auto &[base, members] : by_base)
      for (std::size_t r = 0; r < members.size(); ++r) show(members[r], base + "~" + std::to_string(r + 1));
    break;
  }
  for (std::size_t k : tied)
    if (showing.at(out[k]).size() > 1) show(k, names[k]);
  return out;
}

}  // namespace

std::vector<std::string> shortenNames(const std::vector<std::string> &names, std::size_t width, bool *numbered) {
  if (numbered) *numbered = false;
  if (width == 0) return names;
  // Each name once: a library's kernel is a row per arch (libtorch_cuda.so:
  // eight or more), and one name always reads one way.
  std::vector<std::string> distinct;
  std::vector<std::size_t> which(names.size());
  {
    std::unordered_map<std::string_view, std::size_t> seen;
    for (std::size_t i = 0; i < names.size(); ++i) {
      auto [it, fresh] = seen.try_emplace(names[i], distinct.size());
      if (fresh) distinct.push_back(names[i]);
      which[i] = it->second;
    }
  }
  if (distinct.size() == names.size()) return shortenDistinctNames(names, width, numbered);
  const std::vector<std::string> shown = shortenDistinctNames(distinct, width, numbered);
  std::vector<std::string> out;
  out.reserve(names.size());
  for (std::size_t i : which) out.push_back(shown[i]);
  return out;
}

std::string shortKernelName(const std::string &demangled) {
  constexpr std::size_t kMax = 48;
  return shortenNames({demangled}, kMax).front();
}

std::string bytesText(std::int64_t n) {
  if (n == 0) return "0";
  if (n >= 1024 && n % 1024 == 0) return std::to_string(n / 1024) + " KiB";
  return std::to_string(n) + " B";
}

std::string staticPlusDynamic(std::int64_t static_bytes, std::int64_t dynamic, bool dynamic_unread) {
  if (!dynamic_unread && dynamic <= 0) return bytesText(static_bytes);
  auto compact = [](std::int64_t n) {
    if (n == 0) return std::string("0");
    return n % 1024 == 0 ? std::to_string(n / 1024) + "K" : std::to_string(n) + "B";
  };
  return compact(static_bytes) + "+" + (dynamic_unread ? std::string("?") : compact(dynamic));
}

std::string locationText(const std::string &file, int line) {
  if (file.empty()) return "?";
  return file + (line > 0 ? ":" + std::to_string(line) : "");
}

}  // namespace regscope
