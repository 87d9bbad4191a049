// The statements of a program as a DAG with the arena buffers they write and
// read: the view of the memory model that schedulers and lower bounds work on.
//
// Live bytes follow the memory model's rule: a buffer is live from the step of
// its first writer to the step of its last reader (a buffer nothing reads is
// live at its writer's step only); a step also pays its statement's scratch.
// LiveBytes() is the only implementation of that rule: ComputeMemoryModel,
// the schedulers, the bounds and the report all call it.
#ifndef ONNX_TO_C_PASSES_ANALYSIS_SCHEDULE_GRAPH_H_
#define ONNX_TO_C_PASSES_ANALYSIS_SCHEDULE_GRAPH_H_

#include <cstdint>
#include <vector>

namespace oc {

struct ScheduleGraph {
  struct Buffer {
    int64_t bytes = 0;
    std::vector<int> writers;  // nodes writing it (one, or several for a shared buffer)
    std::vector<int> readers;  // nodes reading it, and its writers (see AddBuffer)
  };

  explicit ScheduleGraph(int n = 0)
      : num_nodes(n), preds(n), succs(n), scratch(n, 0), writes(n), reads(n) {}

  int num_nodes = 0;
  std::vector<std::vector<int>> preds, succs;  // data dependencies, sorted, unique
  // Per node: its scratch bytes, minus what an overlap contract saves there
  // (so it may be negative; the buffers the node reads and writes are always
  // live at its step and cover it).
  std::vector<int64_t> scratch;
  std::vector<Buffer> buffers;
  std::vector<std::vector<int>> writes, reads;  // per node: buffer indices

  // Adds a buffer; `writers` must not be empty. The writers are added to the
  // readers.
  int AddBuffer(int64_t bytes, std::vector<int> writers, std::vector<int> readers);
  void AddEdge(int from, int to);
  // Sorts and deduplicates adjacency; call once after building.
  void Finish();

  // The same problem backwards: edges reversed, writers and readers swapped.
  // An order's reverse has the same live-bytes profile, mirrored.
  ScheduleGraph Reversed() const;
};

// The steps (positions in `order`) from each buffer's first writer to its
// last reader.
struct StepInterval {
  int first, last;
};
std::vector<StepInterval> BufferIntervals(const ScheduleGraph& g, const std::vector<int>& order);

// Live arena bytes at each step of `order` (a permutation of the nodes).
std::vector<int64_t> LiveBytes(const ScheduleGraph& g, const std::vector<int>& order);
int64_t PeakBytes(const ScheduleGraph& g, const std::vector<int>& order);
bool IsTopologicalOrder(const ScheduleGraph& g, const std::vector<int>& order);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_ANALYSIS_SCHEDULE_GRAPH_H_
