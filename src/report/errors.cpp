#include "regscope/report/errors.h"

#include <algorithm>
#include <set>

namespace regscope {

std::vector<std::string> errorMessages(const Report &report) {
  // The same error for many files (a device library missing for an arch, a
  // header every file includes) is said once, with the files it hit; each
  // other failing file once, with its path and the compiler's first error.
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
  std::vector<std::string> messages;
  for (const Group &g : groups) {
    const std::string arch = g.arch.empty() ? "" : "[" + g.arch + "] ";
    if (g.files.size() == 1) {
      messages.push_back(arch + g.first_file);
      continue;
    }
    std::string text = g.message;  // said once: the file's place holds "each file"
    if (text.rfind("\x01: ", 0) == 0) text = text.substr(3);
    for (std::size_t at = text.find('\x01'); at != std::string::npos; at = text.find('\x01', at))
      text.replace(at, 1, "each file");
    std::string names;
    for (std::size_t i = 0; i < g.files.size() && i < 5; ++i) names += (i ? ", " : "") + g.files[i];
    if (g.files.size() > 5) names += ", ...";
    messages.push_back(arch + text + "\n  (the same error for " + std::to_string(g.files.size()) + " files: " + names +
                       ")");
  }
  if (!failed.empty() && all.size() > 1)
    messages.push_back(std::to_string(failed.size()) + " of " + std::to_string(all.size()) + " files failed" +
                       (failed.size() < all.size() ? "; the others were analysed" : ""));
  if (!partly.empty() && all.size() > 1)
    messages.push_back(std::to_string(partly.size()) + " of " + std::to_string(all.size()) +
                       " files failed for some of their archs; analysed for the others");
  return messages;
}

}  // namespace regscope
