#include "passes/max_flow.h"

#include <algorithm>
#include <queue>

namespace oc {

int MaxFlow::AddNode() {
  head_.push_back(-1);
  level_.push_back(0);
  next_arc_.push_back(0);
  return static_cast<int>(head_.size()) - 1;
}

void MaxFlow::AddArc(int from, int to, int64_t capacity) {
  arcs_.push_back({to, head_[from], capacity});
  head_[from] = static_cast<int>(arcs_.size()) - 1;
  arcs_.push_back({from, head_[to], 0});
  head_[to] = static_cast<int>(arcs_.size()) - 1;
}

bool MaxFlow::BuildLevels(int s, int t) {
  std::fill(level_.begin(), level_.end(), -1);
  std::queue<int> q;
  level_[s] = 0;
  q.push(s);
  while (!q.empty()) {
    int v = q.front();
    q.pop();
    for (int a = head_[v]; a >= 0; a = arcs_[a].next) {
      if (arcs_[a].cap > 0 && level_[arcs_[a].to] < 0) {
        level_[arcs_[a].to] = level_[v] + 1;
        q.push(arcs_[a].to);
      }
    }
  }
  return level_[t] >= 0;
}

// Blocking-flow DFS, iterative so deep graphs cannot overflow the stack.
int64_t MaxFlow::Push(int s, int t, int64_t limit) {
  std::vector<int> path_arcs;
  std::vector<int> path_nodes = {s};
  int64_t total = 0;
  while (total < limit) {
    int v = path_nodes.back();
    if (v == t) {
      int64_t f = limit - total;
      for (int a : path_arcs) f = std::min(f, arcs_[a].cap);
      for (int a : path_arcs) {
        arcs_[a].cap -= f;
        arcs_[a ^ 1].cap += f;
      }
      total += f;
      path_arcs.clear();
      path_nodes.assign(1, s);
      continue;
    }
    int& a = next_arc_[v];
    while (a >= 0 && (arcs_[a].cap <= 0 || level_[arcs_[a].to] != level_[v] + 1)) a = arcs_[a].next;
    if (a < 0) {
      if (v == s) break;
      level_[v] = -1;  // dead end
      path_nodes.pop_back();
      path_arcs.pop_back();
      continue;
    }
    path_arcs.push_back(a);
    path_nodes.push_back(arcs_[a].to);
  }
  return total;
}

int64_t MaxFlow::Run(int s, int t) {
  int64_t flow = 0;
  while (flow < kInfinite && BuildLevels(s, t)) {
    for (size_t v = 0; v < head_.size(); ++v) next_arc_[v] = head_[v];
    flow += Push(s, t, kInfinite - flow);
  }
  return std::min(flow, kInfinite);
}

std::vector<bool> MaxFlow::SourceSide(int s) const {
  std::vector<bool> seen(head_.size(), false);
  std::vector<int> stack = {s};
  seen[s] = true;
  while (!stack.empty()) {
    int v = stack.back();
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
