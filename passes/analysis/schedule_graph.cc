#include "passes/analysis/schedule_graph.h"

#include <algorithm>

namespace oc {

int ScheduleGraph::AddBuffer(int64_t bytes, std::vector<int> writers, std::vector<int> readers) {
  Buffer b;
  b.bytes = bytes;
  b.writers = std::move(writers);
  // A buffer is live from its first writer to its last reader: counting every
  // writer as a reader too keeps that true even for a writer that no reader
  // depends on (the bounds rely on it).
  b.readers = std::move(readers);
  b.readers.insert(b.readers.end(), b.writers.begin(), b.writers.end());
  std::sort(b.writers.begin(), b.writers.end());
  b.writers.erase(std::unique(b.writers.begin(), b.writers.end()), b.writers.end());
  std::sort(b.readers.begin(), b.readers.end());
  b.readers.erase(std::unique(b.readers.begin(), b.readers.end()), b.readers.end());
  int id = static_cast<int>(buffers.size());
  for (int w : b.writers) writes[w].push_back(id);
  for (int r : b.readers) reads[r].push_back(id);
  buffers.push_back(std::move(b));
  return id;
}

void ScheduleGraph::AddEdge(int from, int to) {
  if (from == to) return;
  succs[from].push_back(to);
  preds[to].push_back(from);
}

void ScheduleGraph::Finish() {
  auto norm = [](std::vector<int>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  for (int i = 0; i < num_nodes; ++i) {
    norm(preds[i]);
    norm(succs[i]);
    norm(writes[i]);
    norm(reads[i]);
  }
}

ScheduleGraph ScheduleGraph::Reversed() const {
  ScheduleGraph r;
  r.num_nodes = num_nodes;
  r.preds = succs;
  r.succs = preds;
  r.scratch = scratch;
  r.writes = reads;
  r.reads = writes;
  r.buffers = buffers;
  for (Buffer& b : r.buffers) std::swap(b.writers, b.readers);
  return r;
}

std::vector<StepInterval> BufferIntervals(const ScheduleGraph& g, const std::vector<int>& order) {
  const int n = g.num_nodes;
  std::vector<int> pos(n);
  for (int i = 0; i < n; ++i) pos[order[i]] = i;
  std::vector<StepInterval> out;
  out.reserve(g.buffers.size());
  for (const ScheduleGraph::Buffer& b : g.buffers) {
    int first = n, last = -1;
    for (int w : b.writers) first = std::min(first, pos[w]);
    for (int r : b.readers) last = std::max(last, pos[r]);
    out.push_back({first, std::max(last, first)});
  }
  return out;
}

std::vector<int64_t> LiveBytes(const ScheduleGraph& g, const std::vector<int>& order) {
  const int n = g.num_nodes;
  // Difference array over steps: +bytes at the first writer, -bytes after the
  // last reader.
  std::vector<int64_t> delta(n + 1, 0);
  std::vector<StepInterval> iv = BufferIntervals(g, order);
  for (size_t b = 0; b < iv.size(); ++b) {
    delta[iv[b].first] += g.buffers[b].bytes;
    delta[iv[b].last + 1] -= g.buffers[b].bytes;
  }
  std::vector<int64_t> live(n);
  int64_t running = 0;
  for (int i = 0; i < n; ++i) {
    running += delta[i];
    live[i] = running + g.scratch[order[i]];
  }
  return live;
}

int64_t PeakBytes(const ScheduleGraph& g, const std::vector<int>& order) {
  int64_t peak = 0;
  for (int64_t b : LiveBytes(g, order)) peak = std::max(peak, b);
  return peak;
}

bool IsTopologicalOrder(const ScheduleGraph& g, const std::vector<int>& order) {
  if (static_cast<int>(order.size()) != g.num_nodes) return false;
  std::vector<int> pos(g.num_nodes, -1);
  for (int i = 0; i < g.num_nodes; ++i) {
    if (order[i] < 0 || order[i] >= g.num_nodes || pos[order[i]] >= 0) return false;
    pos[order[i]] = i;
  }
  for (int v = 0; v < g.num_nodes; ++v) {
    for (int s : g.succs[v]) {
      if (pos[s] < pos[v]) return false;
    }
  }
  return true;
}

}  // namespace oc
