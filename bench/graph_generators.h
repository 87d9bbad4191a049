// Deterministic generators of schedule graphs (the memory model's view of a
// program: statements, the arena buffers they write and read, scratch) for
// the scheduler's tests and benchmarks.
//
// Every generator takes a seed and returns the same graph for the same
// arguments on every platform (its own integer RNG, no <random>
// distributions). Byte sizes are realistic tensor sizes (channels x height x
// width x 4 bytes), multiples of 16. Node indices follow the natural build
// order (a topological order); RandomTopologicalRelabel() renumbers a graph
// into a random topological order, which models a badly stored file order.
#ifndef ONNX_TO_C_BENCH_GRAPH_GENERATORS_H_
#define ONNX_TO_C_BENCH_GRAPH_GENERATORS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "passes/analysis/schedule_graph.h"

namespace oc {

// SplitMix64: small, fast and identical everywhere.
class GenRng {
 public:
  explicit GenRng(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
  uint64_t Next();
  // Uniform in [lo, hi] (inclusive); lo <= hi.
  int64_t Uniform(int64_t lo, int64_t hi);
  // True with probability p.
  bool Chance(double p);
  double Unit();  // in [0, 1)
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[static_cast<size_t>(Uniform(0, static_cast<int64_t>(v.size()) - 1))];
  }

 private:
  uint64_t state_;
};

// Collects nodes and buffers, then builds a ScheduleGraph with one data edge
// from every writer of a buffer to every reader of it added later (nodes are
// added in a topological order), plus explicit extra edges (through caller
// memory, or the anti-dependences of an in-place update: the earlier readers
// of the buffer it overwrites run before it).
class GraphBuilder {
 public:
  // A new node reading `inputs` (buffer ids) and writing one new buffer of
  // `out_bytes` (none when out_bytes == 0). Returns the node id.
  int AddNode(const std::vector<int>& inputs, int64_t out_bytes, int64_t scratch = 0);
  // A buffer that several nodes write (a concat written in place); add its
  // writers with AddWriterTo before any node reads it.
  int AddSharedBuffer(int64_t bytes);
  // A new node reading `inputs` and writing a slice of `shared`.
  int AddWriterTo(int shared, const std::vector<int>& inputs, int64_t scratch = 0);
  // Adds buffer `b` to what node `node` reads or writes (after the fact).
  void AddRead(int node, int b);
  void AddWrite(int node, int b);
  void AddEdge(int from, int to);
  // The buffer node `node` writes first (-1 when none).
  int OutputOf(int node) const;
  int64_t BytesOf(int buffer) const { return buffers_[buffer].bytes; }
  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  int num_buffers() const { return static_cast<int>(buffers_.size()); }
  const std::vector<int>& ReadersOf(int buffer) const { return buffers_[buffer].readers; }
  const std::vector<int>& WritersOf(int buffer) const { return buffers_[buffer].writers; }

  ScheduleGraph Build() const;

 private:
  struct Node {
    std::vector<int> reads, writes;
    int64_t scratch = 0;
  };
  struct Buf {
    int64_t bytes = 0;
    std::vector<int> writers, readers;
  };
  std::vector<Node> nodes_;
  std::vector<Buf> buffers_;
  std::vector<std::pair<int, int>> extra_edges_;
};

// Rounds up to 16 bytes (the arena alignment).
int64_t Align16(int64_t bytes);
// A float32 activation of c x h x w, aligned.
int64_t TensorBytes(int64_t c, int64_t h, int64_t w);

// Renumbers the nodes: node i of the result is node perm[i] of g.
ScheduleGraph Relabel(const ScheduleGraph& g, const std::vector<int>& perm);
// A random topological order of g (Kahn's algorithm picking a random ready
// node).
std::vector<int> RandomTopologicalOrder(const ScheduleGraph& g, uint64_t seed);
// g renumbered so that its file order (the identity) is a random topological
// order.
ScheduleGraph RandomTopologicalRelabel(const ScheduleGraph& g, uint64_t seed);

// --- Brute force (small graphs) ------------------------------------------------

// The number of topological orders of g, counted over its ideals (n <= 24),
// saturating at `cap`.
int64_t CountTopologicalOrders(const ScheduleGraph& g, int64_t cap);
// Calls visit(order) for every topological order of g in lexicographic order
// until it returns false. Returns the number of orders visited.
int64_t ForEachTopologicalOrder(const ScheduleGraph& g,
                                const std::function<bool(const std::vector<int>&)>& visit);

// --- Families ----------------------------------------------------------------

// Random series-parallel graph of about `target_nodes` nodes: recursive series
// and parallel compositions; parallel branches join by an Add-like node, a
// Concat node, or a concat written in place (a shared buffer).
ScheduleGraph SeriesParallelGraph(int target_nodes, uint64_t seed);

// `stages` wide fork-joins in series; each forks into `branches` branches of
// very different lengths (1..max_branch_len) and tensor sizes (up to ~16x),
// joined by a Concat.
ScheduleGraph ForkJoinGraph(int stages, int branches, int max_branch_len, uint64_t seed);

// U-Net-style encoder-decoder: `depth` levels of `convs_per_level` convs, a
// skip from every encoder level to the decoder level of the same resolution
// (squeezed by a 1x1 conv, then a Concat), resolution halved/doubled between
// levels. With `fpn`, the decoder adds (FPN lateral 1x1 + Add) instead of
// concatenating, with a head per level.
ScheduleGraph UNetGraph(int depth, int convs_per_level, bool fpn, uint64_t seed);

// DenseNet: `blocks` dense blocks of `layers` layers; layer l's Concat node
// reads the block input and every earlier layer's output, then a 1x1-3x3
// bottleneck writes `growth` channels (or, in half of the seeds, PeleeNet's
// two-way layer: two branches of different depth and width); transitions
// (1x1 conv + pool) between blocks.
ScheduleGraph DenseNetGraph(int blocks, int layers, uint64_t seed);

// Inception-like: `modules` modules of 4 branches (1x1; 1x1-3x3; 1x1-5x5;
// pool-1x1) of unequal sizes, joined by a concat written in place.
ScheduleGraph InceptionGraph(int modules, uint64_t seed);

// A chain of n nodes with random tensor sizes (and occasional scratch).
ScheduleGraph ChainGraph(int n, uint64_t seed);

// Small random DAGs for brute force (n <= 12 recommended): random data
// edges, and when the options ask for them, buffers written by several nodes
// (in-place concats), in-place updates (a node writing the buffer it reads,
// with anti-dependence edges from the earlier readers), buffers nobody reads,
// nodes writing nothing or two buffers, scratch, and edges carrying no arena
// buffer (caller memory).
struct SmallDagOptions {
  bool multi_writer = true;
  bool in_place = true;
  bool unread_buffers = true;
  bool scratch = true;
  bool extra_edges = true;
  double edge_density = 0.3;  // probability of reading each recent buffer
};
ScheduleGraph SmallRandomDag(int n, uint64_t seed, const SmallDagOptions& options = {});

// Layered random DAG of exactly n nodes: layers of random width
// 1..max_width (max_width <= 0: sqrt(n)/2), every node reads 1..max_fan_in
// buffers from the previous `reach` layers, every output of a layer is read
// in the next one when the fan-in allows; each node writes one tensor, a few
// carry scratch.
ScheduleGraph LayeredRandomDag(int n, int max_fan_in, uint64_t seed, int max_width = 8, int reach = 3);

// One generated family instance, for benchmarks.
struct GeneratedGraph {
  std::string family;
  std::string params;
  ScheduleGraph graph;
};
// The benchmark families at roughly `size` nodes (20..200), instance `index`.
std::vector<std::string> BenchFamilies();
GeneratedGraph GenerateFamily(const std::string& family, int size, uint64_t seed);

}  // namespace oc

#endif  // ONNX_TO_C_BENCH_GRAPH_GENERATORS_H_
