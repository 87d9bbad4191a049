// Turns quantized layers into 8-bit statements (qlinear_conv, qlinear_gemm,
// qlinear_add, qlinear_mul, qlinear_average_pool, qlinear_global_average_pool)
// whose operands are the 8-bit tensors, the int32 bias and the constant scales
// and zero points. Two forms are recognized:
//   - QDQ: DequantizeLinear -> Conv/Gemm/MatMul/Add/Mul/pool (with a fused
//     Relu/Clip) -> QuantizeLinear;
//   - QOperator, as the importer lowers QLinearConv / QLinearMatMul:
//     conv_integer / matmul_integer -> requantize.
// Everything else stays on the float path; DequantizeLinear statements that
// lose their last reader are left to dce.
#include <algorithm>
#include <cmath>
#include <optional>

#include "compiler/support/status.h"
#include "passes/transforms/rewrite_utils.h"
#include "passes/transforms/rewrites.h"

namespace oc {
namespace {

bool Is8Bit(DType t) { return t == DType::kI8 || t == DType::kU8; }

// The quantization of an 8-bit tensor as fused operands.
struct QParams {
  ValueId q = kNoValue;      // the 8-bit (or int32 bias) tensor
  ValueId scale = kNoValue;  // constant float32
  ValueId zp = kNoValue;     // constant, the tensor's type
};

class Fuser {
 public:
  explicit Fuser(Program& p)
      : p_(p), stmts_(p.statements()), def_(p.DefiningStatementIndex()), users_(p.UsersIndex()) {}

  int Run() {
    erase_.assign(stmts_.size(), false);
    int fused = 0;
    for (size_t i = 0; i < stmts_.size(); ++i) {
      if (erase_[i]) continue;
      const OpKind op = stmts_[i].op;
      if (op != OpKind::kQuantizeLinear && op != OpKind::kRequantize) continue;
      if (op == OpKind::kQuantizeLinear && RequantizedView(i)) {
        ++fused;
        continue;
      }
      std::optional<Statement> s =
          op == OpKind::kQuantizeLinear ? FromQdq(stmts_[i]) : FromQOperator(stmts_[i]);
      if (!s) continue;
      const int producer = def_[stmts_[i].operands[0]];
      s->results = stmts_[i].results;
      s->node_name = stmts_[producer].node_name + "+" + stmts_[i].node_name;
      s->onnx_op = stmts_[producer].onnx_op;
      s->id = stmts_[producer].id;
      stmts_[producer] = std::move(*s);  // the producer's place in the order
      erase_[i] = true;
      ++fused;
    }
    EraseStatements(p_, erase_);
    return fused;
  }

  // At a model's float edges, a qlinear_gemm reads the float input of the
  // QuantizeLinear that feeds it only, and writes the float output of the
  // DequantizeLinear that alone reads it: the 8-bit tensors never exist.
  // With the graph's inputs in the arena, a QuantizeLinear that alone reads a
  // graph input stays: it writes over the input under an elements overlap
  // contract (no byte more), and the product then reads each element once
  // quantized instead of quantizing it again for every block of columns.
  int FoldEdgeConversions(bool io_in_arena) {
    def_ = p_.DefiningStatementIndex();
    users_ = p_.UsersIndex();
    erase_.assign(stmts_.size(), false);
    int folded = 0;
    for (size_t i = 0; i < stmts_.size(); ++i) {
      Statement& s = stmts_[i];
      if (s.op != OpKind::kQLinearGemm || s.Int("weight_bits", 8) == 4) continue;
      const int qi = def_[s.operands[0]];
      if (qi >= 0 && !erase_[qi] && stmts_[qi].op == OpKind::kQuantizeLinear &&
          OnlyFeeds(s.operands[0], static_cast<int>(i)) &&
          !(io_in_arena && QuantizesOverInput(stmts_[qi]))) {
        std::optional<QParams> q = Quantized(stmts_[qi]);
        if (q && V(stmts_[qi].operands[0]).dtype == DType::kF32 &&
            SameConstant(q->scale, s.operands[1]) && SameConstant(q->zp, s.operands[2])) {
          s.operands[0] = stmts_[qi].operands[0];
          erase_[qi] = true;
          ++folded;
        }
      }
      const ValueId y = s.results[0];
      if (users_[y].size() != 1 || IsGraphOutput(p_, y)) continue;
      const Statement& d = stmts_[users_[y][0]];
      if (d.op == OpKind::kDequantizeLinear && d.operands[0] == y && d.operands.size() > 2 &&
          d.operands[2] != kNoValue && SameConstant(d.operands[1], s.operands[6]) &&
          SameConstant(d.operands[2], s.operands[7])) {
        const int di = users_[y][0];
        s.results = stmts_[di].results;
        erase_[di] = true;
        ++folded;
      }
    }
    EraseStatements(p_, erase_);
    return folded;
  }

 private:
  const Value& V(ValueId v) const { return p_.value(v); }
  bool Const(ValueId v) const { return v != kNoValue && V(v).IsConstant(); }
  bool PerTensor(ValueId scale) const { return V(scale).NumElements() == 1; }

  // QuantizeLinear `q` alone reads a graph input (that is no graph output).
  bool QuantizesOverInput(const Statement& q) const {
    const ValueId x = q.operands[0];
    const std::vector<ValueId>& ins = p_.inputs();
    return std::find(ins.begin(), ins.end(), x) != ins.end() && users_[x].size() == 1 &&
           !IsGraphOutput(p_, x);
  }

  // `v`'s only reader is statement `reader`, and v is no graph output.
  bool OnlyFeeds(ValueId v, int reader) const {
    return users_[v].size() == 1 && users_[v][0] == reader && !IsGraphOutput(p_, v);
  }

  // A zero point of type t (0) for operands that omit it.
  ValueId ZeroOf(DType t) {
    return p_.AddConstant("zero_point", t, {}, std::vector<uint8_t>(DTypeSize(t), 0));
  }
  ValueId ZpOrZero(ValueId zp, DType t) { return zp != kNoValue ? zp : ZeroOf(t); }

  // v as the result of a DequantizeLinear with constant scale and zero point
  // (a per-axis scale on `axis` when allowed; -1: any per-tensor).
  std::optional<QParams> Dequantized(ValueId v, int64_t per_axis) const {
    const int d = def_[v];
    if (d < 0) return std::nullopt;
    const Statement& s = stmts_[d];
    if (s.op != OpKind::kDequantizeLinear || !Const(s.operands[1])) return std::nullopt;
    const ValueId zp = s.operands.size() > 2 ? s.operands[2] : kNoValue;
    if (zp != kNoValue && !Const(zp)) return std::nullopt;
    if (!PerTensor(s.operands[1]) && (per_axis < 0 || s.Int("axis") != per_axis)) {
      return std::nullopt;
    }
    return QParams{s.operands[0], s.operands[1], zp};
  }

  std::optional<QParams> Dequantized8(ValueId v, int64_t per_axis) {
    std::optional<QParams> q = Dequantized(v, per_axis);
    if (!q || !Is8Bit(V(q->q).dtype)) return std::nullopt;
    q->zp = ZpOrZero(q->zp, V(q->q).dtype);
    return q;
  }

  // An int32 bias dequantized with zero point 0 and scale x_scale * w_scale[c]
  // (as quantizers write it; a bias of another scale stays on the float path).
  std::optional<ValueId> Bias(ValueId v, const QParams& x, const QParams& w, int64_t channels,
                              int64_t axis) const {
    std::optional<QParams> b = Dequantized(v, axis);
    if (!b || !Const(b->q) || V(b->q).dtype != DType::kI32 || V(b->q).NumElements() != channels) {
      return std::nullopt;
    }
    if (b->zp != kNoValue) {
      const Value& z = V(b->zp);
      for (uint8_t byte : z.data) {
        if (byte != 0) return std::nullopt;
      }
    }
    const std::vector<float> bs = ConstantAsFloats(V(b->scale)), ws = ConstantAsFloats(V(w.scale));
    const float xs = ConstantAsFloats(V(x.scale))[0];
    for (int64_t c = 0; c < channels; ++c) {
      const float want = xs * ws[ws.size() == 1 ? 0 : c];
      const float got = bs[bs.size() == 1 ? 0 : c];
      if (!(std::fabs(got - want) <= 1e-6f * std::fabs(want))) return std::nullopt;
    }
    return b->q;
  }

  // Saturation bounds of a fused activation, in the output's steps.
  bool ApplyActivation(const Statement& prod, const QParams& y, Statement& s) const {
    const std::string act = prod.Str("act", "none");
    if (act == "none") return true;
    if (act != "relu" && act != "clip") return false;
    const float scale = ConstantAsFloats(V(y.scale))[0];
    const bool is_signed = V(y.zp).dtype == DType::kI8;
    const int64_t zp = is_signed ? static_cast<int8_t>(V(y.zp).data[0]) : V(y.zp).data[0];
    auto quantize = [&](float v) {
      const double q = std::nearbyint(static_cast<double>(v / scale)) + static_cast<double>(zp);
      return static_cast<int64_t>(
          std::fmin(std::fmax(q, is_signed ? -128.0 : 0.0), is_signed ? 127.0 : 255.0));
    };
    int64_t lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
    if (act == "relu") {
      lo = std::max(lo, zp);
    } else {
      lo = std::max(lo, quantize(prod.Float("act_alpha")));
      hi = std::min(hi, quantize(prod.Float("act_beta")));
    }
    s.attrs["qmin"] = lo;
    s.attrs["qmax"] = hi;
    return true;
  }

  // The output quantization of QuantizeLinear q (per tensor, constant).
  std::optional<QParams> Quantized(const Statement& q) {
    if (!Const(q.operands[1]) || !PerTensor(q.operands[1])) return std::nullopt;
    const ValueId zp = q.operands.size() > 2 ? q.operands[2] : kNoValue;
    if (zp != kNoValue && !Const(zp)) return std::nullopt;
    const DType t = V(q.results[0]).dtype;
    if (!Is8Bit(t)) return std::nullopt;
    return QParams{q.results[0], q.operands[1], ZpOrZero(zp, t)};
  }

  // Equal constants (scales and zero points compare by type and bytes).
  bool SameConstant(ValueId a, ValueId b) const {
    return a == b ||
           (V(a).dtype == V(b).dtype && V(a).shape == V(b).shape && V(a).data == V(b).data);
  }

  // QuantizeLinear(reshape(DequantizeLinear(x))) with the same scale and zero
  // point is reshape(x): the 8-bit tensor under a new shape (a view).
  bool RequantizedView(size_t qi) {
    Statement& q = stmts_[qi];
    const int ri = def_[q.operands[0]];
    if (ri < 0 || stmts_[ri].op != OpKind::kReshape) return false;
    std::optional<QParams> x = Dequantized(stmts_[ri].operands[0], -1);
    std::optional<QParams> y = Quantized(q);
    // (Not of a graph output: outputs are caller buffers, a view cannot share them.)
    if (!x || !y || x->zp == kNoValue || IsGraphOutput(p_, x->q) || !PerTensor(x->scale) ||
        V(x->q).dtype != V(y->q).dtype || !SameConstant(x->scale, q.operands[1]) ||
        !SameConstant(x->zp, y->zp)) {
      return false;
    }
    q.op = OpKind::kReshape;
    q.operands = {x->q};
    q.attrs.clear();
    return true;
  }

  static Statement Make(OpKind op, const Statement& from, std::vector<ValueId> operands) {
    Statement s;
    s.op = op;
    s.operands = std::move(operands);
    for (const char* key :
         {"kernel", "strides", "dilations", "pads", "group", "count_include_pad"}) {
      auto it = from.attrs.find(key);
      if (it != from.attrs.end()) s.attrs[key] = it->second;
    }
    s.macs = from.macs;
    return s;
  }

  // A product whose weights came from ONNX int4/uint4 keeps them 4-bit
  // (weight_bits 4: packed two to a byte by the emitter, oc_qconv2d_w4 and
  // oc_qgemm_w4), its weight zero points too.
  Statement WithWeightBits(Statement s, ValueId w) const {
    if (V(w).element_bits == 4 && V(w).shape.size() <= 4) s.attrs["weight_bits"] = int64_t{4};  // 1-D and 2-D
    return s;
  }

  std::optional<Statement> FromQdq(const Statement& q) {
    const ValueId x = q.operands[0];
    const int pi = def_[x];
    if (pi < 0 || erase_[pi] || !OnlyFeeds(x, static_cast<int>(&q - stmts_.data()))) {
      return std::nullopt;
    }
    const Statement& prod = stmts_[pi];
    std::optional<QParams> y = Quantized(q);
    if (!y || prod.results.size() != 1) return std::nullopt;
    std::optional<Statement> s;
    switch (prod.op) {
      case OpKind::kConv:
        s = Conv(prod, *y);
        break;
      case OpKind::kGemm:
        s = Gemm(prod, *y);
        break;
      case OpKind::kMatMul:
        s = MatMul(prod, *y);
        break;
      case OpKind::kAdd:
      case OpKind::kMul:
        s = Binary(prod, *y);
        break;
      case OpKind::kAveragePool:
      case OpKind::kGlobalAveragePool:
        s = Pool(prod, *y);
        break;
      case OpKind::kMaxPool:
        s = MaxPool(prod, *y);
        break;
      case OpKind::kConcat:
        s = Concat(prod, *y);
        break;
      default:
        return std::nullopt;
    }
    if (!s || !ApplyActivation(prod, *y, *s)) return std::nullopt;
    return s;
  }

  std::optional<Statement> Conv(const Statement& prod, const QParams& y) {
    const int64_t c_out = V(prod.results[0]).shape[1];
    std::optional<QParams> x = Dequantized8(prod.operands[0], -1);
    std::optional<QParams> w = Dequantized8(prod.operands[1], 0);
    if (!x || !w || !PerTensor(x->scale) || !Const(w->q)) return std::nullopt;
    std::vector<ValueId> ops = {x->q, x->scale, x->zp, w->q, w->scale, w->zp, y.scale, y.zp};
    if (prod.operands.size() > 2 && prod.operands[2] != kNoValue) {
      std::optional<ValueId> b = Bias(prod.operands[2], *x, *w, c_out, 0);
      if (!b) return std::nullopt;
      ops.push_back(*b);
    }
    return WithWeightBits(Make(OpKind::kQLinearConv, prod, ops), w->q);
  }

  // a [.., m, k] times a constant b [k, n] (or [n, k] when trans_b), per-column scales.
  std::optional<Statement> Product(const Statement& prod, const QParams& y, bool trans_b,
                                   ValueId c) {
    std::optional<QParams> a = Dequantized8(prod.operands[0], -1);
    std::optional<QParams> b = Dequantized8(prod.operands[1], trans_b ? 0 : 1);
    if (!a || !b || !PerTensor(a->scale) || !Const(b->q) || V(b->q).shape.size() != 2) {
      return std::nullopt;
    }
    const int64_t n = V(b->q).shape[trans_b ? 0 : 1];
    std::vector<ValueId> ops = {a->q, a->scale, a->zp, b->q, b->scale, b->zp, y.scale, y.zp};
    if (c != kNoValue) {
      std::optional<ValueId> bias = Bias(c, *a, *b, n, V(c).shape.size() == 2 ? 1 : 0);
      if (!bias) return std::nullopt;
      ops.push_back(*bias);
    }
    Statement s = WithWeightBits(Make(OpKind::kQLinearGemm, prod, ops), b->q);
    s.attrs["trans_b"] = int64_t{trans_b ? 1 : 0};
    return s;
  }

  std::optional<Statement> Gemm(const Statement& prod, const QParams& y) {
    if (prod.Int("trans_a") != 0 || prod.Float("alpha", 1.0f) != 1.0f ||
        prod.Float("beta", 1.0f) != 1.0f) {
      return std::nullopt;
    }
    const ValueId c = prod.operands.size() > 2 ? prod.operands[2] : kNoValue;
    if (c != kNoValue && V(c).shape.size() == 2 && V(c).shape[0] != 1) return std::nullopt;
    return Product(prod, y, prod.Int("trans_b") != 0, c);
  }

  std::optional<Statement> MatMul(const Statement& prod, const QParams& y) {
    if (V(prod.operands[0]).shape.size() < 2) return std::nullopt;
    return Product(prod, y, false, kNoValue);
  }

  std::optional<Statement> Binary(const Statement& prod, const QParams& y) {
    std::optional<QParams> a = Dequantized8(prod.operands[0], -1);
    std::optional<QParams> b = Dequantized8(prod.operands[1], -1);
    const Shape& out = V(prod.results[0]).shape;
    if (!a || !b || !PerTensor(a->scale) || !PerTensor(b->scale) || V(a->q).shape != out ||
        V(b->q).shape != out) {
      return std::nullopt;
    }
    return Make(prod.op == OpKind::kAdd ? OpKind::kQLinearAdd : OpKind::kQLinearMul, prod,
                {a->q, a->scale, a->zp, b->q, b->scale, b->zp, y.scale, y.zp});
  }

  std::optional<Statement> Pool(const Statement& prod, const QParams& y) {
    std::optional<QParams> x = Dequantized8(prod.operands[0], -1);
    if (!x || !PerTensor(x->scale)) return std::nullopt;
    const bool global = prod.op == OpKind::kGlobalAveragePool;
    if (!global) {
      for (int64_t d : prod.Ints("dilations")) {
        if (d != 1) return std::nullopt;
      }
    }
    return Make(global ? OpKind::kQLinearGlobalAveragePool : OpKind::kQLinearAveragePool, prod,
                {x->q, x->scale, x->zp, y.scale, y.zp});
  }

  std::optional<Statement> MaxPool(const Statement& prod, const QParams& y) {
    std::optional<QParams> x = Dequantized8(prod.operands[0], -1);
    if (!x || !PerTensor(x->scale) || prod.results.size() != 1) return std::nullopt;
    return Make(OpKind::kQLinearMaxPool, prod, {x->q, x->scale, x->zp, y.scale, y.zp});
  }

  std::optional<Statement> Concat(const Statement& prod, const QParams& y) {
    std::vector<ValueId> ops;
    for (ValueId v : prod.operands) {
      std::optional<QParams> x = Dequantized8(v, -1);
      if (!x || !PerTensor(x->scale)) return std::nullopt;
      ops.insert(ops.end(), {x->q, x->scale, x->zp});
    }
    ops.insert(ops.end(), {y.scale, y.zp});
    Statement s = Make(OpKind::kQLinearConcat, prod, ops);
    s.attrs["axis"] = prod.Int("axis");
    return s;
  }

  // requantize(conv_integer | matmul_integer, a_scale, b_scale, y_scale, y_zp, bias?).
  std::optional<Statement> FromQOperator(const Statement& rq) {
    const ValueId acc = rq.operands[0];
    const int pi = def_[acc];
    if (pi < 0 || erase_[pi] || !OnlyFeeds(acc, static_cast<int>(&rq - stmts_.data()))) {
      return std::nullopt;
    }
    const Statement& prod = stmts_[pi];
    if (prod.op != OpKind::kConvInteger && prod.op != OpKind::kMatMulInteger) return std::nullopt;
    for (int i = 1; i <= 4; ++i) {
      if (!Const(rq.operands[i])) return std::nullopt;
    }
    for (size_t i = 2; i < prod.operands.size(); ++i) {
      if (prod.operands[i] != kNoValue && !Const(prod.operands[i])) return std::nullopt;
    }
    const ValueId a = prod.operands[0], b = prod.operands[1];
    auto zp = [&](size_t i, ValueId of) {
      return i < prod.operands.size() && prod.operands[i] != kNoValue ? prod.operands[i]
                                                                      : ZeroOf(V(of).dtype);
    };
    const bool conv = prod.op == OpKind::kConvInteger;
    if (!conv && (V(b).shape.size() != 2 || !Const(b) || V(zp(2, a)).NumElements() != 1)) {
      return std::nullopt;
    }
    std::vector<ValueId> ops = {a,        rq.operands[1], zp(2, a),      b, rq.operands[2],
                                zp(3, b), rq.operands[3], rq.operands[4]};
    if (rq.operands.size() > 5 && rq.operands[5] != kNoValue) ops.push_back(rq.operands[5]);
    Statement s = Make(conv ? OpKind::kQLinearConv : OpKind::kQLinearGemm, prod, ops);
    if (!conv) s.attrs["trans_b"] = int64_t{0};
    return s;
  }

  Program& p_;
  std::vector<Statement>& stmts_;
  std::vector<int> def_;
  std::vector<std::vector<int>> users_;
  std::vector<bool> erase_;
};

}  // namespace

absl::Status RunFuseQdq(Program& p, PassStats& stats, bool io_in_arena) {
  Fuser fuser(p);
  stats.Add("fuse-qdq", "fused", fuser.Run());
  // The DequantizeLinear statements the fusion left unread would still count as readers.
  OC_RETURN_IF_ERROR(RunDeadCodeElimination(p, stats));
  stats.Add("fuse-qdq", "edge-conversions", fuser.FoldEdgeConversions(io_in_arena));
  p.CompactValues();
  return absl::OkStatus();
}

}  // namespace oc
