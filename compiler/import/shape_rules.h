// Shape rules shared by lowering and constant folding (internal to import/).
#ifndef ONNX_TO_C_IMPORT_SHAPE_RULES_H_
#define ONNX_TO_C_IMPORT_SHAPE_RULES_H_

#include <vector>

#include "compiler/import/node_context.h"

namespace oc {

// Reshape's target shape (0 copies the input dim unless allowzero, -1 infers).
absl::StatusOr<Shape> ReshapeTarget(const NodeContext& ctx, const Shape& in,
                                    const std::vector<int64_t>& spec, bool allowzero);
// Flatten / Squeeze / Unsqueeze result shapes (ONNX semantics per opset).
absl::StatusOr<Shape> FlattenShape(const NodeContext& ctx, const Shape& in);
absl::StatusOr<Shape> SqueezeShape(const NodeContext& ctx, const Shape& in);
absl::StatusOr<Shape> UnsqueezeShape(const NodeContext& ctx, const Shape& in);

// Slice normalized to every dim: start index and step per dim, result shape.
struct SliceSpec {
  std::vector<int64_t> starts, steps;
  Shape shape;
};
absl::StatusOr<SliceSpec> SliceFor(const NodeContext& ctx, const Shape& in);

// Gather with constant indices: normalized axis and indices.
struct GatherSpec {
  int64_t axis = 0;
  std::vector<int64_t> indices;  // non-negative, flattened
  Shape indices_shape;
  Shape shape;
};
absl::StatusOr<GatherSpec> GatherFor(const NodeContext& ctx, const Shape& in);

// Concat: normalized axis and result shape.
absl::StatusOr<int64_t> ConcatAxis(const NodeContext& ctx, Shape* result);

// Transpose: permutation (default: reversed dims) and result shape.
absl::StatusOr<std::vector<int64_t>> TransposePerm(const NodeContext& ctx, const Shape& in);

// A sliding window (Conv, ConvInteger, MaxPool, AveragePool) with
// kernel/strides/dilations/pads/auto_pad resolved over `in_spatial`.
struct Window {
  std::vector<int64_t> kernel, strides, dilations, pads;  // pads: begin..., end...
  Shape out_spatial;
};
absl::StatusOr<Window> ResolveWindow(const NodeContext& ctx, const Shape& in_spatial,
                                     std::vector<int64_t> kernel, bool ceil_mode);

// Row-major element strides of a shape.
std::vector<int64_t> Strides(const Shape& shape);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_SHAPE_RULES_H_
