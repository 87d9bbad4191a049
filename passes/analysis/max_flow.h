// Maximum flow / minimum cut by Dinic's algorithm (Dinic 1970), with 64-bit
// capacities. Used for the lower bounds on the peak of any order.
//
// The network can be reused across related queries: arcs added with
// AddTemporaryArc and capacities changed with SetCapacity are undone by
// Restore(), which also returns every arc to its capacity before Run(). Each
// Dinic phase only touches the part of the network it reaches.
#ifndef ONNX_TO_C_PASSES_ANALYSIS_MAX_FLOW_H_
#define ONNX_TO_C_PASSES_ANALYSIS_MAX_FLOW_H_

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace oc {

class MaxFlow {
 public:
  static constexpr int64_t kInfinite = std::numeric_limits<int64_t>::max() / 4;

  explicit MaxFlow(int num_nodes)
      : head_(num_nodes, -1), level_(num_nodes, 0), stamp_(num_nodes, 0), next_arc_(num_nodes, -1) {}

  int AddNode();
  // Returns the arc's index.
  int AddArc(int from, int to, int64_t capacity);
  // An arc that Restore() removes again (add them after all permanent arcs).
  void AddTemporaryArc(int from, int to, int64_t capacity);
  // Changes an arc's capacity until Restore().
  void SetCapacity(int arc, int64_t capacity);
  // The maximum flow from s to t (saturates at kInfinite).
  int64_t Run(int s, int t);
  // After Run: the nodes reachable from s in the residual graph (the source
  // side of a minimum cut).
  std::vector<bool> SourceSide(int s) const;
  // Undoes the flow of Run(), temporary arcs and capacity changes.
  void Restore();

 private:
  struct Arc {
    int to, next;
    int64_t cap;
  };
  void Log(int arc) { log_.push_back({arc, arcs_[arc].cap}); }
  int Level(int v) const { return stamp_[v] == phase_ ? level_[v] : -1; }
  bool BuildLevels(int s, int t);
  int64_t Push(int s, int t, int64_t limit);

  std::vector<int> head_;
  std::vector<Arc> arcs_;
  std::vector<int> level_;
  std::vector<uint32_t> stamp_;  // level_ is valid where stamp_ == phase_
  std::vector<int> next_arc_;
  uint32_t phase_ = 0;
  std::vector<int> queue_, path_arcs_, path_nodes_, temporary_;
  std::vector<std::pair<int, int64_t>> log_;  // (arc, capacity before a change)
};

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_ANALYSIS_MAX_FLOW_H_
