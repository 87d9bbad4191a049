// Lowering of the opset-23 transformer ops into the IR's matrix products,
// softmax and elementwise statements: Attention (without a KV cache) and
// RotaryEmbedding.
#include <cmath>
#include <limits>

#include "compiler/import/node_context.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

absl::Status RequireF32(const NodeContext& ctx, int input) {
  if (ctx.HasInput(input) && ctx.InputValue(input).dtype != DType::kF32) {
    return ctx.Unsupported(absl::StrCat("input ", input, ": element type ",
                                        DTypeName(ctx.InputValue(input).dtype), " is not supported"));
  }
  return absl::OkStatus();
}

// Statements for one node, each result a float32 temporary named after it.
class Steps {
 public:
  explicit Steps(NodeContext& ctx) : ctx_(ctx) {}
  ValueId Op(OpKind op, std::vector<ValueId> operands, const Shape& shape, const std::string& name) {
    ValueId r = ctx_.Temp(DType::kF32, shape, "." + name);
    ctx_.Emit(op, std::move(operands), {r});
    return r;
  }
  ValueId Scalar(double v, const std::string& name) { return ctx_.ScalarConstant(DType::kF32, v, "." + name); }
  ValueId View(ValueId v, const Shape& shape, const std::string& name) { return ctx_.Reshaped(v, shape, "." + name); }
  ValueId Transpose(ValueId v, const std::vector<int64_t>& perm, const std::string& name) {
    const Shape in = Shape_(v);
    Shape out;
    for (int64_t p : perm) out.push_back(in[p]);
    ValueId r = ctx_.Temp(DType::kF32, out, "." + name);
    ctx_.Emit(OpKind::kTranspose, {v}, {r}).attrs["perm"] = perm;
    return r;
  }
  // a (..., m, k) x b (..., k, n), batch dims broadcast (equal rank).
  ValueId MatMul(ValueId a, ValueId b, const std::string& name) {
    const Shape sa = Shape_(a), sb = Shape_(b);
    Shape out;
    int64_t batch = 1;
    for (size_t i = 0; i + 2 < sa.size(); ++i) {
      out.push_back(std::max(sa[i], sb[i]));
      batch *= out.back();
    }
    const int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
    out.push_back(m);
    out.push_back(n);
    ValueId r = ctx_.Temp(DType::kF32, out, "." + name);
    ctx_.Emit(OpKind::kMatMul, {a, b}, {r}).macs = batch * m * n * k;
    return r;
  }
  ValueId Slice(ValueId v, int64_t start, int64_t step, int64_t count, const std::string& name) {
    Shape shape = Shape_(v);
    std::vector<int64_t> starts(shape.size(), 0), steps(shape.size(), 1);
    starts.back() = start;
    steps.back() = step;
    shape.back() = count;
    ValueId r = ctx_.Temp(DType::kF32, shape, "." + name);
    Statement& s = ctx_.Emit(OpKind::kSlice, {v}, {r});
    s.attrs["starts"] = starts;
    s.attrs["steps"] = steps;
    return r;
  }
  ValueId Concat(std::vector<ValueId> parts, int64_t axis, const std::string& name) {
    Shape shape = Shape_(parts[0]);
    shape[axis] = 0;
    for (ValueId p : parts) shape[axis] += Shape_(p)[axis];
    ValueId r = ctx_.Temp(DType::kF32, shape, "." + name);
    ctx_.Emit(OpKind::kConcat, std::move(parts), {r}).attrs["axis"] = axis;
    return r;
  }
  // Binds output 0 to `v` under `shape` (a view).
  void Output(ValueId v, const Shape& shape) {
    ValueId y = ctx_.NewResult(0, DType::kF32, shape);
    ctx_.Emit(OpKind::kReshape, {v}, {y});
  }
  Shape Shape_(ValueId v) const { return ctx_.program().value(v).shape; }

 private:
  NodeContext& ctx_;
};

// Attention-23 without past key/value: softmax(softcap(Q K^T scale) + mask)
// V per head; grouped-query heads share a key/value head (q head h reads kv
// head h / (q_heads / kv_heads)). 3-D inputs are (batch, seq, heads x size).
absl::Status LowerAttention(NodeContext& ctx) {
  for (int i = 0; i < 3; ++i) OC_RETURN_IF_ERROR(RequireF32(ctx, i));
  if (ctx.HasInput(4) || ctx.HasInput(5)) return ctx.Unsupported("past_key and past_value (a KV cache) are not supported");
  if (ctx.HasOutput(3)) return ctx.Unsupported("the qk_matmul_output output is not supported");
  OC_ASSIGN_OR_RETURN(int64_t causal, ctx.AttrInt("is_causal", 0));
  OC_ASSIGN_OR_RETURN(float softcap, ctx.AttrFloat("softcap", 0.0f));
  const int64_t rank = static_cast<int64_t>(ctx.InputValue(0).shape.size());
  if ((rank != 3 && rank != 4) || ctx.InputValue(1).shape.size() != static_cast<size_t>(rank) ||
      ctx.InputValue(2).shape.size() != static_cast<size_t>(rank)) {
    return ctx.Invalid("Q, K and V must all be 3-D or all 4-D");
  }
  Steps st(ctx);
  ValueId q = ctx.Input(0), k = ctx.Input(1), v = ctx.Input(2);
  if (rank == 3) {  // (B, S, H x D) -> (B, H, S, D)
    OC_ASSIGN_OR_RETURN(int64_t hq, ctx.AttrInt("q_num_heads", std::nullopt));
    OC_ASSIGN_OR_RETURN(int64_t hkv, ctx.AttrInt("kv_num_heads", std::nullopt));
    auto heads = [&](ValueId x, int64_t h, const char* name) -> absl::StatusOr<ValueId> {
      const Shape s = st.Shape_(x);
      if (h <= 0 || s[2] % h != 0) return ctx.Invalid("the hidden size does not split into the heads");
      return st.Transpose(st.View(x, {s[0], s[1], h, s[2] / h}, std::string(name) + "_split"), {0, 2, 1, 3},
                          std::string(name) + "_heads");
    };
    OC_ASSIGN_OR_RETURN(q, heads(q, hq, "q"));
    OC_ASSIGN_OR_RETURN(k, heads(k, hkv, "k"));
    OC_ASSIGN_OR_RETURN(v, heads(v, hkv, "v"));
  }
  const Shape qs = st.Shape_(q), ks = st.Shape_(k), vs = st.Shape_(v);
  const int64_t b = qs[0], hq = qs[1], sq = qs[2], d = qs[3], hkv = ks[1], skv = ks[2], dv = vs[3];
  if (ks[0] != b || vs[0] != b || vs[1] != hkv || vs[2] != skv || ks[3] != d || hq % hkv != 0) {
    return ctx.Invalid("Q, K and V do not agree in batch, heads, sequence or head size");
  }
  const int64_t g = hq / hkv;
  OC_ASSIGN_OR_RETURN(float scale, ctx.AttrFloat("scale", static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)))));
  ValueId kt = st.View(st.Transpose(k, {0, 1, 3, 2}, "k_t"), {b, hkv, 1, d, skv}, "k_t5");
  ValueId scores = st.MatMul(st.View(q, {b, hkv, g, sq, d}, "q5"), kt, "qk");
  scores = st.Op(OpKind::kMul, {scores, st.Scalar(scale, "scale")}, {b, hkv, g, sq, skv}, "qk_scaled");
  scores = st.View(scores, {b, hq, sq, skv}, "qk4");
  const Shape score_shape = {b, hq, sq, skv};
  // softcap * tanh(scores / softcap) comes before the masks (as ONNX Runtime
  // computes it).
  if (softcap > 0.0f) {
    ValueId cap = st.Scalar(softcap, "softcap");
    scores = st.Op(OpKind::kDiv, {scores, cap}, score_shape, "capped_in");
    scores = st.Op(OpKind::kTanh, {scores}, score_shape, "capped_tanh");
    scores = st.Op(OpKind::kMul, {scores, cap}, score_shape, "capped");
  }
  if (ctx.HasInput(3)) {
    const Value& mask = ctx.InputValue(3);
    OC_ASSIGN_OR_RETURN(Shape bias_shape, BroadcastShapes(ctx, score_shape, mask.shape));
    if (bias_shape != score_shape) return ctx.Invalid("attn_mask does not broadcast to the scores");
    ValueId bias = ctx.Input(3);
    if (mask.dtype == DType::kBool) {
      Shape ms = mask.shape;
      bias = st.Op(OpKind::kWhere,
                   {ctx.Input(3), st.Scalar(0.0, "keep"), st.Scalar(-std::numeric_limits<double>::infinity(), "drop")},
                   ms, "mask_bias");
    } else if (mask.dtype != DType::kF32) {
      return ctx.Unsupported("attn_mask must be bool or float32");
    }
    scores = st.Op(OpKind::kAdd, {scores, bias}, score_shape, "masked");
  }
  if (causal) {  // key j is hidden from query i when j > i
    HostTensor tri = HostTensor::Zeros(DType::kF32, {sq, skv});
    for (int64_t i = 0; i < sq; ++i) {
      for (int64_t j = i + 1; j < skv; ++j) tri.SetDouble(i * skv + j, -std::numeric_limits<double>::infinity());
    }
    ValueId bias = ctx.program().AddConstant(ctx.node().output(0) + ".causal", DType::kF32, {sq, skv},
                                             std::move(tri.bytes));
    scores = st.Op(OpKind::kAdd, {scores, bias}, score_shape, "causal");
  }
  ValueId probs = ctx.Temp(DType::kF32, score_shape, ".probs");
  Statement& sm = ctx.Emit(OpKind::kSoftmax, {scores}, {probs});
  sm.attrs["axis"] = int64_t{3};
  sm.attrs["coerce_2d"] = int64_t{0};
  ValueId y = st.MatMul(st.View(probs, {b, hkv, g, sq, skv}, "probs5"), st.View(v, {b, hkv, 1, skv, dv}, "v5"), "pv");
  if (rank == 4) {
    st.Output(y, {b, hq, sq, dv});
  } else {
    st.Output(st.Transpose(st.View(y, {b, hq, sq, dv}, "pv4"), {0, 2, 1, 3}, "heads_merged"), {b, sq, hq * dv});
  }
  // present_key / present_value without a cache: the keys and values.
  if (ctx.HasOutput(1)) ctx.BindOutput(1, k);
  if (ctx.HasOutput(2)) ctx.BindOutput(2, v);
  return absl::OkStatus();
}

// RotaryEmbedding-23: the first rotary_embedding_dim features of each head
// rotated pairwise by the cached angles at each position (pairs are the two
// halves, or neighbours when interleaved); the rest pass through.
absl::Status LowerRotaryEmbedding(NodeContext& ctx) {
  for (int i = 0; i < 3; ++i) OC_RETURN_IF_ERROR(RequireF32(ctx, i));
  OC_ASSIGN_OR_RETURN(int64_t interleaved, ctx.AttrInt("interleaved", 0));
  OC_ASSIGN_OR_RETURN(int64_t rot_attr, ctx.AttrInt("rotary_embedding_dim", 0));
  const Shape xs = ctx.InputValue(0).shape;
  Steps st(ctx);
  ValueId x = ctx.Input(0);
  int64_t b = 0, h = 0, s = 0, d = 0;
  if (xs.size() == 4) {
    b = xs[0], h = xs[1], s = xs[2], d = xs[3];
  } else if (xs.size() == 3) {
    OC_ASSIGN_OR_RETURN(h, ctx.AttrInt("num_heads", std::nullopt));
    if (h <= 0 || xs[2] % h != 0) return ctx.Invalid("the hidden size does not split into num_heads");
    b = xs[0], s = xs[1], d = xs[2] / h;
    x = st.View(x, {b, s, h, d}, "heads");
  } else {
    return ctx.Invalid("X must be 3-D or 4-D");
  }
  const int64_t rot = rot_attr == 0 ? d : rot_attr;
  if (rot <= 0 || rot > d || rot % 2 != 0) return ctx.Invalid("rotary_embedding_dim must be even and at most the head size");
  const int64_t half = rot / 2;
  // cos and sin as (B, S, rot / 2): gathered by position_ids at compile time.
  ValueId cos = ctx.Input(1), sin = ctx.Input(2);
  if (ctx.HasInput(3)) {
    OC_ASSIGN_OR_RETURN(std::vector<int64_t> pos, ctx.ConstantInts(3, "position_ids"));
    if (!ctx.IsConstantInput(1) || !ctx.IsConstantInput(2)) {
      return ctx.Unsupported("with position_ids, cos_cache and sin_cache must be constants");
    }
    if (static_cast<int64_t>(pos.size()) != b * s) return ctx.Invalid("position_ids must be (batch, sequence)");
    for (int c = 1; c <= 2; ++c) {
      HostTensor cache = ctx.ConstantInput(c);
      if (cache.shape.size() != 2 || cache.shape[1] != half) return ctx.Invalid("a cache must be (positions, rotary_embedding_dim / 2)");
      HostTensor gathered = HostTensor::Zeros(DType::kF32, {b, s, half});
      for (size_t i = 0; i < pos.size(); ++i) {
        if (pos[i] < 0 || pos[i] >= cache.shape[0]) return ctx.Invalid("a position id is outside the cache");
        for (int64_t j = 0; j < half; ++j) gathered.SetDouble(static_cast<int64_t>(i) * half + j, cache.GetDouble(pos[i] * half + j));
      }
      ValueId id = ctx.program().AddConstant(ctx.node().output(0) + (c == 1 ? ".cos" : ".sin"), DType::kF32,
                                             {b, s, half}, std::move(gathered.bytes));
      (c == 1 ? cos : sin) = id;
    }
  } else if (st.Shape_(cos) != Shape{b, s, half} || st.Shape_(sin) != Shape{b, s, half}) {
    return ctx.Invalid("without position_ids, the caches must be (batch, sequence, rotary_embedding_dim / 2)");
  }
  // Broadcast over the heads: (B, 1, S, half) for (B, H, S, D), (B, S, 1, half) for (B, S, H, D).
  const Shape angle = xs.size() == 4 ? Shape{b, 1, s, half} : Shape{b, s, 1, half};
  cos = st.View(cos, angle, "cos4");
  sin = st.View(sin, angle, "sin4");
  const Shape xshape = st.Shape_(x);
  Shape part = xshape;
  part.back() = half;
  ValueId x1 = interleaved ? st.Slice(x, 0, 2, half, "x_even") : st.Slice(x, 0, 1, half, "x_first");
  ValueId x2 = interleaved ? st.Slice(x, 1, 2, half, "x_odd") : st.Slice(x, half, 1, half, "x_second");
  ValueId o1 = st.Op(OpKind::kSub, {st.Op(OpKind::kMul, {x1, cos}, part, "x1_cos"), st.Op(OpKind::kMul, {x2, sin}, part, "x2_sin")},
                     part, "rot1");
  ValueId o2 = st.Op(OpKind::kAdd, {st.Op(OpKind::kMul, {x2, cos}, part, "x2_cos"), st.Op(OpKind::kMul, {x1, sin}, part, "x1_sin")},
                     part, "rot2");
  const int64_t last = static_cast<int64_t>(xshape.size()) - 1;
  ValueId rotated;
  if (interleaved) {
    Shape pair = part;
    pair.push_back(1);
    Shape rot_shape = part;
    rot_shape.back() = rot;
    rotated = st.View(st.Concat({st.View(o1, pair, "rot1_pair"), st.View(o2, pair, "rot2_pair")}, last + 1, "pairs"),
                      rot_shape, "rotated");
  } else {
    rotated = st.Concat({o1, o2}, last, "rotated");
  }
  if (rot < d) rotated = st.Concat({rotated, st.Slice(x, rot, 1, d - rot, "pass")}, last, "joined");
  st.Output(rotated, xs);
  return absl::OkStatus();
}

}  // namespace

void RegisterAttentionLowerings(std::unordered_map<std::string, LowerFn>& t) {
  t["Attention"] = LowerAttention;
  t["RotaryEmbedding"] = LowerRotaryEmbedding;
}

}  // namespace oc
