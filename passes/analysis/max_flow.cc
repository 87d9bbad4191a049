#include "passes/analysis/max_flow.h"

#include <algorithm>

namespace oc {

int MaxFlow::AddNode() {
  head_.push_back(-1);
  level_.push_back(0);
  stamp_.push_back(0);
  next_arc_.push_back(-1);
  return static_cast<int>(head_.size()) - 1;
}

int MaxFlow::AddArc(int from, int to, int64_t capacity) {
  arcs_.push_back({to, head_[from], capacity});
  head_[from] = static_cast<int>(arcs_.size()) - 1;
  arcs_.push_back({from, head_[to], 0});
  head_[to] = static_cast<int>(arcs_.size()) - 1;
  return static_cast<int>(arcs_.size()) - 2;
}

void MaxFlow::AddTemporaryArc(int from, int to, int64_t capacity) {
  temporary_.push_back(AddArc(from, to, capacity));
}

void MaxFlow::SetCapacity(int arc, int64_t capacity) {
  Log(arc);
  arcs_[arc].cap = capacity;
}

void MaxFlow::Restore() {
  for (auto it = log_.rbegin(); it != log_.rend(); ++it) arcs_[it->first].cap = it->second;
  log_.clear();
  // Temporary arcs are the last ones added: unlink them newest first.
  for (auto it = temporary_.rbegin(); it != temporary_.rend(); ++it) {
    const int a = *it;
    const int from = arcs_[a + 1].to, to = arcs_[a].to;
    head_[to] = arcs_[a + 1].next;
    head_[from] = arcs_[a].next;
    arcs_.pop_back();
    arcs_.pop_back();
  }
  temporary_.clear();
}

bool MaxFlow::BuildLevels(int s, int t) {
  ++phase_;
  queue_.clear();
  queue_.push_back(s);
  stamp_[s] = phase_;
  level_[s] = 0;
  next_arc_[s] = head_[s];
  for (size_t i = 0; i < queue_.size(); ++i) {
    const int v = queue_[i];
    if (Level(t) >= 0 && level_[v] >= level_[t]) break;  // nothing past t's level helps
    for (int a = head_[v]; a >= 0; a = arcs_[a].next) {
      const int w = arcs_[a].to;
      if (arcs_[a].cap > 0 && stamp_[w] != phase_) {
        stamp_[w] = phase_;
        level_[w] = level_[v] + 1;
        next_arc_[w] = head_[w];
        queue_.push_back(w);
      }
    }
  }
  return Level(t) >= 0;
}

// Blocking-flow search along the level graph, iterative so deep networks
// cannot overflow the stack.
int64_t MaxFlow::Push(int s, int t, int64_t limit) {
  path_arcs_.clear();
  path_nodes_.assign(1, s);
  int64_t total = 0;
  while (total < limit) {
    const int v = path_nodes_.back();
    if (v == t) {
      int64_t f = limit - total;
      for (int a : path_arcs_) f = std::min(f, arcs_[a].cap);
      for (int a : path_arcs_) {
        Log(a);
        Log(a ^ 1);
        arcs_[a].cap -= f;
        arcs_[a ^ 1].cap += f;
      }
      total += f;
      path_arcs_.clear();
      path_nodes_.assign(1, s);
      continue;
    }
    int& a = next_arc_[v];
    while (a >= 0 && (arcs_[a].cap <= 0 || Level(arcs_[a].to) != level_[v] + 1)) a = arcs_[a].next;
    if (a < 0) {
      if (v == s) break;
      level_[v] = -2;  // a dead end for the rest of this phase
      path_nodes_.pop_back();
      path_arcs_.pop_back();
      continue;
    }
    path_arcs_.push_back(a);
    path_nodes_.push_back(arcs_[a].to);
  }
  return total;
}

int64_t MaxFlow::Run(int s, int t) {
  int64_t flow = 0;
  while (flow < kInfinite && BuildLevels(s, t)) flow += Push(s, t, kInfinite - flow);
  return std::min(flow, kInfinite);
}

std::vector<bool> MaxFlow::SourceSide(int s) const {
  std::vector<bool> seen(head_.size(), false);
  std::vector<int> stack = {s};
  seen[s] = true;
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    for (int a = head_[v]; a >= 0; a = arcs_[a].next) {
      if (arcs_[a].cap > 0 && !seen[arcs_[a].to]) {
        seen[arcs_[a].to] = true;
        stack.push_back(arcs_[a].to);
      }
    }
  }
  return seen;
}

}  // namespace oc
