#include "compiler/import/shape_rules.h"

#include <algorithm>
#include <set>

#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "compiler/support/status.h"

namespace oc {

std::vector<int64_t> Strides(const Shape& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) {
    // Saturates: callers reject such shapes, but must not overflow first.
    if (__builtin_mul_overflow(s[i + 1], shape[i + 1], &s[i])) s[i] = INT64_MAX;
  }
  return s;
}

absl::StatusOr<Shape> ReshapeTarget(const NodeContext& ctx, const Shape& in,
                                    const std::vector<int64_t>& spec, bool allowzero) {
  Shape out(spec.size());
  int infer = -1;
  int64_t known = 1;
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t d = spec[i];
    if (d == 0 && !allowzero) {
      if (i >= in.size()) return ctx.Invalid("shape copies a dimension the input does not have");
      d = in[i];
    }
    if (d == -1) {
      if (infer >= 0) return ctx.Invalid("shape has more than one -1");
      infer = static_cast<int>(i);
      continue;
    }
    if (d <= 0) return ctx.Invalid(absl::StrCat("shape has an invalid dimension ", d));
    if (known > kMaxTensorBytes / d) {
      return ctx.Invalid(absl::StrCat("shape has more than 2^31 elements (dimension ", d, ")"));
    }
    out[i] = d;
    known *= d;
  }
  int64_t total = NumElements(in);
  if (infer >= 0) {
    if (known == 0 || total % known != 0) {
      return ctx.Invalid(absl::StrCat("cannot reshape ", FormatShape(in), " with a -1 dimension"));
    }
    out[infer] = total / known;
  }
  if (NumElements(out) != total) {
    return ctx.Invalid(absl::StrCat("cannot reshape ", FormatShape(in), " to ", FormatShape(out)));
  }
  return out;
}

absl::StatusOr<Shape> FlattenShape(const NodeContext& ctx, const Shape& in) {
  int64_t rank = static_cast<int64_t>(in.size());
  OC_ASSIGN_OR_RETURN(int64_t axis, ctx.AttrInt("axis", 1));
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank) return ctx.Invalid("axis is out of range");
  Shape head(in.begin(), in.begin() + axis);
  const int64_t outer = NumElements(head);
  return Shape{outer, NumElements(in) / outer};
}

namespace {

absl::StatusOr<std::vector<int64_t>> AxesArgument(const NodeContext& ctx, int since_opset_input) {
  if (ctx.opset() >= since_opset_input) {
    if (!ctx.HasInput(1)) return std::vector<int64_t>{};
    return ctx.ConstantInts(1, "axes");
  }
  return ctx.AttrInts("axes", std::vector<int64_t>{});
}

}  // namespace

absl::StatusOr<Shape> SqueezeShape(const NodeContext& ctx, const Shape& in) {
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, AxesArgument(ctx, 13));
  int64_t rank = static_cast<int64_t>(in.size());
  std::set<int64_t> drop;
  for (int64_t a : axes) {
    OC_ASSIGN_OR_RETURN(int64_t n, NormalizeAxis(ctx, a, rank));
    if (in[n] != 1) return ctx.Invalid(absl::StrCat("cannot squeeze dimension ", n, " of size ", in[n]));
    drop.insert(n);
  }
  Shape out;
  for (int64_t i = 0; i < rank; ++i) {
    bool squeeze = axes.empty() ? in[i] == 1 : drop.count(i) != 0;
    if (!squeeze) out.push_back(in[i]);
  }
  return out;
}

absl::StatusOr<Shape> UnsqueezeShape(const NodeContext& ctx, const Shape& in) {
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, AxesArgument(ctx, 13));
  int64_t rank = static_cast<int64_t>(in.size() + axes.size());
  std::set<int64_t> add;
  for (int64_t a : axes) {
    OC_ASSIGN_OR_RETURN(int64_t n, NormalizeAxis(ctx, a, rank));
    if (!add.insert(n).second) return ctx.Invalid("axes has a duplicate");
  }
  Shape out;
  size_t next = 0;
  for (int64_t i = 0; i < rank; ++i) out.push_back(add.count(i) ? 1 : in[next++]);
  return out;
}

absl::StatusOr<SliceSpec> SliceFor(const NodeContext& ctx, const Shape& in) {
  int64_t rank = static_cast<int64_t>(in.size());
  std::vector<int64_t> starts, ends, axes, steps;
  if (ctx.opset() < 10) {
    OC_ASSIGN_OR_RETURN(starts, ctx.AttrInts("starts", std::nullopt));
    OC_ASSIGN_OR_RETURN(ends, ctx.AttrInts("ends", std::nullopt));
    OC_ASSIGN_OR_RETURN(axes, ctx.AttrInts("axes", std::vector<int64_t>{}));
  } else {
    OC_ASSIGN_OR_RETURN(starts, ctx.ConstantInts(1, "starts"));
    OC_ASSIGN_OR_RETURN(ends, ctx.ConstantInts(2, "ends"));
    if (ctx.HasInput(3)) {
      OC_ASSIGN_OR_RETURN(axes, ctx.ConstantInts(3, "axes"));
    }
    if (ctx.HasInput(4)) {
      OC_ASSIGN_OR_RETURN(steps, ctx.ConstantInts(4, "steps"));
    }
  }
  if (axes.empty()) {
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (starts.size() != ends.size() || starts.size() != axes.size() ||
      starts.size() != steps.size()) {
    return ctx.Invalid("starts, ends, axes and steps differ in length");
  }
  SliceSpec spec;
  spec.starts.assign(rank, 0);
  spec.steps.assign(rank, 1);
  spec.shape = in;
  std::set<int64_t> seen;
  for (size_t i = 0; i < axes.size(); ++i) {
    OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, axes[i], rank));
    if (!seen.insert(axis).second) return ctx.Invalid("axes has a duplicate");
    int64_t dim = in[axis], step = steps[i];
    if (step == 0) return ctx.Invalid("a slice step is 0");
    // A step beyond the dimension takes one element, as a step of the
    // dimension does; clamping keeps the arithmetic below (and the strides
    // emitted from it) in range.
    step = std::clamp<int64_t>(step, -dim, dim);
    int64_t start = starts[i], end = ends[i];
    if (start < 0) start = start < -dim ? -1 : start + dim;
    if (end < 0) end = end < -dim ? -1 : end + dim;
    if (step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
    } else {
      start = std::clamp<int64_t>(start, -1, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
    }
    int64_t count = step > 0 ? (end - start + step - 1) / step : (start - end + (-step) - 1) / (-step);
    count = std::max<int64_t>(count, 0);  // an empty slice is an empty tensor
    spec.starts[axis] = start;
    spec.steps[axis] = step;
    spec.shape[axis] = count;
  }
  return spec;
}

absl::StatusOr<GatherSpec> GatherFor(const NodeContext& ctx, const Shape& in) {
  GatherSpec spec;
  int64_t rank = static_cast<int64_t>(in.size());
  OC_ASSIGN_OR_RETURN(int64_t axis, ctx.AttrInt("axis", 0));
  OC_ASSIGN_OR_RETURN(spec.axis, NormalizeAxis(ctx, axis, rank));
  OC_ASSIGN_OR_RETURN(spec.indices, ctx.ConstantInts(1, "indices"));
  spec.indices_shape = ctx.InputValue(1).shape;
  int64_t dim = in[spec.axis];
  for (int64_t& idx : spec.indices) {
    if (idx < -dim || idx >= dim) {
      return ctx.Invalid(absl::StrCat("index ", idx, " is out of range for a dimension of ", dim));
    }
    if (idx < 0) idx += dim;
  }
  for (int64_t i = 0; i < spec.axis; ++i) spec.shape.push_back(in[i]);
  for (int64_t d : spec.indices_shape) spec.shape.push_back(d);
  for (int64_t i = spec.axis + 1; i < rank; ++i) spec.shape.push_back(in[i]);
  return spec;
}

absl::StatusOr<int64_t> ConcatAxis(const NodeContext& ctx, Shape* result) {
  const Shape& first = ctx.InputValue(0).shape;
  int64_t rank = static_cast<int64_t>(first.size());
  // Before opset 4 the axis is optional, defaulting to 1.
  OC_ASSIGN_OR_RETURN(int64_t axis_attr, ctx.AttrInt("axis", ctx.opset() < 4
                                                                 ? std::optional<int64_t>(1)
                                                                 : std::nullopt));
  OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx, axis_attr, rank));
  Shape out = first;
  out[axis] = 0;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.HasInput(i)) continue;
    const Shape& s = ctx.InputValue(i).shape;
    if (static_cast<int64_t>(s.size()) != rank) return ctx.Invalid("inputs differ in rank");
    for (int64_t d = 0; d < rank; ++d) {
      if (d != axis && s[d] != first[d]) {
        return ctx.Invalid(absl::StrCat("input shapes ", FormatShape(first), " and ",
                                        FormatShape(s), " differ outside the axis"));
      }
    }
    out[axis] += s[axis];
  }
  *result = out;
  return axis;
}

absl::StatusOr<std::vector<int64_t>> TransposePerm(const NodeContext& ctx, const Shape& in) {
  int64_t rank = static_cast<int64_t>(in.size());
  std::vector<int64_t> def(rank);
  for (int64_t i = 0; i < rank; ++i) def[i] = rank - 1 - i;
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> perm, ctx.AttrInts("perm", def));
  if (static_cast<int64_t>(perm.size()) != rank) return ctx.Invalid("perm has the wrong length");
  std::vector<bool> used(rank, false);
  for (int64_t& p : perm) {
    OC_ASSIGN_OR_RETURN(p, NormalizeAxis(ctx, p, rank));
    if (used[p]) return ctx.Invalid("perm is not a permutation");
    used[p] = true;
  }
  return perm;
}

absl::StatusOr<Window> ResolveWindow(const NodeContext& ctx, const Shape& in_spatial,
                                     std::vector<int64_t> kernel, bool ceil_mode) {
  const size_t n = in_spatial.size();
  Window w;
  w.kernel = std::move(kernel);
  OC_ASSIGN_OR_RETURN(w.strides, ctx.AttrInts("strides", std::vector<int64_t>(n, 1)));
  OC_ASSIGN_OR_RETURN(w.dilations, ctx.AttrInts("dilations", std::vector<int64_t>(n, 1)));
  OC_ASSIGN_OR_RETURN(w.pads, ctx.AttrInts("pads", std::vector<int64_t>(2 * n, 0)));
  OC_ASSIGN_OR_RETURN(std::string auto_pad, ctx.AttrString("auto_pad", "NOTSET"));
  if (w.kernel.size() != n || w.strides.size() != n || w.dilations.size() != n ||
      w.pads.size() != 2 * n) {
    return ctx.Invalid("kernel_shape, strides, dilations or pads have the wrong length");
  }
  for (size_t i = 0; i < n; ++i) {
    if (w.kernel[i] <= 0) return ctx.Invalid("kernel dimensions must be positive");
    if (w.strides[i] <= 0) return ctx.Invalid("strides must be positive");
    if (w.dilations[i] <= 0) return ctx.Invalid("dilations must be positive");
    if (w.pads[i] < 0 || w.pads[n + i] < 0) return ctx.Invalid("pads must not be negative");
  }
  w.out_spatial.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t in = in_spatial[i], k = w.kernel[i], s = w.strides[i], d = w.dilations[i];
    const int64_t extent = d * (k - 1) + 1;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      int64_t out = (in + s - 1) / s;
      int64_t total = std::max<int64_t>(0, (out - 1) * s + extent - in);
      int64_t small = total / 2, large = total - small;
      w.pads[i] = auto_pad == "SAME_UPPER" ? small : large;
      w.pads[n + i] = auto_pad == "SAME_UPPER" ? large : small;
      w.out_spatial[i] = out;
      continue;
    }
    if (auto_pad == "VALID") {
      w.pads[i] = w.pads[n + i] = 0;
    } else if (auto_pad != "NOTSET") {
      return ctx.Invalid(absl::StrCat("auto_pad '", auto_pad, "' is not valid"));
    }
    const int64_t span = in + w.pads[i] + w.pads[n + i] - extent;
    if (span < 0) {
      return ctx.Invalid(absl::StrCat("the window (", extent, ") is larger than the padded input (",
                                      in + w.pads[i] + w.pads[n + i], ")"));
    }
    int64_t out = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
    // A window that would start in the end padding is dropped (ceil_mode).
    if (ceil_mode && (out - 1) * s >= in + w.pads[i]) --out;
    w.out_spatial[i] = out;
  }
  return w;
}

}  // namespace oc
