#include "regscope/isa/loops.h"

#include <map>
#include <utility>

namespace regscope::isa_detail {

std::vector<int> naturalLoopDepths(const std::vector<std::vector<int>> &successors) {
  const int n = static_cast<int>(successors.size());
  std::vector<int> depth(n, 0);
  if (n == 0) return depth;
  std::vector<std::vector<int>> predecessors(n);
  for (int b = 0; b < n; ++b)
    for (int s : successors[b]) predecessors[s].push_back(b);
  // Iterative DFS; an edge to a block on the stack is a back edge.
  std::vector<int> state(n, 0);  // 0 new, 1 on stack, 2 done
  std::map<int, std::vector<int>> tails_of;
  std::vector<std::pair<int, std::size_t>> stack{{0, 0}};
  state[0] = 1;
  while (!stack.empty()) {
    auto &[b, next] = stack.back();
    if (next < successors[b].size()) {
      const int s = successors[b][next++];
      if (state[s] == 0) {
        state[s] = 1;
        stack.push_back({s, 0});
      } else if (state[s] == 1) {
        tails_of[s].push_back(b);
      }
    } else {
      state[b] = 2;
      stack.pop_back();
    }
  }
  for (const auto &[head, tails] : tails_of) {
    std::vector<bool> in(n, false);
    in[head] = true;
    std::vector<int> work;
    for (int tail : tails)
      if (!in[tail]) {
        in[tail] = true;
        work.push_back(tail);
      }
    while (!work.empty()) {
      const int b = work.back();
      work.pop_back();
      for (int p : predecessors[b])
        if (!in[p]) {
          in[p] = true;
          work.push_back(p);
        }
    }
    for (int b = 0; b < n; ++b) depth[b] += in[b];
  }
  return depth;
}

}  // namespace regscope::isa_detail
