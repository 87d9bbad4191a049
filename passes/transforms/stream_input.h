// Streamed input (docs/memory-model.md, "Streamed input"): with
// --stream-input the firmware delivers a graph input's rows, so the input
// never sits whole in memory. That holds when every reader of the input is a
// patch's `slice` of whole rows (all batches, channels and columns): each
// slice becomes a call that fetches its rows straight into its result.
#ifndef ONNX_TO_C_PASSES_TRANSFORMS_STREAM_INPUT_H_
#define ONNX_TO_C_PASSES_TRANSFORMS_STREAM_INPUT_H_

#include "absl/status/status.h"
#include "compiler/ir/program.h"

namespace oc {

// The position of `v` among the graph inputs, or -1.
int GraphInputIndex(const Program& program, ValueId v);

// A slice of a 4-D NCHW value that keeps every batch, channel and column and a
// band of rows (steps 1): what a row fetch can write.
bool IsRowBandSlice(const Program& program, const Statement& s);

// OK when graph input `index` can be streamed: it is 4-D, read at least once,
// and read only by row-band slices; else InvalidArgument naming the first
// other reader's node and op.
absl::Status CheckStreamableInput(const Program& program, int index);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_TRANSFORMS_STREAM_INPUT_H_
