#include "compiler/import/lower_shape_operands.h"

#include <bitset>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/printer.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

// The operand's own error (a constant is required) unless it is an int64
// vector graph input and output 0 has a static declared shape of `x`'s
// element count; then that shape.
absl::StatusOr<Shape> DeclaredShapeForOperand(const NodeContext& ctx, const char* what) {
  const Value& x = ctx.InputValue(0);
  const Value& operand = ctx.InputValue(1);
  const std::optional<Shape> declared = ctx.DeclaredOutputShape(0);
  if (operand.kind != ValueKind::kInput || operand.dtype != DType::kI64 ||
      operand.shape.size() != 1 || !declared || declared->size() > 8 ||
      NumElements(*declared) != NumElements(x.shape) || NumElements(x.shape) == 0) {
    OC_RETURN_IF_ERROR(ctx.ConstantInts(1, what).status());
  }
  return *declared;
}

Statement& EmitCheckedReshape(NodeContext& ctx, const Shape& shape) {
  const Value& x = ctx.InputValue(0);
  ValueId y = ctx.NewResult(0, x.dtype, shape);
  return ctx.Emit(OpKind::kCheckedReshape, {ctx.Input(0), ctx.Input(1)}, {y});
}

// `in` with ones inserted at the set bits of mask (rank bits), or removed
// there when squeezing (each such dim must be 1).
std::optional<Shape> AxesApplied(const Shape& in, int64_t mask, int64_t rank, bool squeeze) {
  Shape out;
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d) {
    const bool listed = (mask >> d) & 1;
    if (squeeze) {
      if (listed && in[d] != 1) return std::nullopt;
      if (!listed) out.push_back(in[d]);
    } else {
      out.push_back(listed ? 1 : in[next++]);
    }
  }
  return out;
}

}  // namespace

absl::Status LowerReshapeWithRunTimeShape(NodeContext& ctx) {
  OC_ASSIGN_OR_RETURN(Shape shape, DeclaredShapeForOperand(ctx, "shape"));
  if (ctx.InputValue(1).shape[0] != static_cast<int64_t>(shape.size())) {
    return ctx.Invalid(absl::StrCat("shape has ", ctx.InputValue(1).shape[0],
                                    " elements but the declared output shape is ",
                                    FormatShape(shape)));
  }
  OC_ASSIGN_OR_RETURN(int64_t allowzero, ctx.AttrInt("allowzero", 0));
  EmitCheckedReshape(ctx, shape).attrs["allowzero"] = allowzero ? int64_t{1} : int64_t{0};
  return absl::OkStatus();
}

absl::Status LowerSqueezeWithRunTimeAxes(NodeContext& ctx, bool squeeze) {
  OC_ASSIGN_OR_RETURN(Shape shape, DeclaredShapeForOperand(ctx, "axes"));
  const Shape& in = ctx.InputValue(0).shape;
  const int64_t count = ctx.InputValue(1).shape[0];
  const int64_t rank = static_cast<int64_t>(squeeze ? in.size() : in.size() + count);
  std::vector<int64_t> masks;
  for (int64_t m = 0; rank <= 8 && m < (int64_t{1} << rank); ++m) {
    if (static_cast<int64_t>(std::bitset<8>(static_cast<unsigned long>(m)).count()) != count) continue;
    if (AxesApplied(in, m, rank, squeeze) == shape) masks.push_back(m);
  }
  if (masks.empty()) {
    return ctx.Invalid(absl::StrCat("no ", count, " axes give the declared output shape ",
                                    FormatShape(shape), " from ", FormatShape(in)));
  }
  Statement& s = EmitCheckedReshape(ctx, shape);
  s.attrs["run_time_axes_masks"] = masks;
  s.attrs["run_time_axes_rank"] = rank;
  return absl::OkStatus();
}

}  // namespace oc
