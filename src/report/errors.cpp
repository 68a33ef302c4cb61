#include "regscope/report/errors.h"

#include <algorithm>
#include <set>

namespace regscope {
namespace {

// "a.hip, b.hip, c.hip" (the first five, then how many more).
std::string fileNames(const std::vector<std::string> &files) {
  std::string names;
  for (std::size_t i = 0; i < files.size() && i < 5; ++i) names += (i ? ", " : "") + files[i];
  if (files.size() > 5) names += " and " + std::to_string(files.size() - 5) + " more";
  return names;
}

// One error many files gave, said once. `text` is the message with each file's name as \x01:
// where the name stands for the file ("hipcc failed on \x01 (exit 1):") it becomes the count,
// "hipcc failed on 3 of 22 files (exit 1): a.hip, b.hip, c.hip"; inside a path or a compiler's
// lines it is the first file's, under "first error:".
std::string groupedMessage(std::string text, const std::vector<std::string> &files, std::size_t total,
                           const std::string &noun) {
  const std::string first = files.front();
  const std::string count = (files.size() == total ? "all " + std::to_string(total)
                                                   : std::to_string(files.size()) + " of " + std::to_string(total)) +
                            " " + noun;
  if (text.rfind("\x01: ", 0) == 0) text.erase(0, 3);  // "a.hip: cannot find ..." names the file first
  const std::size_t end = text.find('\n');
  std::string head = text.substr(0, end), rest = end == std::string::npos ? "" : text.substr(end);
  bool counted = false;
  for (std::size_t at = head.find('\x01'); at != std::string::npos; at = head.find('\x01', at)) {
    const bool in_path = (at > 0 && head[at - 1] == '/') || (at + 1 < head.size() && head[at + 1] == '/');
    const std::string with = !counted && !in_path ? count : first;
    counted = counted || !in_path;
    head.replace(at, 1, with);
    at += with.size();
  }
  for (std::size_t at = rest.find('\x01'); at != std::string::npos; at = rest.find('\x01', at)) {
    rest.replace(at, 1, first);
    at += first.size();
  }
  const bool colon = !head.empty() && head.back() == ':';
  if (colon) head.pop_back();
  head += counted ? ": " + fileNames(files) : " (" + count + ": " + fileNames(files) + ")";
  return head + (rest.empty() ? "" : "; first error:" + rest);
}

}  // namespace

std::vector<std::string> errorMessages(const Report &report) {
  // The same error for many files (a device library missing for an arch, a
  // header every file includes) is said once, with its count and the files it
  // hit; each other failing file once, with its path and the compiler's first
  // error; then how many of the run's files failed, when that is not said yet.
  struct Group {
    std::string arch, message, first_file;
    std::vector<std::string> files;
  };
  std::vector<Group> groups;
  // Files analysed (for some arch at least): the report's inputs, without a variant's " (entry N)".
  std::set<std::string> analysed;
  for (const std::string &input : report.inputs) analysed.insert(input.substr(0, input.find(" (entry ")));
  std::set<std::string> failed, partly, all = analysed;
  for (const InputError &error : report.errors) {
    (analysed.count(error.file) ? partly : failed).insert(error.file);
    all.insert(error.file);
    std::string key = error.message;  // the message with this file's name taken out
    if (!error.file.empty())
      for (std::size_t at = key.find(error.file); at != std::string::npos; at = key.find(error.file, at))
        key.replace(at, error.file.size(), "\x01");
    auto same = std::find_if(groups.begin(), groups.end(),
                             [&](const Group &g) { return g.arch == error.arch && g.message == key; });
    if (same == groups.end())
      groups.push_back({error.arch, key, error.message, {error.file}});
    else if (std::find(same->files.begin(), same->files.end(), error.file) == same->files.end())
      same->files.push_back(error.file);
  }
  // parse over directories: what it read or tried to, not the directories named.
  const bool artifacts = report.artifacts > 0;
  const std::size_t total = artifacts ? std::max(report.artifacts, failed.size()) : all.size();
  const std::string noun = artifacts ? "artifacts" : "files";
  std::vector<std::string> messages;
  for (const Group &g : groups) {
    const std::string arch = g.arch.empty() ? "" : "[" + g.arch + "] ";
    messages.push_back(arch + (g.files.size() == 1 ? g.first_file : groupedMessage(g.message, g.files, total, noun)));
  }
  // One cause for every failed file: its line said the count already.
  const bool said = groups.size() == 1 && groups.front().files.size() > 1;
  if (!failed.empty() && total > 1 && !said)
    messages.push_back(
        std::to_string(failed.size()) + " of " + std::to_string(total) + " " + noun + " failed" +
        (failed.size() < total ? artifacts ? "; the others were read" : "; the others were analysed" : ""));
  if (!partly.empty() && total > 1)
    messages.push_back(std::to_string(partly.size()) + " of " + std::to_string(total) +
                       " files failed for some of their archs; analysed for the others");
  return messages;
}

}  // namespace regscope
