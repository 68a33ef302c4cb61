#include "liveness.h"

#include <algorithm>
#include <map>
#include <set>

#include "regscope/isa/loops.h"

namespace regscope::isa_detail {
namespace {

bool endsBlock(Flow flow) {
  return flow == Flow::Branch || flow == Flow::ConditionalBranch || flow == Flow::EndProgram || flow == Flow::Indirect;
}

// A block's loop depth: the natural loops that hold it (isa/loops.h).
void markLoops(Cfg &cfg) {
  std::vector<std::vector<int>> successors;
  successors.reserve(cfg.blocks.size());
  for (const Block &b : cfg.blocks) successors.push_back(b.successors);
  const std::vector<int> depth = naturalLoopDepths(successors);
  for (std::size_t b = 0; b < cfg.blocks.size(); ++b) {
    cfg.blocks[b].loop_depth = depth[b];
    cfg.blocks[b].in_loop = depth[b] > 0;
  }
}

}  // namespace

Cfg buildCfg(const std::vector<RawInstruction> &instructions, const std::vector<InstrFacts> &facts) {
  Cfg cfg;
  const int n = static_cast<int>(instructions.size());
  cfg.block_of.assign(n, 0);
  if (n == 0) return cfg;

  std::set<std::string> targets;
  for (const InstrFacts &f : facts)
    if (f.flow == Flow::Branch || f.flow == Flow::ConditionalBranch)
      if (!f.branch_target.empty()) targets.insert(f.branch_target);

  std::map<std::string, int> label_at;  // label -> instruction
  std::vector<bool> leader(n, false);
  leader[0] = true;
  for (int i = 0; i < n; ++i) {
    for (const std::string &label : instructions[i].labels) {
      label_at[label] = i;
      if (targets.count(label)) leader[i] = true;
    }
    if (endsBlock(facts[i].flow) && i + 1 < n) leader[i + 1] = true;
  }
  for (int i = 0; i < n; ++i) {
    if (leader[i]) {
      Block b;
      b.first = i;
      for (const std::string &label : instructions[i].labels)
        if (targets.count(label)) b.label = label;
      if (b.label.empty() && !instructions[i].labels.empty() && i == 0) b.label = instructions[i].labels.front();
      cfg.blocks.push_back(std::move(b));
    }
    cfg.block_of[i] = static_cast<int>(cfg.blocks.size()) - 1;
    cfg.blocks.back().end = i + 1;
  }
  std::map<int, int> block_at;  // first instruction -> block
  for (std::size_t b = 0; b < cfg.blocks.size(); ++b) block_at[cfg.blocks[b].first] = static_cast<int>(b);

  for (std::size_t b = 0; b < cfg.blocks.size(); ++b) {
    Block &block = cfg.blocks[b];
    const InstrFacts &last = facts[block.end - 1];
    auto addTarget = [&] {
      auto it = label_at.find(last.branch_target);
      if (it != label_at.end() && block_at.count(it->second)) {
        block.successors.push_back(block_at[it->second]);
      } else {
        block.unknown_exit = true;
        cfg.notes.push_back("a branch at instruction " + std::to_string(block.end - 1) + " leaves the function (" +
                            (last.branch_target.empty() ? std::string("no target") : last.branch_target) +
                            "): everything written is taken as live there");
      }
    };
    bool falls_through = true;
    switch (last.flow) {
      case Flow::Branch:
        addTarget();
        falls_through = false;
        break;
      case Flow::ConditionalBranch:
        addTarget();
        break;
      case Flow::EndProgram:
        falls_through = false;
        break;
      case Flow::Indirect:
        block.unknown_exit = true;
        falls_through = false;
        break;
      default:
        break;
    }
    if (falls_through && block.end < n) block.successors.push_back(static_cast<int>(b) + 1);
    std::sort(block.successors.begin(), block.successors.end());
    block.successors.erase(std::unique(block.successors.begin(), block.successors.end()), block.successors.end());
  }
  for (std::size_t b = 0; b < cfg.blocks.size(); ++b)
    for (int s : cfg.blocks[b].successors) cfg.blocks[s].predecessors.push_back(static_cast<int>(b));
  markLoops(cfg);
  return cfg;
}

namespace {

// Forward: is exec full before each instruction, and which SGPRs hold a copy of
// a full exec (what s_*_saveexec saved, for the restoring s_or/s_mov).
struct ExecState {
  bool reached = false;
  bool full = true;
  SlotSet full_copies;
  bool operator!=(const ExecState &o) const {
    return reached != o.reached || full != o.full || full_copies != o.full_copies;
  }
};

ExecState meet(const ExecState &a, const ExecState &b) {
  if (!a.reached) return b;
  if (!b.reached) return a;
  ExecState m;
  m.reached = true;
  m.full = a.full && b.full;
  m.full_copies = a.full_copies & b.full_copies;
  return m;
}

void stepExec(ExecState &s, const InstrFacts &f, const RegisterSlots &slots) {
  SlotSet sgprs = f.full_defs & slots.sgprMask();
  switch (f.exec) {
    case ExecEffect::SaveAndMask:
      if (s.full)
        s.full_copies |= sgprs;
      else
        s.full_copies &= ~f.defs;
      s.full = false;
      return;
    case ExecEffect::Copy:
      if (s.full)
        s.full_copies |= sgprs;
      else
        s.full_copies &= ~f.defs;
      return;
    case ExecEffect::Restore: {
      SlotSet from;
      SlotSet unused;
      for (unsigned reg : f.sources)
        if (!slots.isExec(reg)) slots.slotsOf(reg, from, unused);
      s.full = f.sets_all_lanes || (from.any() && (from & ~s.full_copies).none());
      return;
    }
    case ExecEffect::Other:
      s.full = false;
      s.full_copies &= ~f.defs;
      return;
    case ExecEffect::None:
      s.full_copies &= ~f.defs;
      return;
  }
}

std::vector<bool> execPartial(const Cfg &cfg, const std::vector<InstrFacts> &facts, const RegisterSlots &slots) {
  const std::size_t nb = cfg.blocks.size();
  std::vector<ExecState> in(nb), out(nb);
  in[0].reached = true;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t b = 0; b < nb; ++b) {
      ExecState s = b == 0 ? in[0] : ExecState{};
      for (int p : cfg.blocks[b].predecessors) s = meet(s, out[p]);
      if (!s.reached) continue;
      in[b] = s;
      for (int i = cfg.blocks[b].first; i < cfg.blocks[b].end; ++i) stepExec(s, facts[i], slots);
      if (s != out[b]) {
        out[b] = s;
        changed = true;
      }
    }
  }
  std::vector<bool> partial(facts.size(), false);
  for (std::size_t b = 0; b < nb; ++b) {
    ExecState s = in[b];
    for (int i = cfg.blocks[b].first; i < cfg.blocks[b].end; ++i) {
      partial[i] = !s.reached || !s.full;  // unreachable code: assume the worst
      stepExec(s, facts[i], slots);
    }
  }
  return partial;
}

// Generic backward solve. kills[i]: slots instruction i kills; defined[i]:
// slots possibly written before i (all ones when not restricting).
struct BackwardProblem {
  const Cfg &cfg;
  const std::vector<InstrFacts> &facts;
  std::vector<SlotSet> kills;
  std::vector<SlotSet> extra_uses;         // calls: everything written so far
  std::vector<SlotSet> defined_before;     // empty: no restriction
  std::vector<SlotSet> unknown_exit_live;  // per block, live at an unknown exit
};

SlotSet transferBlock(const BackwardProblem &p, int b, SlotSet live, std::vector<SlotSet> *in,
                      std::vector<SlotSet> *out) {
  const Block &block = p.cfg.blocks[b];
  for (int i = block.end - 1; i >= block.first; --i) {
    if (out) (*out)[i] = live;
    live = p.facts[i].uses | p.extra_uses[i] | (live & ~p.kills[i]);
    if (!p.defined_before.empty()) live &= p.defined_before[i];
    if (in) (*in)[i] = live;
  }
  return live;
}

void solve(const BackwardProblem &p, std::vector<SlotSet> &block_in, std::vector<SlotSet> *in,
           std::vector<SlotSet> *out) {
  const int nb = static_cast<int>(p.cfg.blocks.size());
  block_in.assign(nb, SlotSet());
  auto liveOut = [&](int b) {
    SlotSet live = p.unknown_exit_live[b];
    for (int s : p.cfg.blocks[b].successors) live |= block_in[s];
    return live;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (int b = nb - 1; b >= 0; --b) {
      SlotSet live = transferBlock(p, b, liveOut(b), nullptr, nullptr);
      if (live != block_in[b]) {
        block_in[b] = live;
        changed = true;
      }
    }
  }
  if (in || out)
    for (int b = 0; b < nb; ++b) transferBlock(p, b, liveOut(b), in, out);
}

// Backward: for the lanes that are off at each instruction, the registers
// they may read once an exec write turns them back on. Empty where exec is
// full (no lane is off there).
std::vector<SlotSet> resumedReads(const Cfg &cfg, const std::vector<InstrFacts> &facts,
                                  const std::vector<bool> &partial, const std::vector<SlotSet> &live_out) {
  const int nb = static_cast<int>(cfg.blocks.size());
  std::vector<SlotSet> at(facts.size()), block_in(nb);
  for (bool changed = true; changed;) {
    changed = false;
    for (int b = nb - 1; b >= 0; --b) {
      SlotSet w;
      for (int s : cfg.blocks[b].successors) w |= block_in[s];
      for (int i = cfg.blocks[b].end - 1; i >= cfg.blocks[b].first; --i) {
        at[i] = w;
        if (!partial[i])
          w.reset();
        else if (facts[i].exec_resume)
          w |= live_out[i];
      }
      if (w != block_in[b]) {
        block_in[b] = w;
        changed = true;
      }
    }
  }
  return at;
}

}  // namespace

Liveness solveLiveness(const Cfg &cfg, const std::vector<InstrFacts> &facts, const RegisterSlots &slots) {
  Liveness result;
  const std::size_t n = facts.size();
  result.live_in.assign(n, SlotSet());
  result.live_out.assign(n, SlotSet());
  if (n == 0) return result;
  const int nb = static_cast<int>(cfg.blocks.size());
  // 1. The launch inputs: live at the entry when every full write kills.
  BackwardProblem plain{cfg, facts, {}, {}, {}, {}};
  plain.kills.resize(n);
  plain.extra_uses.assign(n, SlotSet());
  plain.unknown_exit_live.assign(nb, SlotSet());
  for (std::size_t i = 0; i < n; ++i) plain.kills[i] = facts[i].full_defs;
  std::vector<SlotSet> block_in;
  solve(plain, block_in, nullptr, nullptr);
  const SlotSet inputs = block_in[0];

  // 2. Forward: what may have been written before each instruction.
  std::vector<SlotSet> defined_before(n);
  {
    std::vector<SlotSet> out(nb);
    std::vector<bool> seen(nb, false);
    for (bool changed = true; changed;) {
      changed = false;
      for (int b = 0; b < nb; ++b) {
        SlotSet d = b == 0 ? inputs : SlotSet();
        for (int p : cfg.blocks[b].predecessors) d |= out[p];
        for (int i = cfg.blocks[b].first; i < cfg.blocks[b].end; ++i) {
          defined_before[i] = d;
          d |= facts[i].defs;
        }
        if (!seen[b] || d != out[b]) {
          seen[b] = true;
          out[b] = d;
          changed = true;
        }
      }
    }
  }

  // 3. The problem with the exec rule. A VGPR/AGPR write under a partial exec
  // kills the value only for the active lanes; the others keep theirs until
  // they resume at a later exec write (s_or/s_xor/s_mov exec) and read what
  // is live there. `resumed[i]`: registers such lanes may read, for the lanes
  // off at i. It depends on the liveness it shapes, so both are iterated to a
  // fixed point (they only grow).
  const std::vector<bool> partial = execPartial(cfg, facts, slots);
  const SlotSet vector_slots = slots.mask(RegFile::Vgpr) | slots.mask(RegFile::Agpr);
  BackwardProblem p{cfg, facts, {}, {}, defined_before, {}};
  p.kills.resize(n);
  p.extra_uses.assign(n, SlotSet());
  p.unknown_exit_live.assign(nb, SlotSet());
  int calls = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (facts[i].flow != Flow::Call) continue;
    p.extra_uses[i] = defined_before[i];
    if (calls++ == 0)
      result.notes.push_back("a call at instruction " + std::to_string(i) +
                             " is taken to read every register written before it; liveness there is conservative");
  }
  for (int b = 0; b < nb; ++b) {
    if (!cfg.blocks[b].unknown_exit) continue;
    const int last = cfg.blocks[b].end - 1;
    p.unknown_exit_live[b] = defined_before[last] | facts[last].defs;
    result.notes.push_back("control leaves through an indirect branch at instruction " + std::to_string(last) +
                           ": every register written before it is taken as live there");
  }
  std::vector<SlotSet> resumed(n);
  for (int round = 0; round < 16; ++round) {
    for (std::size_t i = 0; i < n; ++i) {
      SlotSet kill = facts[i].full_defs;
      if (facts[i].partial_write)
        kill &= ~vector_slots;
      else if (partial[i] && facts[i].vector_write)
        kill &= ~(vector_slots & resumed[i]);
      p.kills[i] = kill;
    }
    solve(p, block_in, &result.live_in, &result.live_out);
    std::vector<SlotSet> next = resumedReads(cfg, facts, partial, result.live_out);
    if (next == resumed) break;
    resumed = std::move(next);
  }
  return result;
}

std::vector<int> reachingDefinitions(const Cfg &cfg, const std::vector<InstrFacts> &facts, int at, std::size_t slot) {
  std::vector<int> found;
  std::vector<bool> visited(cfg.blocks.size(), false);
  // Scan backward from `from` to the block's start; true when a killing
  // write ends the search on this path.
  auto scan = [&](int from, int first) {
    for (int i = from; i >= first; --i) {
      if (!facts[i].defs.test(slot)) continue;
      found.push_back(i);
      if (facts[i].full_defs.test(slot) && !facts[i].partial_write) return true;
    }
    return false;
  };
  const int start = cfg.block_of[at];
  std::vector<int> work;
  if (!scan(at - 1, cfg.blocks[start].first))
    for (int p : cfg.blocks[start].predecessors) work.push_back(p);
  while (!work.empty()) {
    int b = work.back();
    work.pop_back();
    if (visited[b]) continue;
    visited[b] = true;
    if (!scan(cfg.blocks[b].end - 1, cfg.blocks[b].first))
      for (int p : cfg.blocks[b].predecessors) work.push_back(p);
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

}  // namespace regscope::isa_detail
