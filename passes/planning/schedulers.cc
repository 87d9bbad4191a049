#include "passes/planning/schedulers.h"

#include <algorithm>
#include <queue>
#include <unordered_map>

namespace oc {
namespace {

// Incremental live-bytes bookkeeping while building an order step by step.
class Frontier {
 public:
  explicit Frontier(const ScheduleGraph& g)
      : g_(g),
        done_(g.num_nodes, false),
        missing_preds_(g.num_nodes),
        writers_done_(g.buffers.size(), 0),
        readers_left_(g.buffers.size()) {
    for (int v = 0; v < g.num_nodes; ++v) missing_preds_[v] = static_cast<int>(g.preds[v].size());
    for (size_t b = 0; b < g.buffers.size(); ++b) {
      readers_left_[b] = static_cast<int>(g.buffers[b].readers.size());
    }
  }

  bool Ready(int v) const { return !done_[v] && missing_preds_[v] == 0; }
  int64_t resident() const { return resident_; }

  // Live bytes at v's step if v ran next.
  int64_t StepCost(int v) const {
    int64_t cost = resident_ + g_.scratch[v];
    for (int b : g_.writes[v]) {
      if (writers_done_[b] == 0) cost += g_.buffers[b].bytes;
    }
    return cost;
  }

  // Resident bytes after v ran.
  int64_t ResidentAfter(int v) const {
    int64_t r = resident_;
    for (int b : g_.writes[v]) {
      if (writers_done_[b] == 0) r += g_.buffers[b].bytes;
    }
    for (int b : g_.reads[v]) {
      if (readers_left_[b] == 1) r -= g_.buffers[b].bytes;
    }
    return r;
  }

  void Run(int v) {
    resident_ = ResidentAfter(v);
    for (int b : g_.writes[v]) ++writers_done_[b];
    for (int b : g_.reads[v]) --readers_left_[b];
    done_[v] = true;
    for (int s : g_.succs[v]) --missing_preds_[s];
  }

 private:
  const ScheduleGraph& g_;
  std::vector<bool> done_;
  std::vector<int> missing_preds_;
  std::vector<int> writers_done_;
  std::vector<int> readers_left_;
  int64_t resident_ = 0;
};

}  // namespace

std::vector<int> FileOrder(const ScheduleGraph& g) {
  std::vector<int> order(g.num_nodes);
  for (int i = 0; i < g.num_nodes; ++i) order[i] = i;
  return order;
}

std::vector<int> ReversePostOrder(const ScheduleGraph& g) {
  // Iterative DFS over successors from the sources, in index order.
  const int n = g.num_nodes;
  std::vector<int> post;
  std::vector<char> seen(n, 0);
  std::vector<std::pair<int, size_t>> stack;
  for (int root = 0; root < n; ++root) {
    if (seen[root] || !g.preds[root].empty()) continue;
    stack.push_back({root, 0});
    seen[root] = 1;
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      if (next < g.succs[v].size()) {
        int s = g.succs[v][next++];
        if (!seen[s]) {
          seen[s] = 1;
          stack.push_back({s, 0});
        }
      } else {
        post.push_back(v);
        stack.pop_back();
      }
    }
  }
  std::reverse(post.begin(), post.end());
  return post;
}

std::vector<int> GreedyLeastPeak(const ScheduleGraph& g) {
  Frontier f(g);
  std::vector<int> order;
  std::vector<int> ready;
  for (int v = 0; v < g.num_nodes; ++v) {
    if (f.Ready(v)) ready.push_back(v);
  }
  while (!ready.empty()) {
    size_t best = 0;
    int64_t best_cost = f.StepCost(ready[0]), best_after = f.ResidentAfter(ready[0]);
    for (size_t i = 1; i < ready.size(); ++i) {
      int64_t cost = f.StepCost(ready[i]), after = f.ResidentAfter(ready[i]);
      if (cost < best_cost || (cost == best_cost && after < best_after) ||
          (cost == best_cost && after == best_after && ready[i] < ready[best])) {
        best = i;
        best_cost = cost;
        best_after = after;
      }
    }
    int v = ready[best];
    ready.erase(ready.begin() + static_cast<long>(best));
    f.Run(v);
    order.push_back(v);
    for (int s : g.succs[v]) {
      if (f.Ready(s)) ready.push_back(s);
    }
  }
  return order;
}

std::vector<int> MemoryAwareDfs(const ScheduleGraph& g) {
  const int n = g.num_nodes;
  // weight(v): a Sethi-Ullman-like estimate of the memory its input cone needs.
  std::vector<int64_t> out_bytes(n, 0), weight(n, 0);
  for (int v = 0; v < n; ++v) {
    for (int b : g.writes[v]) out_bytes[v] += g.buffers[b].bytes;
  }
  std::vector<int> topo = GreedyLeastPeak(g);  // any topological order works here
  for (int v : topo) {
    int64_t w = out_bytes[v] + g.scratch[v];
    for (int p : g.preds[v]) w = std::max(w, weight[p] + out_bytes[v]);
    weight[v] = w;
  }
  std::vector<int> order;
  std::vector<char> state(n, 0);  // 0 new, 1 on stack, 2 done
  std::vector<std::pair<int, std::vector<int>>> stack;
  auto sorted_preds = [&](int v) {
    std::vector<int> ps = g.preds[v];
    std::stable_sort(ps.begin(), ps.end(), [&](int a, int b) { return weight[a] > weight[b]; });
    std::reverse(ps.begin(), ps.end());  // popped from the back: heaviest first
    return ps;
  };
  std::vector<int> sinks;
  for (int v = 0; v < n; ++v) {
    if (g.succs[v].empty()) sinks.push_back(v);
  }
  std::stable_sort(sinks.begin(), sinks.end(), [&](int a, int b) { return weight[a] > weight[b]; });
  for (int root : sinks) {
    if (state[root]) continue;
    stack.push_back({root, sorted_preds(root)});
    state[root] = 1;
    while (!stack.empty()) {
      auto& [v, todo] = stack.back();
      if (!todo.empty()) {
        int p = todo.back();
        todo.pop_back();
        if (state[p] == 0) {
          state[p] = 1;
          stack.push_back({p, sorted_preds(p)});
        }
      } else {
        state[v] = 2;
        order.push_back(v);
        stack.pop_back();
      }
    }
  }
  return order;
}

std::vector<int> ImproveLocally(const ScheduleGraph& g, std::vector<int> order, WorkBudget& budget) {
  const int n = g.num_nodes;
  if (n < 3) return order;
  auto score = [&](const std::vector<int>& o) {
    std::vector<int64_t> live = LiveBytes(g, o);
    int64_t peak = *std::max_element(live.begin(), live.end());
    int64_t at_peak = std::count(live.begin(), live.end(), peak);
    return std::make_pair(peak, at_peak);
  };
  auto best = score(order);
  bool improved = true;
  while (improved && !budget.Exhausted()) {
    improved = false;
    std::vector<int64_t> live = LiveBytes(g, order);
    int peak_step = static_cast<int>(std::max_element(live.begin(), live.end()) - live.begin());
    std::vector<int> pos(n);
    for (int i = 0; i < n; ++i) pos[order[i]] = i;
    // Nodes near the peak are the ones whose moves can change it.
    const int window = 8;
    for (int i = std::max(0, peak_step - window); i < std::min(n, peak_step + window + 1) && !improved; ++i) {
      int v = order[i];
      int lo = 0, hi = n - 1;
      for (int p : g.preds[v]) lo = std::max(lo, pos[p] + 1);
      for (int s : g.succs[v]) hi = std::min(hi, pos[s] - 1);
      for (int target = lo; target <= hi && !improved; ++target) {
        if (target == i) continue;
        std::vector<int> candidate = order;
        candidate.erase(candidate.begin() + i);
        candidate.insert(candidate.begin() + (target > i ? target : target), v);
        auto s = score(candidate);
        if (s < best) {
          best = s;
          order = std::move(candidate);
          improved = true;
        }
        if (!budget.Spend(n)) break;
      }
    }
  }
  return order;
}

namespace {

struct IdealKey {
  std::vector<uint64_t> bits;
  bool operator==(const IdealKey& o) const { return bits == o.bits; }
};
struct IdealHash {
  size_t operator()(const IdealKey& k) const {
    uint64_t h = 1469598103934665603ull;
    for (uint64_t w : k.bits) {
      h ^= w;
      h *= 1099511628211ull;
      h ^= h >> 29;
    }
    return static_cast<size_t>(h);
  }
};

}  // namespace

ExactSearchResult ExactMinPeakOrder(const ScheduleGraph& g, int64_t upper_bound,
                                    WorkBudget& budget, int64_t max_states) {
  const int n = g.num_nodes;
  const size_t words = (static_cast<size_t>(n) + 63) / 64;
  ExactSearchResult result;
  struct State {
    const IdealKey* key;  // owned by best_peak (unordered_map nodes never move)
    int64_t resident;
    int64_t peak;
    int count;
    int parent;  // index into states
    int node;    // the node that extended the parent
  };
  std::vector<State> states;
  std::unordered_map<IdealKey, int64_t, IdealHash> best_peak;
  auto in = [](const IdealKey& k, int v) { return (k.bits[v >> 6] >> (v & 63)) & 1u; };
  // Queue entries: (peak, -count, state index); smallest peak first, deeper first.
  using Entry = std::tuple<int64_t, int, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  auto root = best_peak.emplace(IdealKey{std::vector<uint64_t>(words, 0)}, 0).first;
  states.push_back({&root->first, 0, 0, 0, -1, -1});
  queue.push({0, 0, 0});
  while (!queue.empty()) {
    auto [peak, neg_count, idx] = queue.top();
    queue.pop();
    if (static_cast<int64_t>(states.size()) > max_states || !budget.Spend(n)) {
      result.states = static_cast<int64_t>(states.size());
      return result;  // out of budget: not finished
    }
    const State st = states[idx];
    const IdealKey& key_now = *st.key;
    if (best_peak[key_now] < peak) continue;  // a better path reached this ideal
    if (st.count == n) {
      result.finished = true;
      result.improved = peak < upper_bound;
      result.peak = peak;
      for (int i = idx; states[i].parent >= 0; i = states[i].parent) result.order.push_back(states[i].node);
      std::reverse(result.order.begin(), result.order.end());
      result.states = static_cast<int64_t>(states.size());
      return result;
    }
    for (int v = 0; v < n; ++v) {
      if (in(key_now, v)) continue;
      bool ready = true;
      for (int p : g.preds[v]) ready = ready && in(key_now, p);
      if (!ready) continue;
      int64_t step = st.resident + g.scratch[v];
      int64_t resident = st.resident;
      for (int b : g.writes[v]) {
        const auto& buf = g.buffers[b];
        bool written = false;
        for (int w : buf.writers) written = written || in(key_now, w);
        if (written) continue;
        step += buf.bytes;
        bool read_later = false;
        for (int r : buf.readers) read_later = read_later || (r != v && !in(key_now, r));
        if (read_later) resident += buf.bytes;
      }
      for (int b : g.reads[v]) {
        const auto& buf = g.buffers[b];
        bool written = false;
        for (int w : buf.writers) written = written || in(key_now, w);
        if (!written) continue;  // written by v itself and handled above
        bool read_later = false;
        for (int r : buf.readers) read_later = read_later || (r != v && !in(key_now, r));
        if (!read_later) resident -= buf.bytes;
      }
      int64_t new_peak = std::max(peak, step);
      // Orders reaching the known upper bound cannot improve on it.
      if (new_peak >= upper_bound) continue;
      IdealKey key = key_now;
      key.bits[v >> 6] |= uint64_t{1} << (v & 63);
      auto [it, inserted] = best_peak.emplace(std::move(key), new_peak);
      if (!inserted) {
        if (it->second <= new_peak) continue;
        it->second = new_peak;
      }
      states.push_back({&it->first, resident, new_peak, st.count + 1, idx, v});
      queue.push({new_peak, -(st.count + 1), static_cast<int>(states.size() - 1)});
    }
    (void)neg_count;
  }
  // Exhausted without reaching a complete order below the upper bound: the
  // known order is optimal.
  result.finished = true;
  result.improved = false;
  result.peak = upper_bound;
  result.states = static_cast<int64_t>(states.size());
  return result;
}

}  // namespace oc
