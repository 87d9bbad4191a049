// Lowering of Einsum with one or two operands: the equation becomes one loop
// nest over its labels (output labels first, then the summed ones) with
// per-label strides for each tensor.
#include <algorithm>
#include <cctype>
#include <map>

#include "absl/strings/str_split.h"
#include "compiler/import/node_context.h"
#include "compiler/import/shape_rules.h"
#include "compiler/support/status.h"

namespace oc {
namespace {

// One operand's or the output's labels, one per dim; an ellipsis's dims get
// the labels '0', '1', ... counted from the last ellipsis dim backwards, so
// that they broadcast like numpy (right-aligned).
absl::StatusOr<std::vector<char>> ExpandTerm(const NodeContext& ctx, const std::string& term,
                                             int64_t rank) {
  const size_t dots = term.find("...");
  std::string letters = term;
  if (dots != std::string::npos) letters.erase(dots, 3);
  for (char c : letters) {
    if (!std::isalpha(static_cast<unsigned char>(c))) {
      return ctx.Invalid(absl::StrCat("the equation term '", term, "' is not valid"));
    }
  }
  const int64_t ellipsis = rank - static_cast<int64_t>(letters.size());
  if (ellipsis < 0 || (dots == std::string::npos && ellipsis != 0)) {
    return ctx.Invalid(absl::StrCat("the term '", term, "' does not match rank ", rank));
  }
  std::vector<char> labels(letters.begin(), letters.end());
  if (dots != std::string::npos) {
    std::vector<char> e;
    for (int64_t i = ellipsis - 1; i >= 0; --i) e.push_back(static_cast<char>('0' + i));
    labels.insert(labels.begin() + static_cast<int64_t>(dots), e.begin(), e.end());
  }
  return labels;
}

absl::Status LowerEinsum(NodeContext& ctx) {
  const int n = ctx.num_inputs();
  if (n < 1 || n > 2) return ctx.Unsupported("only Einsum of one or two operands is supported");
  const DType t = ctx.InputValue(0).dtype;
  if (t != DType::kF32 && t != DType::kF64) {
    return ctx.Unsupported(absl::StrCat("element type ", DTypeName(t), " is not supported"));
  }
  OC_ASSIGN_OR_RETURN(std::string eq, ctx.AttrString("equation", std::nullopt));
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms = absl::StrSplit(lhs, ',');
  if (static_cast<int>(terms.size()) != n) return ctx.Invalid("the equation's inputs do not match");
  std::vector<std::vector<char>> in_labels;
  std::map<char, int64_t> dims;
  std::map<char, int> uses;
  std::vector<char> order;  // labels by first appearance
  for (int i = 0; i < n; ++i) {
    const Value& v = ctx.InputValue(i);
    if (v.dtype != t) return ctx.Invalid("the operands differ in element type");
    OC_ASSIGN_OR_RETURN(std::vector<char> labels,
                        ExpandTerm(ctx, terms[i], static_cast<int64_t>(v.shape.size())));
    for (size_t d = 0; d < labels.size(); ++d) {
      const char l = labels[d];
      if (!dims.count(l)) order.push_back(l);
      int64_t& have = dims[l];
      if (have <= 1) {
        have = std::max<int64_t>(have, v.shape[d]);
      } else if (v.shape[d] != have &&
                 !(std::isdigit(static_cast<unsigned char>(l)) && v.shape[d] == 1)) {
        return ctx.Invalid(
            absl::StrCat("label '", std::string(1, l), "' has dims ", have, " and ", v.shape[d]));
      }
      ++uses[l];
    }
    in_labels.push_back(labels);
  }
  std::vector<char> out;
  if (arrow != std::string::npos) {
    int64_t ellipsis_rank = 0;
    for (char l : order) ellipsis_rank += std::isdigit(static_cast<unsigned char>(l)) ? 1 : 0;
    const std::string rhs = eq.substr(arrow + 2);
    const size_t letters = rhs.size() - (rhs.find("...") == std::string::npos ? 0 : 3);
    OC_ASSIGN_OR_RETURN(out, ExpandTerm(ctx, rhs, static_cast<int64_t>(letters) + ellipsis_rank));
    for (char l : out) {
      if (!dims.count(l)) return ctx.Invalid("the output has a label no input has");
    }
  } else {  // implicit: ellipsis dims, then the labels used once, sorted
    for (char l : order) {
      if (std::isdigit(static_cast<unsigned char>(l))) out.push_back(l);
    }
    std::sort(out.rbegin(), out.rend());
    std::vector<char> once;
    for (char l : order) {
      if (!std::isdigit(static_cast<unsigned char>(l)) && uses[l] == 1) once.push_back(l);
    }
    std::sort(once.begin(), once.end());
    out.insert(out.end(), once.begin(), once.end());
  }
  std::vector<char> loop = out;
  for (char l : order) {
    if (std::find(loop.begin(), loop.end(), l) == loop.end()) loop.push_back(l);
  }
  if (loop.size() > 8) return ctx.Unsupported("more than 8 distinct labels are not supported");
  Shape out_shape;
  for (char l : out) out_shape.push_back(dims[l]);
  // Per-label strides of each operand and of the output.
  auto strides_of = [&](const std::vector<char>& labels, const Shape& shape) {
    std::vector<int64_t> own = Strides(shape), st(loop.size(), 0);
    for (size_t d = 0; d < labels.size(); ++d) {
      const size_t at = std::find(loop.begin(), loop.end(), labels[d]) - loop.begin();
      if (shape[d] != 1 || dims[labels[d]] == 1) st[at] += own[d];
    }
    return st;
  };
  Shape loop_dims;
  for (char l : loop) loop_dims.push_back(dims[l]);
  ValueId y = ctx.NewResult(0, t, out_shape);
  std::vector<ValueId> operands;
  for (int i = 0; i < n; ++i) operands.push_back(ctx.Input(i));
  Statement& s = ctx.Emit(OpKind::kEinsum, operands, {y});
  s.attrs["dims"] = loop_dims;
  s.attrs["y_strides"] = strides_of(out, out_shape);
  s.attrs["a_strides"] = strides_of(in_labels[0], ctx.InputValue(0).shape);
  if (n == 2) s.attrs["b_strides"] = strides_of(in_labels[1], ctx.InputValue(1).shape);
  s.macs = NumElements(loop_dims);
  return absl::OkStatus();
}

}  // namespace

void RegisterEinsumLowerings(std::unordered_map<std::string, LowerFn>& t) {
  t["Einsum"] = LowerEinsum;
}

}  // namespace oc
