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
//  - split views: the outputs of a contiguous split are slices of its input;
//  - overlap: a per-plane kernel (depthwise conv, pooling, resize) whose
//    input dies at it may write its output over that input, displaced by an
//    amount its plane-by-plane access order makes safe (see OverlapContract).
#ifndef ONNX_TO_C_PASSES_ANALYSIS_MEMORY_MODEL_H_
#define ONNX_TO_C_PASSES_ANALYSIS_MEMORY_MODEL_H_

#include <cstdint>
#include <vector>

#include "compiler/ir/program.h"
#include "passes/analysis/schedule_graph.h"

namespace oc {

// Where a buffer's bytes are.
enum class BufferLocation {
  kArena,     // the static arena
  kInput,     // the caller's input buffer
  kOutput,    // the caller's output buffer
  kConstant,  // a weight in flash
  kStreamed,  // a graph input the firmware delivers row by row (--stream-input): no bytes anywhere
};

// What the memory model may share, and where the graph's inputs and outputs
// live.
struct AliasOptions {
  bool views = true;
  bool in_place = true;
  bool concat_in_place = true;
  bool split_views = true;
  bool overlap = true;
  // --io=arena: the graph's inputs and outputs are arena buffers like any
  // other (the caller writes inputs into the arena and reads outputs from it).
  // An input is live from the first step to its last reader, an output from
  // its producer to the last step. Not an alias; it travels with them because
  // every consumer of the model needs it too.
  bool io_in_arena = false;
  // Concat in place, refined: each operand's slice of the concat buffer is
  // live from its own writer, not from the first slice's (a U-Net's skip
  // waits in its slice while the slice for the upsampled tensor stays free).
  bool concat_parts = true;
  // A concat buffer that could have parts keeps them and takes no overlap
  // contract (by default the contract wins and the buffer stays whole);
  // compile.cc tries both where they compete and keeps the smaller arena.
  bool parts_over_contracts = false;
  // Statement ids whose overlap contracts are left out: contracts chain their
  // buffers at fixed offsets, and a long chain can pack worse than the peak
  // (compile.cc tries cutting chains where the plan misses the peak).
  std::vector<int32_t> cut_contracts;
  // --stream-input: the graph input (its index) whose rows the firmware
  // delivers into each patch's slice; it is no buffer in the arena nor the
  // caller's (BufferLocation::kStreamed). -1: none.
  int streamed_input = -1;
  // Everything off: every value gets bytes of its own (TFLite-style baseline).
  static AliasOptions None(bool io_in_arena = false) {
    return {false, false, false, false, false, io_in_arena, false, false, {}};
  }
};

// An input/output overlap a kernel's access order makes safe: the output
// may start `displacement` bytes below the input, which dies at the
// statement, because every write lands on input bytes already read for the
// last time (or outside the input). Two kinds:
//  - planes: a per-plane kernel (depthwise conv, pooling, resize) computes
//    output plane k (an N*C slice) into a one-plane scratch after reading
//    input plane k, then copies it to its place. Input planes 0..k are dead
//    by then, so displacement >= (planes - 1) * (out_plane - in_plane) keeps
//    every write at or below the start of input plane k + 1.
//  - pixels: a 1x1 stride-1 convolution computes all output channels of a
//    block of pixels into scratch, then copies them over the block's input
//    pixels of the same channel index, which no later block reads
//    (displacement 0; batch 1 or no more output than input channels).
//  - elements: an elementwise kernel whose output elements are narrower than
//    its input's (QuantizeLinear, float32 to 8 bits) reads element i, then
//    writes result element i, last element first, with the output starting
//    (n - 1) * (in_elem - out_elem) bytes or more after the input's start
//    (a negative displacement): every write lands on bytes of elements i..n-1,
//    read for the last time. The output sits at the input's end, so the
//    input's first bytes are free for the next layer's output at once.
//  - rows: a channels-last convolution or max pool (IsRowStreamingConv)
//    computes output rows in increasing (n, oy) order, each reading input
//    rows from its window's first on: the output starts at least
//    MinRowsDisplacement below the input.
//  - rows_up: the same kernel in decreasing row order, each row reading input
//    rows up to its window's last: the output starts at least MinRowsRise
//    above the input's start (a negative displacement; it may be below when
//    that is negative). Chains of rows contracts take the direction that
//    keeps them compact (overlap_contracts.cc).
struct OverlapContract {
  enum class Kind { kPlanes, kPixels, kElements, kRows, kRowsUp };
  Kind kind = Kind::kPlanes;
  int statement = -1;       // program index
  int input_buffer = -1;    // dies at the statement in every order
  int output_buffer = -1;   // first written by the statement in every order
  int64_t planes = 0;       // planes: N*C; elements: the element count; rows: N*H_out
  int64_t in_plane_bytes = 0, out_plane_bytes = 0;  // planes: bytes of one plane
  int64_t block = 0;        // pixels: pixels per block
  int64_t displacement = 0;   // output offset = input offset - displacement (aligned; elements: < 0; rows_up: usually < 0)
  int64_t scratch = 0;        // aligned bytes of the kernel's scratch (a plane or a block)
  // Bytes the overlap saves at the statement's step: the two buffers' sizes
  // minus the extent they cover together.
  int64_t credit = 0;
};

// A slice of a concat-in-place buffer with a lifetime of its own: from the
// first writer of a value that touches its bytes to the last reader of one.
struct BufferPart {
  int64_t offset = 0;  // in the buffer; aligned
  int64_t bytes = 0;   // up to the next part (the last: to the aligned end)
  int first_step = -1;
  int last_step = -1;
};

struct Buffer {
  int id = -1;
  ValueId root = kNoValue;       // the value that names the buffer
  std::vector<ValueId> values;   // every value whose bytes are in it
  BufferLocation location = BufferLocation::kArena;
  // It holds a graph input (the caller writes it before the run) or a graph
  // output (the caller reads it after): in the arena only with --io=arena.
  bool holds_input = false;
  bool holds_output = false;
  int io_index = -1;             // graph input/output position
  int64_t bytes = 0;             // exact size
  int64_t aligned_bytes = 0;     // size rounded up to the alignment
  int first_step = -1;           // first writer (inputs: 0)
  int last_step = -1;            // last reader (outputs: the last step)
  // Concat in place: where each operand's bytes start (sorted, 0 first).
  std::vector<int64_t> part_starts;
  // With AliasOptions::concat_parts, when every start is aligned and no
  // overlap contract involves the buffer: its parts, which the schedule
  // graph, the liveness and the arena planner treat as buffers of their own
  // placed at fixed offsets from each other. Empty: one whole buffer.
  std::vector<BufferPart> parts;
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
  std::vector<OverlapContract> overlaps;
  std::vector<int> overlap_of_statement;  // index into overlaps, -1 for none
  std::vector<int64_t> live_bytes;    // arena bytes live at each step, scratch included
  int64_t peak_bytes = 0;
  int peak_step = -1;

  bool InArena(ValueId v) const {
    int b = buffer_of_value[v];
    return b >= 0 && buffers[b].location == BufferLocation::kArena;
  }
};

int64_t AlignUp(int64_t n, int64_t alignment);

// "planes", "pixels", "elements" or "rows" (the report's names).
const char* OverlapKindName(OverlapContract::Kind kind);

// A concat-in-place buffer whose parts all start aligned: it has parts
// unless an overlap contract involves it.
bool CanHaveParts(const Buffer& buffer, int64_t alignment);

// Bytes the caller holds outside the arena for the graph's inputs and
// outputs (0 with --io=arena): a firmware's activation RAM is the arena plus
// these.
int64_t CallerIoBytes(const MemoryModel& model);

// The statement's scratch as the arena pays it: its kernel's scratch plus the
// scratch of its overlap contract, if any.
int64_t StatementScratchBytes(const Program& program, const MemoryModel& model, int statement);

// Computes buffers and liveness for the program's current order.
MemoryModel ComputeMemoryModel(const Program& program, int64_t alignment,
                               const AliasOptions& aliases = {});

// The program as a schedule graph: node i is statement i (program order), one
// graph buffer per arena buffer of `model` (in buffer id order), plus the data
// dependencies between statements.
struct ProgramGraph {
  ScheduleGraph graph;
  std::vector<int> arena_buffer;  // graph buffer index -> model buffer id
  std::vector<int> arena_part;    // graph buffer index -> its part of that buffer, -1: whole
};
// A buffer with parts gives one graph buffer per part, unless `whole_buffers`.
ProgramGraph BuildScheduleGraph(const Program& program, const MemoryModel& model,
                                bool whole_buffers = false);

// Reorders the program's statements: order[i] = the index (in the current
// order) of the statement that runs at step i.
void ApplyOrder(Program& program, const std::vector<int>& order);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_ANALYSIS_MEMORY_MODEL_H_
