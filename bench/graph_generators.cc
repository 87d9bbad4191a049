#include "bench/graph_generators.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace oc {

// --- RNG -----------------------------------------------------------------------

uint64_t GenRng::Next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int64_t GenRng::Uniform(int64_t lo, int64_t hi) {
  if (hi <= lo) return lo;
  uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
  // Rejection sampling: no modulo bias.
  uint64_t limit = ~uint64_t{0} - (~uint64_t{0} % span);
  uint64_t x;
  do {
    x = Next();
  } while (x >= limit);
  return lo + static_cast<int64_t>(x % span);
}

double GenRng::Unit() { return static_cast<double>(Next() >> 11) * (1.0 / 9007199254740992.0); }

bool GenRng::Chance(double p) { return Unit() < p; }

// --- Builder -------------------------------------------------------------------

int64_t Align16(int64_t bytes) { return (bytes + 15) / 16 * 16; }

int64_t TensorBytes(int64_t c, int64_t h, int64_t w) { return Align16(c * h * w * 4); }

int GraphBuilder::AddNode(const std::vector<int>& inputs, int64_t out_bytes, int64_t scratch) {
  int id = static_cast<int>(nodes_.size());
  nodes_.push_back({});
  nodes_.back().scratch = scratch;
  for (int b : inputs) AddRead(id, b);
  if (out_bytes > 0) {
    buffers_.push_back({out_bytes, {}, {}});
    AddWrite(id, static_cast<int>(buffers_.size()) - 1);
  }
  return id;
}

int GraphBuilder::AddSharedBuffer(int64_t bytes) {
  buffers_.push_back({bytes, {}, {}});
  return static_cast<int>(buffers_.size()) - 1;
}

int GraphBuilder::AddWriterTo(int shared, const std::vector<int>& inputs, int64_t scratch) {
  int id = AddNode(inputs, 0, scratch);
  AddWrite(id, shared);
  return id;
}

void GraphBuilder::AddRead(int node, int b) {
  auto& r = buffers_[b].readers;
  if (std::find(r.begin(), r.end(), node) == r.end()) r.push_back(node);
  auto& nr = nodes_[node].reads;
  if (std::find(nr.begin(), nr.end(), b) == nr.end()) nr.push_back(b);
}

void GraphBuilder::AddWrite(int node, int b) {
  auto& w = buffers_[b].writers;
  if (std::find(w.begin(), w.end(), node) == w.end()) w.push_back(node);
  auto& nw = nodes_[node].writes;
  if (std::find(nw.begin(), nw.end(), b) == nw.end()) nw.push_back(b);
}

void GraphBuilder::AddEdge(int from, int to) { extra_edges_.push_back({from, to}); }

int GraphBuilder::OutputOf(int node) const {
  return nodes_[node].writes.empty() ? -1 : nodes_[node].writes[0];
}

ScheduleGraph GraphBuilder::Build() const {
  ScheduleGraph g(num_nodes());
  for (int v = 0; v < num_nodes(); ++v) g.scratch[v] = nodes_[v].scratch;
  for (const Buf& b : buffers_) {
    if (b.writers.empty()) throw std::logic_error("GraphBuilder: a buffer without writers");
    g.AddBuffer(b.bytes, b.writers, b.readers);
    // Nodes are added in a topological order (a node reads existing buffers
    // only), so a writer feeds the readers added after it; readers added
    // before an in-place writer get explicit anti-dependence edges instead.
    for (int w : b.writers) {
      for (int r : b.readers) {
        if (w < r) g.AddEdge(w, r);
      }
    }
  }
  for (auto [from, to] : extra_edges_) g.AddEdge(from, to);
  g.Finish();
  return g;
}

// --- Relabeling ----------------------------------------------------------------

ScheduleGraph Relabel(const ScheduleGraph& g, const std::vector<int>& perm) {
  const int n = g.num_nodes;
  std::vector<int> new_id(n);
  for (int i = 0; i < n; ++i) new_id[perm[i]] = i;
  ScheduleGraph r(n);
  for (int i = 0; i < n; ++i) r.scratch[i] = g.scratch[perm[i]];
  auto map = [&](const std::vector<int>& v) {
    std::vector<int> out;
    out.reserve(v.size());
    for (int x : v) out.push_back(new_id[x]);
    return out;
  };
  for (const ScheduleGraph::Buffer& b : g.buffers) r.AddBuffer(b.bytes, map(b.writers), map(b.readers));
  for (int v = 0; v < n; ++v) {
    for (int s : g.succs[v]) r.AddEdge(new_id[v], new_id[s]);
  }
  r.Finish();
  return r;
}

std::vector<int> RandomTopologicalOrder(const ScheduleGraph& g, uint64_t seed) {
  GenRng rng(seed);
  std::vector<int> missing(g.num_nodes), ready, order;
  for (int v = 0; v < g.num_nodes; ++v) {
    missing[v] = static_cast<int>(g.preds[v].size());
    if (missing[v] == 0) ready.push_back(v);
  }
  while (!ready.empty()) {
    size_t k = static_cast<size_t>(rng.Uniform(0, static_cast<int64_t>(ready.size()) - 1));
    int v = ready[k];
    ready[k] = ready.back();
    ready.pop_back();
    order.push_back(v);
    for (int s : g.succs[v]) {
      if (--missing[s] == 0) ready.push_back(s);
    }
  }
  return order;
}

ScheduleGraph RandomTopologicalRelabel(const ScheduleGraph& g, uint64_t seed) {
  return Relabel(g, RandomTopologicalOrder(g, seed));
}

// --- Brute force -----------------------------------------------------------------

int64_t CountTopologicalOrders(const ScheduleGraph& g, int64_t cap) {
  const int n = g.num_nodes;
  if (n > 24) throw std::invalid_argument("CountTopologicalOrders: too many nodes");
  std::vector<uint32_t> pred_mask(n, 0);
  for (int v = 0; v < n; ++v) {
    for (int p : g.preds[v]) pred_mask[v] |= 1u << p;
  }
  std::vector<int64_t> count(size_t{1} << n, 0);
  count[0] = 1;
  for (uint32_t mask = 0; mask < (1u << n); ++mask) {
    if (count[mask] == 0) continue;
    for (int v = 0; v < n; ++v) {
      if ((mask >> v) & 1u || (pred_mask[v] & ~mask) != 0) continue;
      int64_t& c = count[mask | (1u << v)];
      c = std::min(cap, c + count[mask]);
    }
  }
  return count[(size_t{1} << n) - 1];
}

int64_t ForEachTopologicalOrder(const ScheduleGraph& g,
                                const std::function<bool(const std::vector<int>&)>& visit) {
  const int n = g.num_nodes;
  std::vector<int> missing(n), order;
  for (int v = 0; v < n; ++v) missing[v] = static_cast<int>(g.preds[v].size());
  std::vector<char> used(n, 0);
  int64_t visited = 0;
  bool stop = false;
  std::function<void()> rec = [&]() {
    if (stop) return;
    if (static_cast<int>(order.size()) == n) {
      ++visited;
      if (!visit(order)) stop = true;
      return;
    }
    for (int v = 0; v < n && !stop; ++v) {
      if (used[v] || missing[v] != 0) continue;
      used[v] = 1;
      order.push_back(v);
      for (int s : g.succs[v]) --missing[s];
      rec();
      for (int s : g.succs[v]) ++missing[s];
      order.pop_back();
      used[v] = 0;
    }
  };
  rec();
  return visited;
}

// --- Families --------------------------------------------------------------------

namespace {

// Log-uniform activation sizes between lo and hi bytes, aligned.
int64_t LogUniformBytes(GenRng& rng, double lo, double hi) {
  double x = std::exp(std::log(lo) + rng.Unit() * (std::log(hi) - std::log(lo)));
  return Align16(static_cast<int64_t>(x));
}

// Sometimes an im2col-like scratch, a fraction of the output.
int64_t MaybeScratch(GenRng& rng, int64_t out_bytes, double p = 0.1) {
  if (!rng.Chance(p)) return 0;
  return Align16(out_bytes / rng.Uniform(2, 8) + 16);
}

// Splits `total` into `parts` positive pieces (total >= parts).
std::vector<int> SplitBudget(GenRng& rng, int total, int parts) {
  std::vector<int> out(parts, 1);
  for (int i = parts; i < total; ++i) ++out[static_cast<size_t>(rng.Uniform(0, parts - 1))];
  return out;
}

struct SpBuilder {
  GraphBuilder& b;
  GenRng& rng;

  // A chain of `len` nodes from `in`, each writing about `bytes`; returns the
  // last buffer.
  int Chain(int in, int len, int64_t bytes) {
    int cur = in;
    for (int i = 0; i < len; ++i) {
      int64_t out = Align16(std::max<int64_t>(16, bytes * rng.Uniform(6, 14) / 10));
      cur = b.OutputOf(b.AddNode({cur}, out, MaybeScratch(rng, out)));
    }
    return cur;
  }

  // A series-parallel block of about `budget` nodes reading `in`; returns its
  // output buffer.
  int Block(int in, int budget, int64_t bytes, int depth) {
    if (budget <= 2 || depth > 6) return Chain(in, std::max(budget, 1), bytes);
    if (budget < 5 || rng.Chance(0.4)) {  // series
      int parts = static_cast<int>(rng.Uniform(2, std::min(3, budget)));
      int cur = in;
      for (int part : SplitBudget(rng, budget, parts)) {
        cur = Block(cur, part, bytes, depth + 1);
        if (rng.Chance(0.3)) bytes = LogUniformBytes(rng, 256, 65536);
      }
      return cur;
    }
    // parallel: m branches and a join
    int m = static_cast<int>(rng.Uniform(2, std::min(4, budget - 1)));
    std::vector<int> parts = SplitBudget(rng, budget - 1, m);
    int join_kind = static_cast<int>(rng.Uniform(0, 2));  // add, concat node, in-place concat
    std::vector<int> outs;
    std::vector<int64_t> sizes;
    for (int k = 0; k < m; ++k) {
      int64_t branch_bytes = LogUniformBytes(rng, 256, 65536);
      int len = parts[k];
      if (join_kind == 2) {
        // the branch's last node writes its slice of the shared buffer: add it
        // at the join, so the branch itself gets len-1 nodes (or reads `in`)
        outs.push_back(len > 1 ? Block(in, len - 1, branch_bytes, depth + 1) : in);
      } else {
        outs.push_back(Block(in, len, branch_bytes, depth + 1));
      }
      sizes.push_back(join_kind == 2 ? branch_bytes : b.BytesOf(outs.back()));
    }
    int64_t total = std::accumulate(sizes.begin(), sizes.end(), int64_t{0});
    if (join_kind == 0) {
      int64_t out = *std::max_element(sizes.begin(), sizes.end());
      return b.OutputOf(b.AddNode(outs, out));
    }
    if (join_kind == 1) return b.OutputOf(b.AddNode(outs, Align16(total)));
    int shared = b.AddSharedBuffer(Align16(total));
    for (int k = 0; k < m; ++k) b.AddWriterTo(shared, {outs[k]}, MaybeScratch(rng, sizes[k]));
    return shared;
  }
};

}  // namespace

ScheduleGraph SeriesParallelGraph(int target_nodes, uint64_t seed) {
  GenRng rng(seed);
  GraphBuilder b;
  SpBuilder sp{b, rng};
  int in = b.OutputOf(b.AddNode({}, LogUniformBytes(rng, 1024, 32768)));
  int out = sp.Block(in, std::max(1, target_nodes - 2), LogUniformBytes(rng, 256, 65536), 0);
  b.AddNode({out}, 64);  // a head writing a small result
  return b.Build();
}

ScheduleGraph ForkJoinGraph(int stages, int branches, int max_branch_len, uint64_t seed) {
  GenRng rng(seed);
  GraphBuilder b;
  int cur = b.OutputOf(b.AddNode({}, TensorBytes(8, 32, 32)));
  for (int s = 0; s < stages; ++s) {
    std::vector<int> outs;
    int64_t total = 0;
    for (int k = 0; k < branches; ++k) {
      int len = static_cast<int>(rng.Uniform(1, max_branch_len));
      // sizes differ by up to 16x between branches
      int64_t bytes = TensorBytes(4 * rng.Uniform(1, 16), 16, 16);
      int x = cur;
      for (int i = 0; i < len; ++i) {
        int64_t out = (i + 1 == len) ? TensorBytes(4 * rng.Uniform(1, 4), 16, 16) : bytes;
        x = b.OutputOf(b.AddNode({x}, out, MaybeScratch(rng, out)));
      }
      outs.push_back(x);
      total += b.BytesOf(x);
    }
    cur = b.OutputOf(b.AddNode(outs, Align16(total)));
    if (rng.Chance(0.5)) cur = b.OutputOf(b.AddNode({cur}, TensorBytes(8, 16, 16)));
  }
  b.AddNode({cur}, 64);
  return b.Build();
}

ScheduleGraph UNetGraph(int depth, int convs_per_level, bool fpn, uint64_t seed) {
  GenRng rng(seed);
  GraphBuilder b;
  const int64_t c0 = 4 * rng.Uniform(1, 4), h0 = 8 << rng.Uniform(1, 2);
  int cur = b.OutputOf(b.AddNode({}, TensorBytes(3, h0, h0)));
  std::vector<int> skips;
  auto conv = [&](int in, int64_t c, int64_t h) {
    int64_t out = TensorBytes(c, h, h);
    return b.OutputOf(b.AddNode({in}, out, MaybeScratch(rng, out, 0.2)));
  };
  for (int d = 0; d < depth; ++d) {
    const int64_t c = c0 << d, h = std::max<int64_t>(1, h0 >> d);
    for (int i = 0; i < convs_per_level; ++i) cur = conv(cur, c, h);
    skips.push_back(cur);
    cur = b.OutputOf(b.AddNode({cur}, TensorBytes(c, std::max<int64_t>(1, h / 2), std::max<int64_t>(1, h / 2))));
  }
  {
    const int64_t c = c0 << depth, h = std::max<int64_t>(1, h0 >> depth);
    for (int i = 0; i < convs_per_level; ++i) cur = conv(cur, c, h);
  }
  std::vector<int> heads;
  for (int d = depth - 1; d >= 0; --d) {
    const int64_t c = c0 << d, h = std::max<int64_t>(1, h0 >> d);
    if (fpn) {
      const int64_t cf = 4 * c0;
      int up = b.OutputOf(b.AddNode({cur}, TensorBytes(cf, h, h)));            // upsample
      int lateral = b.OutputOf(b.AddNode({skips[d]}, TensorBytes(cf, h, h)));  // 1x1
      cur = b.OutputOf(b.AddNode({up, lateral}, TensorBytes(cf, h, h)));      // add
      heads.push_back(b.OutputOf(b.AddNode({cur}, TensorBytes(cf / 2, h, h))));
    } else {
      int up = b.OutputOf(b.AddNode({cur}, TensorBytes(c, h, h)));  // transposed conv
      // the skip is squeezed by a 1x1 conv: any time between its encoder
      // level and this concat (a bad stored order runs it late)
      int skip = b.OutputOf(b.AddNode({skips[d]}, TensorBytes(std::max<int64_t>(1, c / 4), h, h)));
      cur = b.OutputOf(b.AddNode({up, skip}, b.BytesOf(up) + b.BytesOf(skip)));  // concat
      for (int i = 0; i < convs_per_level; ++i) cur = conv(cur, c, h);
    }
  }
  if (fpn) {
    for (int h : heads) b.AddNode({h}, 64);  // per-level heads
  } else {
    b.AddNode({cur}, TensorBytes(1, h0, h0));
  }
  return b.Build();
}

ScheduleGraph DenseNetGraph(int blocks, int layers, uint64_t seed) {
  GenRng rng(seed);
  GraphBuilder b;
  const int64_t growth = 4 * rng.Uniform(1, 3);
  const bool two_way = rng.Chance(0.5);
  int64_t h = 8 << rng.Uniform(1, 2);
  int64_t c = 2 * growth;
  int cur = b.OutputOf(b.AddNode({}, TensorBytes(3, h, h)));
  cur = b.OutputOf(b.AddNode({cur}, TensorBytes(c, h, h)));  // stem conv
  for (int k = 0; k < blocks; ++k) {
    std::vector<int> features = {cur};
    int64_t channels = c;
    for (int l = 0; l < layers; ++l) {
      int in = features[0];
      if (features.size() > 1) {
        in = b.OutputOf(b.AddNode(features, TensorBytes(channels, h, h)));  // concat
      }
      if (two_way) {
        // PeleeNet's two-way dense layer: 1x1-3x3 and 1x1-3x3-3x3 branches
        // with different bottleneck widths, each adding growth/2 channels
        const int64_t half = std::max<int64_t>(1, growth / 2);
        int a = b.OutputOf(b.AddNode({in}, TensorBytes(2 * growth, h, h)));
        features.push_back(b.OutputOf(b.AddNode({a}, TensorBytes(half, h, h))));
        int c1 = b.OutputOf(b.AddNode({in}, TensorBytes(growth, h, h)));
        int c2 = b.OutputOf(b.AddNode({c1}, TensorBytes(half, h, h), MaybeScratch(rng, TensorBytes(half, h, h), 0.3)));
        features.push_back(b.OutputOf(b.AddNode({c2}, TensorBytes(half, h, h))));
        channels += 2 * half;
        continue;
      }
      int mid = b.OutputOf(b.AddNode({in}, TensorBytes(4 * growth, h, h)));  // BN-ReLU-1x1
      int out = b.OutputOf(b.AddNode({mid}, TensorBytes(growth, h, h), MaybeScratch(rng, TensorBytes(growth, h, h), 0.3)));
      features.push_back(out);
      channels += growth;
    }
    cur = b.OutputOf(b.AddNode(features, TensorBytes(channels, h, h)));  // final concat
    if (k + 1 < blocks) {
      c = channels / 2;
      cur = b.OutputOf(b.AddNode({cur}, TensorBytes(c, h, h)));  // transition 1x1
      h = std::max<int64_t>(1, h / 2);
      cur = b.OutputOf(b.AddNode({cur}, TensorBytes(c, h, h)));  // pool
    }
  }
  b.AddNode({cur}, 64);
  return b.Build();
}

ScheduleGraph InceptionGraph(int modules, uint64_t seed) {
  GenRng rng(seed);
  GraphBuilder b;
  int64_t h = 16, c = 16;
  int cur = b.OutputOf(b.AddNode({}, TensorBytes(3, h, h)));
  cur = b.OutputOf(b.AddNode({cur}, TensorBytes(c, h, h)));
  for (int m = 0; m < modules; ++m) {
    int64_t c1 = 4 * rng.Uniform(1, 8), r2 = 4 * rng.Uniform(1, 4), c2 = 4 * rng.Uniform(2, 12),
            r3 = 4 * rng.Uniform(1, 2), c3 = 4 * rng.Uniform(1, 6), c4 = 4 * rng.Uniform(1, 4);
    int shared = b.AddSharedBuffer(TensorBytes(c1 + c2 + c3 + c4, h, h));
    b.AddWriterTo(shared, {cur});  // 1x1
    int x = b.OutputOf(b.AddNode({cur}, TensorBytes(r2, h, h)));
    b.AddWriterTo(shared, {x}, MaybeScratch(rng, TensorBytes(c2, h, h), 0.5));  // 3x3
    x = b.OutputOf(b.AddNode({cur}, TensorBytes(r3, h, h)));
    b.AddWriterTo(shared, {x}, MaybeScratch(rng, TensorBytes(c3, h, h), 0.5));  // 5x5
    x = b.OutputOf(b.AddNode({cur}, TensorBytes(c, h, h)));                     // 3x3 pool
    b.AddWriterTo(shared, {x});                                                 // 1x1
    cur = shared;
    c = c1 + c2 + c3 + c4;
    if (m % 3 == 2 && h > 4) {
      h /= 2;
      cur = b.OutputOf(b.AddNode({cur}, TensorBytes(c, h, h)));  // pool
    }
  }
  b.AddNode({cur}, 64);
  return b.Build();
}

ScheduleGraph ChainGraph(int n, uint64_t seed) {
  GenRng rng(seed);
  GraphBuilder b;
  int cur = -1;
  for (int i = 0; i < n; ++i) {
    int64_t out = LogUniformBytes(rng, 256, 65536);
    std::vector<int> in;
    if (cur >= 0) in.push_back(cur);
    cur = b.OutputOf(b.AddNode(in, out, MaybeScratch(rng, out)));
  }
  return b.Build();
}

ScheduleGraph SmallRandomDag(int n, uint64_t seed, const SmallDagOptions& o) {
  GenRng rng(seed);
  GraphBuilder b;
  // Buffers that may still be read; a shared buffer stays open to more
  // writers until somebody reads it.
  std::vector<int> readable;
  std::vector<char> open_shared;  // per buffer
  auto size = [&]() { return Align16(16 * rng.Uniform(1, 64) * (rng.Chance(0.3) ? 8 : 1)); };
  for (int v = 0; v < n; ++v) {
    // inputs: each readable buffer with the edge density (recent ones likelier)
    std::vector<int> inputs;
    for (size_t k = 0; k < readable.size(); ++k) {
      double p = o.edge_density * (k + 4 >= readable.size() ? 1.5 : 0.6);
      if (rng.Chance(p)) inputs.push_back(readable[k]);
    }
    if (inputs.size() > 4) inputs.resize(4);
    for (int bi : inputs) open_shared[static_cast<size_t>(bi)] = 0;  // read: closed to writers
    // in-place: write the buffer it reads (it dies here): the earlier readers
    // must run before it (anti-dependences) and later readers see the new data
    int64_t scratch = (o.scratch && rng.Chance(0.2)) ? Align16(16 * rng.Uniform(1, 32)) : 0;
    if (o.in_place && !inputs.empty() && rng.Chance(0.15)) {
      int bi = inputs[0];
      int v_id = b.AddNode(inputs, 0, scratch);
      for (int r : b.ReadersOf(bi)) {
        if (r != v_id) b.AddEdge(r, v_id);
      }
      b.AddWrite(v_id, bi);
      if (o.extra_edges && v > 0 && rng.Chance(0.15)) b.AddEdge(static_cast<int>(rng.Uniform(0, v - 1)), v);
      continue;  // bi stays readable, with the new contents
    }
    // an open shared buffer to write into?
    std::vector<int> open;
    for (int bi : readable) {
      if (open_shared[static_cast<size_t>(bi)]) open.push_back(bi);
    }
    int choice = static_cast<int>(rng.Uniform(0, 99));
    if (o.multi_writer && !open.empty() && choice < 35) {
      b.AddWriterTo(rng.Pick(open), inputs, scratch);
    } else if (o.multi_writer && choice < 45) {
      int shared = b.AddSharedBuffer(size());
      b.AddWriterTo(shared, inputs, scratch);
      readable.push_back(shared);
      open_shared.resize(b.num_buffers(), 0);
      open_shared[static_cast<size_t>(shared)] = 1;
    } else if (choice < 50) {
      b.AddNode(inputs, 0, scratch);  // writes nothing in the arena (e.g. a graph output)
    } else {
      int id = b.AddNode(inputs, size(), scratch);
      readable.push_back(b.OutputOf(id));
      if (choice > 92) {  // a second result
        int extra = b.AddSharedBuffer(size());
        b.AddWrite(id, extra);
        readable.push_back(extra);
      }
      open_shared.resize(b.num_buffers(), 0);
    }
    // edges through caller memory (no arena buffer)
    if (o.extra_edges && v > 0 && rng.Chance(0.15)) b.AddEdge(static_cast<int>(rng.Uniform(0, v - 1)), v);
    // drop some buffers from the readable set: never read again (or at all)
    if (!o.unread_buffers) continue;
    if (readable.size() > 5 && rng.Chance(0.3)) readable.erase(readable.begin());
  }
  if (!o.unread_buffers) {
    // every buffer gets a reader: a final node reads whatever nobody read
    std::vector<int> unread;
    for (int bi = 0; bi < b.num_buffers(); ++bi) {
      const auto& r = b.ReadersOf(bi);
      const auto& w = b.WritersOf(bi);
      bool read_by_other = false;
      for (int x : r) read_by_other = read_by_other || std::find(w.begin(), w.end(), x) == w.end();
      if (!read_by_other) unread.push_back(bi);
    }
    if (!unread.empty()) b.AddNode(unread, 0);
  }
  return b.Build();
}

ScheduleGraph LayeredRandomDag(int n, int max_fan_in, uint64_t seed, int max_width, int reach) {
  GenRng rng(seed);
  GraphBuilder b;
  std::vector<std::vector<int>> layers;  // buffers per layer
  if (max_width <= 0) max_width = std::max(2, static_cast<int>(std::sqrt(static_cast<double>(n)) / 2));
  max_fan_in = std::max(1, max_fan_in);
  int made = 0;
  while (made < n) {
    int width = static_cast<int>(std::min<int64_t>(rng.Uniform(1, max_width), n - made));
    // Every output of the previous layer gets a reader in this one when the
    // fan-in allows it (a network consumes what it computes).
    std::vector<std::vector<int>> inputs(width);
    if (!layers.empty()) {
      std::vector<int> prev = layers.back();
      for (size_t k = prev.size(); k > 1; --k) {  // shuffle
        std::swap(prev[k - 1], prev[static_cast<size_t>(rng.Uniform(0, static_cast<int64_t>(k) - 1))]);
      }
      for (size_t k = 0; k < prev.size(); ++k) {
        auto& in = inputs[k % static_cast<size_t>(width)];
        if (static_cast<int>(in.size()) < max_fan_in) in.push_back(prev[k]);
      }
    }
    std::vector<int> layer;
    for (int i = 0; i < width; ++i) {
      std::vector<int>& in = inputs[static_cast<size_t>(i)];
      if (!layers.empty()) {
        if (in.empty()) in.push_back(rng.Pick(layers.back()));
        int fan = static_cast<int>(rng.Uniform(1, max_fan_in));
        for (int k = static_cast<int>(in.size()); k < fan; ++k) {
          int back = static_cast<int>(rng.Uniform(1, std::min<int64_t>(reach, static_cast<int64_t>(layers.size()))));
          int x = rng.Pick(layers[layers.size() - static_cast<size_t>(back)]);
          if (std::find(in.begin(), in.end(), x) == in.end()) in.push_back(x);
        }
      }
      int64_t out = LogUniformBytes(rng, 256, 32768);
      layer.push_back(b.OutputOf(b.AddNode(in, out, MaybeScratch(rng, out, 0.05))));
      ++made;
    }
    layers.push_back(std::move(layer));
  }
  return b.Build();
}

// --- Benchmark families ------------------------------------------------------------

std::vector<std::string> BenchFamilies() {
  return {"series-parallel", "fork-join", "unet", "fpn", "densenet", "inception", "layered"};
}

GeneratedGraph GenerateFamily(const std::string& family, int size, uint64_t seed) {
  GenRng rng(seed ^ 0xA5A5A5A5ull);
  GeneratedGraph out;
  out.family = family;
  auto p = [](auto... xs) {
    std::string s;
    ((s += (s.empty() ? "" : ",") + std::to_string(xs)), ...);
    return s;
  };
  if (family == "series-parallel") {
    out.graph = SeriesParallelGraph(size, seed);
    out.params = p(size);
  } else if (family == "fork-join") {
    int branches = static_cast<int>(rng.Uniform(4, 8)), len = static_cast<int>(rng.Uniform(2, 6));
    int per_stage = branches * (len + 1) / 2 + 2;
    int stages = std::max(1, size / per_stage);
    out.graph = ForkJoinGraph(stages, branches, len, seed);
    out.params = p(stages, branches, len);
  } else if (family == "unet" || family == "fpn") {
    bool fpn = family == "fpn";
    int depth = static_cast<int>(rng.Uniform(3, 4));
    // unet: ~ (2*depth + 1) * convs + 3 * depth nodes; fpn: ~ (depth + 1) * convs + 5 * depth
    int convs = fpn ? std::max(1, (size - 5 * depth) / (depth + 1))
                    : std::max(1, (size - 4 * depth) / (2 * depth + 1));
    out.graph = UNetGraph(depth, convs, fpn, seed);
    out.params = p(depth, convs);
  } else if (family == "densenet") {
    int blocks = static_cast<int>(rng.Uniform(2, 3));
    int layers = std::max(2, (size / blocks - 3) / 4);
    out.graph = DenseNetGraph(blocks, layers, seed);
    out.params = p(blocks, layers);
  } else if (family == "inception") {
    int modules = std::max(1, (size - 3) / 9);
    out.graph = InceptionGraph(modules, seed);
    out.params = p(modules);
  } else if (family == "layered") {
    out.graph = LayeredRandomDag(size, 3, seed, 8);
    out.params = p(size, 3);
  } else if (family == "chain") {
    out.graph = ChainGraph(size, seed);
    out.params = p(size);
  } else {
    throw std::invalid_argument("unknown graph family: " + family);
  }
  return out;
}

}  // namespace oc
