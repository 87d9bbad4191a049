#include "targets/c99/emit_operand_checks.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace oc {
namespace {

bool ChecksAxes(const Statement& s) { return s.Has("run_time_axes_masks"); }
bool ChecksReshape(const Statement& s) { return s.op == OpKind::kCheckedReshape && !ChecksAxes(s); }

// Axes (Reduce*, Squeeze, Unsqueeze): in range, no axis twice, and a mask the
// importer found to give the declared output shape (lower_tensor.cc,
// lower_shape_operands.cc).
void EmitAxesCheck(const EmitContext& ctx, const Statement& s, CodeWriter& w) {
  const Program& p = ctx.program;
  const int64_t rank = s.Has("run_time_axes_rank")
                           ? s.Int("run_time_axes_rank")
                           : static_cast<int64_t>(p.value(s.operands[0]).shape.size());
  const int64_t count = p.value(s.operands[1]).shape[0];
  std::vector<std::string> wrong;
  for (int64_t m : s.Ints("run_time_axes_masks")) wrong.push_back(absl::StrCat("mask != ", m, "u"));
  w.Open("");
  w.Comment(absl::StrCat("node '", s.node_name, "' (", s.onnx_op, "): axes"));
  w.Line(absl::StrCat("const int64_t *axes = ", ctx.Ptr(s.operands[1], false), ";"));
  w.Line("uint32_t mask = 0u;");
  w.Line("int32_t i;");
  w.Open(absl::StrCat("for (i = 0; i < ", count, "; i++)"));
  w.Line(absl::StrCat("const int64_t a = axes[i] < 0 ? axes[i] + ", rank, " : axes[i];"));
  w.Line(absl::StrCat("if (a < 0 || a >= ", rank, " || ((mask >> a) & 1u) != 0u) return 0;"));
  w.Line("mask |= 1u << a;");
  w.Close();
  w.Line(absl::StrCat("if (", absl::StrJoin(wrong, " && "), ") return 0;"));
  w.Close();
}

// Reshape's shape, with ONNX's rules (0 copies the input's dim unless
// allowzero, one -1 takes the rest), must give the declared output shape:
// each entry is that dim, or -1 (at most one: then it is that dim, the
// element counts being equal and nonzero), or 0 where the input's dim is it.
void EmitReshapeCheck(const EmitContext& ctx, const Statement& s, CodeWriter& w) {
  const Program& p = ctx.program;
  const Shape& in = p.value(s.operands[0]).shape;
  const Shape& out = p.value(s.results[0]).shape;
  std::vector<std::string> minus_ones;
  w.Open("");
  w.Comment(absl::StrCat("node '", s.node_name, "' (", s.onnx_op, "): shape"));
  w.Line(absl::StrCat("const int64_t *shape = ", ctx.Ptr(s.operands[1], false), ";"));
  for (size_t i = 0; i < out.size(); ++i) {
    std::string ok = absl::StrCat("shape[", i, "] == ", out[i], " || shape[", i, "] == -1");
    if (s.Int("allowzero") == 0 && i < in.size() && in[i] == out[i]) absl::StrAppend(&ok, " || shape[", i, "] == 0");
    w.Line(absl::StrCat("if (!(", ok, ")) return 0;"));
    minus_ones.push_back(absl::StrCat("(shape[", i, "] == -1)"));
  }
  if (minus_ones.size() > 1) {
    w.Line(absl::StrCat("if (", absl::StrJoin(minus_ones, " + "), " > 1) return 0;"));
  }
  w.Close();
}

}  // namespace

bool HasShapeOperandChecks(const Program& p) {
  for (const Statement& s : p.statements()) {
    if (ChecksAxes(s) || ChecksReshape(s)) return true;
  }
  return false;
}

void EmitShapeOperandChecks(const EmitContext& ctx, const std::string& name, CodeWriter& w) {
  w.Comment("Shape operands passed at run time must give the shapes compiled in.");
  w.Open(absl::StrCat("static int ", name, "_shape_operands_ok(const struct ", name, "_ctx *c)"));
  for (const Statement& s : ctx.program.statements()) {
    if (ChecksAxes(s)) EmitAxesCheck(ctx, s, w);
    if (ChecksReshape(s)) EmitReshapeCheck(ctx, s, w);
  }
  w.Line("return 1;");
  w.Close();
  w.Line();
}

}  // namespace oc
