// The memory model: the one piece of code that says which buffer every value
// lives in, when each buffer is live, and how many arena bytes are live at
// each step of the program order. The scheduler, the bounds, the planner, the
// report and the emitter all read it (see docs/memory-model.md).
//
// Aliases it knows (each can be switched off for baselines):
//  - views: Reshape/Flatten/Squeeze/Unsqueeze results share their operand's
//    bytes;
//  - in place: an elementwise op (and softmax, channel affine) writes its
//    result over an operand that it alone reads, so that operand dies there
//    in every order;
//  - concat in place: each operand's producer writes straight into its slice
//    of the concat's buffer (when the slices are contiguous), and the concat
//    runs no code; the buffer has several writers;
//  - split views: the outputs of a contiguous split are slices of its input.
#ifndef ONNX_TO_C_PASSES_MEMORY_MODEL_H_
#define ONNX_TO_C_PASSES_MEMORY_MODEL_H_

#include <cstdint>
#include <vector>

#include "compiler/ir/program.h"
#include "passes/schedule_graph.h"

namespace oc {

// Where a buffer's bytes are.
enum class BufferLocation {
  kArena,     // the static arena
  kInput,     // the caller's input buffer
  kOutput,    // the caller's output buffer
  kConstant,  // a weight in flash
};

struct AliasOptions {
  bool views = true;
  bool in_place = true;
  bool concat_in_place = true;
  bool split_views = true;
  // Everything off: every value gets bytes of its own (TFLite-style baseline).
  static AliasOptions None() { return {false, false, false, false}; }
};

struct Buffer {
  int id = -1;
  ValueId root = kNoValue;       // the value that names the buffer
  std::vector<ValueId> values;   // every value whose bytes are in it
  BufferLocation location = BufferLocation::kArena;
  int io_index = -1;             // graph input/output position
  int64_t bytes = 0;             // exact size
  int64_t aligned_bytes = 0;     // size rounded up to the alignment
  int first_step = -1;           // first writer (inputs: 0)
  int last_step = -1;            // last reader (outputs: the last step)
};

struct MemoryModel {
  int64_t alignment = 16;
  AliasOptions aliases;
  std::vector<int> buffer_of_value;       // -1 for values without a buffer
  std::vector<int64_t> offset_in_buffer;  // byte offset of each value in its buffer
  std::vector<Buffer> buffers;
  // Per statement (program order): it runs no code (a view, or a concat or
  // split whose results are already in place).
  std::vector<bool> elided;
  // Per statement: it writes its result over operand `in_place_operand`.
  std::vector<int> in_place_operand;  // -1 when not in place
  std::vector<int64_t> live_bytes;    // arena bytes live at each step, scratch included
  int64_t peak_bytes = 0;
  int peak_step = -1;

  bool InArena(ValueId v) const {
    int b = buffer_of_value[v];
    return b >= 0 && buffers[b].location == BufferLocation::kArena;
  }
};

int64_t AlignUp(int64_t n, int64_t alignment);

// Computes buffers and liveness for the program's current order.
MemoryModel ComputeMemoryModel(const Program& program, int64_t alignment,
                               const AliasOptions& aliases = {});

// The program as a schedule graph: node i is statement i (program order), one
// graph buffer per arena buffer of `model` (in buffer id order), plus the data
// dependencies between statements.
struct ProgramGraph {
  ScheduleGraph graph;
  std::vector<int> arena_buffer;  // graph buffer index -> model buffer id
};
ProgramGraph BuildScheduleGraph(const Program& program, const MemoryModel& model);

// Reorders the program's statements: order[i] = the index (in the current
// order) of the statement that runs at step i.
void ApplyOrder(Program& program, const std::vector<int>& order);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_MEMORY_MODEL_H_
