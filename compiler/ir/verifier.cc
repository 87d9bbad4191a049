#include "compiler/ir/verifier.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler/ir/printer.h"

namespace oc {
namespace {

std::string Where(const Statement& s) {
  return absl::StrCat("statement ", s.id, " (", OpName(s.op), ", node '", s.node_name, "')");
}

absl::Status CheckValueType(const Value& v) {
  int64_t elements = 1;
  for (int64_t d : v.shape) {
    if (d == 0) {  // an empty tensor: a buffer of 0 bytes
      elements = 0;
      continue;
    }
    if (d <= 0) {
      return absl::InvalidArgumentError(absl::StrCat("value '", v.name, "' has a dimension ", d,
                                                     " (dimensions must be positive)"));
    }
    if (elements > 0 && elements > kMaxTensorBytes / d) {
      return absl::InvalidArgumentError(
          absl::StrCat("value '", v.name, "' is too large (", FormatShape(v.shape), ")"));
    }
    elements *= d;
  }
  if (elements > kMaxTensorBytes / DTypeSize(v.dtype)) {
    return absl::InvalidArgumentError(
        absl::StrCat("value '", v.name, "' is too large (", FormatShape(v.shape), ")"));
  }
  if (v.kind == ValueKind::kConstant && static_cast<int64_t>(v.data.size()) != v.ByteSize()) {
    return absl::InvalidArgumentError(absl::StrCat("constant '", v.name, "' holds ",
                                                   v.data.size(), " bytes, its type needs ",
                                                   v.ByteSize()));
  }
  return absl::OkStatus();
}

// Attributes that must be present: the op table's, and Gather's constant
// indices when they are not an operand.
std::vector<std::string> RequiredAttributes(const Statement& s) {
  std::vector<std::string> keys =
      absl::StrSplit(GetOpInfo(s.op).required_attributes, ' ', absl::SkipEmpty());
  if (s.op == OpKind::kGather && s.operands.size() < 2) keys.push_back("indices");
  return keys;
}

absl::Status VerifyStatement(const Program& p, const Statement& s) {
  const OpInfo& info = GetOpInfo(s.op);
  int n = static_cast<int>(s.operands.size());
  if (n < info.min_operands || n > info.max_operands) {
    return absl::InvalidArgumentError(absl::StrCat(Where(s), " has ", n, " operands, expected ",
                                                   info.min_operands, "..", info.max_operands));
  }
  for (int i = 0; i < info.min_operands; ++i) {
    if (s.operands[i] == kNoValue) {
      return absl::InvalidArgumentError(absl::StrCat(Where(s), " misses required operand ", i));
    }
  }
  if (s.results.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(Where(s), " has no result"));
  }
  if (s.results.size() > 1 && info.results == ResultCount::kOne) {
    return absl::InvalidArgumentError(absl::StrCat(Where(s), " has several results"));
  }
  for (const std::string& key : RequiredAttributes(s)) {
    if (!s.Has(key)) {
      return absl::InvalidArgumentError(absl::StrCat(Where(s), " misses attribute '", key, "'"));
    }
  }
  const Value& r = p.value(s.results[0]);
  const Value& x = p.value(s.operands[0]);
  switch (info.category) {
    case OpCategory::kView:
      if (r.ByteSize() != x.ByteSize() || r.dtype != x.dtype) {
        return absl::InvalidArgumentError(
            absl::StrCat(Where(s), " is a view but changes the size or type"));
      }
      break;
    case OpCategory::kUnary:
      if (r.shape != x.shape || r.dtype != x.dtype) {
        return absl::InvalidArgumentError(
            absl::StrCat(Where(s), " must keep its operand's shape and type"));
      }
      break;
    case OpCategory::kBinary: {
      const Value& y = p.value(s.operands[1]);
      if (x.dtype != y.dtype || r.dtype != x.dtype) {
        return absl::InvalidArgumentError(absl::StrCat(Where(s), " mixes element types"));
      }
      if (r.shape.size() < x.shape.size() || r.shape.size() < y.shape.size()) {
        return absl::InvalidArgumentError(absl::StrCat(Where(s), " has a bad broadcast shape"));
      }
      break;
    }
    default:
      break;
  }
  switch (s.op) {
    case OpKind::kEqual:
    case OpKind::kLess:
    case OpKind::kLessOrEqual:
    case OpKind::kGreater:
    case OpKind::kGreaterOrEqual:
      if (p.value(s.operands[1]).dtype != x.dtype || r.dtype != DType::kBool) {
        return absl::InvalidArgumentError(
            absl::StrCat(Where(s), " must compare operands of one type into bool"));
      }
      break;
    case OpKind::kWhere:
      if (x.dtype != DType::kBool || p.value(s.operands[1]).dtype != r.dtype ||
          p.value(s.operands[2]).dtype != r.dtype) {
        return absl::InvalidArgumentError(
            absl::StrCat(Where(s), " needs a bool condition and operands of the result's type"));
      }
      break;
    case OpKind::kIsNaN:
    case OpKind::kIsInf:
      if (r.dtype != DType::kBool || r.shape != x.shape) {
        return absl::InvalidArgumentError(absl::StrCat(Where(s), " must give a bool per element"));
      }
      break;
    case OpKind::kCast:
      if (r.shape != x.shape) {
        return absl::InvalidArgumentError(absl::StrCat(Where(s), " must keep the shape"));
      }
      break;
    default:
      break;
  }
  if (s.op == OpKind::kToChannelsLast &&
      (r.shape != x.shape || r.dtype != x.dtype || x.shape.size() != 4 ||
       s.scratch_bytes * 8 < x.NumElements() / std::max<int64_t>(x.shape[0], 1))) {
    return absl::InvalidArgumentError(
        absl::StrCat(Where(s), " must keep a 4-D shape and type, with a bit of scratch per element"));
  }
  if (s.op == OpKind::kChannelAffine) {
    const Value& scale = p.value(s.operands[1]);
    const Value& bias = p.value(s.operands[2]);
    if (x.shape.size() < 2 || scale.NumElements() != x.shape[1] ||
        bias.NumElements() != x.shape[1] || scale.dtype != x.dtype || bias.dtype != x.dtype) {
      return absl::InvalidArgumentError(
          absl::StrCat(Where(s), " needs one scale and one bias per channel"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status VerifyProgram(const Program& p) {
  const size_t n = p.num_values();
  std::vector<bool> defined(n, false);
  std::vector<bool> is_result(n, false);
  for (const Value& v : p.values()) {
    if (v.id < 0 || static_cast<size_t>(v.id) >= n) {
      return absl::InternalError("value ids are not dense");
    }
    if (auto st = CheckValueType(v); !st.ok()) return st;
    if (v.kind != ValueKind::kResult) defined[v.id] = true;
  }
  for (ValueId in : p.inputs()) {
    if (in < 0 || static_cast<size_t>(in) >= n || p.value(in).kind != ValueKind::kInput) {
      return absl::InvalidArgumentError("a graph input is not an input value");
    }
  }
  for (const Statement& s : p.statements()) {
    for (ValueId o : s.operands) {
      if (o == kNoValue) continue;
      if (o < 0 || static_cast<size_t>(o) >= n || !defined[o]) {
        return absl::InvalidArgumentError(
            absl::StrCat(Where(s), " reads a value before it is defined"));
      }
    }
    for (ValueId r : s.results) {
      if (r < 0 || static_cast<size_t>(r) >= n || p.value(r).kind != ValueKind::kResult) {
        return absl::InvalidArgumentError(absl::StrCat(Where(s), " has a bad result"));
      }
      if (is_result[r]) {
        return absl::InvalidArgumentError(
            absl::StrCat(Where(s), " redefines value '", p.value(r).name, "'"));
      }
      is_result[r] = true;
      defined[r] = true;
    }
    if (auto st = VerifyStatement(p, s); !st.ok()) return st;
  }
  for (ValueId out : p.outputs()) {
    if (out < 0 || static_cast<size_t>(out) >= n || !defined[out]) {
      return absl::InvalidArgumentError("a graph output is never defined");
    }
  }
  return absl::OkStatus();
}

}  // namespace oc
