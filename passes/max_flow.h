// Maximum flow / minimum cut by Dinic's algorithm (Dinic 1970), with 64-bit
// capacities. Used for the lower bounds on the peak of any order.
#ifndef ONNX_TO_C_PASSES_MAX_FLOW_H_
#define ONNX_TO_C_PASSES_MAX_FLOW_H_

#include <cstdint>
#include <limits>
#include <vector>

namespace oc {

class MaxFlow {
 public:
  static constexpr int64_t kInfinite = std::numeric_limits<int64_t>::max() / 4;

  explicit MaxFlow(int num_nodes) : head_(num_nodes, -1), level_(num_nodes), next_arc_(num_nodes) {}

  int AddNode();
  void AddArc(int from, int to, int64_t capacity);
  // The maximum flow from s to t (saturates at kInfinite).
  int64_t Run(int s, int t);
  // After Run: the nodes reachable from s in the residual graph (the source
  // side of a minimum cut).
  std::vector<bool> SourceSide(int s) const;

 private:
  struct Arc {
    int to, next;
    int64_t cap;
  };
  bool BuildLevels(int s, int t);
  int64_t Push(int v, int t, int64_t limit);
  std::vector<int> head_;
  std::vector<Arc> arcs_;
  std::vector<int> level_, next_arc_;
};

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_MAX_FLOW_H_
