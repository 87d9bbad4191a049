#include "passes/transforms/quantized_io.h"

#include <cstring>
#include <optional>

#include "absl/strings/str_cat.h"
#include "compiler/support/status.h"
#include "passes/transforms/rewrite_utils.h"

namespace oc {
namespace {

bool Is8Bit(DType t) { return t == DType::kI8 || t == DType::kU8; }

// What a QuantizeLinear or DequantizeLinear statement quantizes with.
struct Quantization {
  DType dtype = DType::kU8;
  float scale = 0.0f;
  int64_t zero_point = 0;
  bool operator==(const Quantization& o) const {
    return dtype == o.dtype && std::memcmp(&scale, &o.scale, sizeof scale) == 0 &&
           zero_point == o.zero_point;
  }
};

std::string NodeAndOp(const Statement& s) {
  return absl::StrCat("node '", s.node_name, "' (", s.onnx_op, ")");
}

class IoConverter {
 public:
  IoConverter(Program& p, PassStats& stats)
      : p_(p), stats_(stats), def_(p.DefiningStatementIndex()), users_(p.UsersIndex()),
        erase_(p.statements().size(), false) {}

  absl::Status Run(std::vector<std::string>* kept_float) {
    for (ValueId x : p_.inputs()) {
      if (p_.value(x).dtype == DType::kF32) OC_RETURN_IF_ERROR(ConvertInput(x));
    }
    for (size_t j = 0; j < p_.outputs().size(); ++j) {
      const ValueId y = p_.outputs()[j];
      if (p_.value(y).dtype != DType::kF32) continue;
      const int d = def_[y];
      if (d >= 0 && p_.statements()[d].op == OpKind::kDequantizeLinear &&
          IsGraphOutput(p_, p_.statements()[d].operands[0])) {
        if (kept_float) {
          kept_float->push_back(absl::StrCat("output '", p_.value(y).name, "' stays float: ",
                                             NodeAndOp(p_.statements()[d]),
                                             " dequantizes another graph output"));
        }
      } else if (d >= 0 && p_.statements()[d].op == OpKind::kDequantizeLinear) {
        OC_RETURN_IF_ERROR(ConvertOutput(j, d));
      } else if (kept_float) {
        kept_float->push_back(absl::StrCat(
            "output '", p_.value(y).name, "' stays float: ",
            d >= 0 ? absl::StrCat("it is written by ", NodeAndOp(p_.statements()[d]))
                   : std::string("no statement writes it"),
            ", not by DequantizeLinear"));
      }
    }
    EraseStatements(p_, erase_);
    p_.CompactValues();
    return absl::OkStatus();
  }

 private:
  // The statement's type, per-tensor constant scale and zero point (absent:
  // uint8, 0), or nothing.
  std::optional<Quantization> Of(const Statement& s, DType dtype) const {
    const ValueId scale = s.operands[1];
    const ValueId zp = s.operands.size() > 2 ? s.operands[2] : kNoValue;
    const Value& sv = p_.value(scale);
    if (!sv.IsConstant() || sv.NumElements() != 1 || sv.dtype != DType::kF32) return std::nullopt;
    Quantization q;
    q.dtype = dtype;
    std::memcpy(&q.scale, sv.data.data(), sizeof q.scale);
    if (zp != kNoValue) {
      const Value& zv = p_.value(zp);
      if (!zv.IsConstant() || zv.NumElements() != 1 || zv.dtype != dtype) return std::nullopt;
      q.zero_point = dtype == DType::kI8 ? static_cast<int8_t>(zv.data[0]) : zv.data[0];
    }
    return q;
  }

  absl::Status Refuse(const std::string& what, const std::string& why) const {
    return absl::InvalidArgumentError(absl::StrCat("--quantized-io: ", what, " ", why));
  }

  // Every reader of `x` is a QuantizeLinear of the same quantization: x takes
  // its type, their results are x.
  absl::Status ConvertInput(ValueId x) {
    const std::string what = absl::StrCat("input '", p_.value(x).name, "'");
    if (IsGraphOutput(p_, x)) return Refuse(what, "is also a graph output");
    if (users_[x].empty()) return Refuse(what, "is read by no QuantizeLinear");
    std::optional<Quantization> q;
    for (int u : users_[x]) {
      const Statement& s = p_.statements()[u];
      if (s.op != OpKind::kQuantizeLinear || s.operands[0] != x) {
        return Refuse(what, absl::StrCat("is read by ", NodeAndOp(s), ", not only by QuantizeLinear"));
      }
      std::optional<Quantization> here = Of(s, p_.value(s.results[0]).dtype);
      if (!here || !Is8Bit(here->dtype)) {
        return Refuse(what, absl::StrCat("is quantized by ", NodeAndOp(s),
                                         " with no per-tensor constant scale and zero point"));
      }
      if (q && !(*q == *here)) {
        return Refuse(what, absl::StrCat("is quantized differently by ", NodeAndOp(s)));
      }
      if (IsGraphOutput(p_, s.results[0])) {
        return Refuse(what, absl::StrCat("is quantized by ", NodeAndOp(s), " into a graph output"));
      }
      q = here;
    }
    for (int u : users_[x]) {
      Replace(p_.statements()[u].results[0], x);
      erase_[u] = true;
    }
    Value& v = p_.value(x);
    v.dtype = q->dtype;
    v.quant = QuantParams{{q->scale}, {q->zero_point}, 0};
    stats_.Add("quantized-io", "inputs", 1);
    return absl::OkStatus();
  }

  // Output j, written by DequantizeLinear statement d, becomes its operand.
  absl::Status ConvertOutput(size_t j, int d) {
    const ValueId y = p_.outputs()[j];
    const Statement& s = p_.statements()[d];
    const std::string what = absl::StrCat("output '", p_.value(y).name, "'");
    const ValueId q = s.operands[0];
    if (def_[q] < 0 || erase_[def_[q]]) {
      return Refuse(what, absl::StrCat("is written by ", NodeAndOp(s),
                                       " from a graph input or a constant, not a computed tensor"));
    }
    std::optional<Quantization> quant = Of(s, p_.value(q).dtype);
    if (!quant || !Is8Bit(quant->dtype)) {
      return Refuse(what, absl::StrCat("is written by ", NodeAndOp(s),
                                        " with no per-tensor constant scale and zero point of an 8-bit tensor"));
    }
    p_.outputs()[j] = q;
    Value& v = p_.value(q);
    v.quant = QuantParams{{quant->scale}, {quant->zero_point}, 0};
    if (users_[y].empty() && !IsGraphOutput(p_, y)) {
      v.name = p_.value(y).name;  // the graph output keeps its ONNX name
      erase_[d] = true;
    }
    stats_.Add("quantized-io", "outputs", 1);
    return absl::OkStatus();
  }

  void Replace(ValueId from, ValueId to) {
    for (Statement& s : p_.statements()) {
      for (ValueId& o : s.operands) {
        if (o == from) o = to;
      }
    }
  }

  Program& p_;
  PassStats& stats_;
  std::vector<int> def_;
  std::vector<std::vector<int>> users_;
  std::vector<bool> erase_;
};

}  // namespace

absl::Status ConvertQuantizedIo(Program& program, PassStats& stats,
                                std::vector<std::string>* kept_float) {
  return IoConverter(program, stats).Run(kept_float);
}

}  // namespace oc
