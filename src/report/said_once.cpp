#include "regscope/report/said_once.h"

#include <map>

namespace regscope {

std::vector<std::string> saidOnce(const std::vector<std::string> &warnings, std::size_t named,
                                  const std::string &lead) {
  struct Cause {
    std::size_t first;                  // where its line goes
    std::vector<std::string> subjects;  // distinct, in order
    std::vector<std::string> whole;     // the warnings as given (a cause given once is printed unchanged)
  };
  std::map<std::string, Cause> causes;
  std::vector<std::string> order;  // the causes in the order first given
  for (const std::string &w : warnings) {
    const std::size_t colon = w.find(": ");
    const std::string subject = colon == std::string::npos ? "" : w.substr(0, colon);
    const std::string cause = colon == std::string::npos ? w : w.substr(colon + 2);
    auto [it, added] = causes.try_emplace(cause, Cause{order.size(), {}, {}});
    if (added) order.push_back(cause);
    bool seen = false;
    for (const std::string &s : it->second.subjects) seen |= s == subject;
    if (seen) continue;  // the same warning again says nothing new
    it->second.subjects.push_back(subject);
    it->second.whole.push_back(w);
  }
  std::vector<std::string> lines;
  for (const std::string &cause : order) {
    const Cause &c = causes.at(cause);
    const std::size_t n = c.subjects.size();
    if (n == 1) {
      lines.push_back(c.whole.front());
      continue;
    }
    bool led = !lead.empty();
    for (const std::string &s : c.subjects) led &= s.rfind(lead, 0) == 0;
    std::string who = led ? lead : "";
    for (std::size_t i = 0; i < n && i < named; ++i)
      who += (i ? ", " : "") + (led ? c.subjects[i].substr(lead.size()) : c.subjects[i]);
    if (n > named) who += " and " + std::to_string(n - named) + " more";
    lines.push_back(who + " (" + std::to_string(n) + " in all): " + cause);
  }
  return lines;
}

}  // namespace regscope
