// Per-op code (StatementEmitter, statement_emitter.h): the dispatch, the
// shared helpers, and convolutions, matrix products, elementwise ops,
// softmax, reductions, pooling and resize.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/support/status.h"
#include "compiler/target/kernel_facts.h"
#include "targets/c99/statement_emitter.h"

namespace oc {

std::string StatementEmitter::Ints(const std::vector<int64_t>& v) {
  std::vector<std::string> parts;
  for (int64_t x : v) parts.push_back(CInt(x));
  return "{" + (parts.empty() ? std::string("0") : absl::StrJoin(parts, ", ")) + "}";
}

std::vector<int64_t> StatementEmitter::RowMajorStrides(const Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (int i = static_cast<int>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}

std::vector<int64_t> StatementEmitter::BroadcastStrides(const Shape& in, const Shape& out) {
  std::vector<int64_t> st(out.size(), 0), own = RowMajorStrides(in);
  size_t lead = out.size() - in.size();
  for (size_t d = 0; d < in.size(); ++d) st[lead + d] = in[d] == 1 ? 0 : own[d];
  return st;
}

int64_t StatementEmitter::Prod(const Shape& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to && i < s.size(); ++i) p *= s[i];
  return p;
}

std::string StatementEmitter::ActInit(const Statement& s) {
  std::string act = s.Str("act", "none");
  std::string kind = act == "relu"           ? "OC_ACT_RELU"
                     : act == "clip"         ? "OC_ACT_CLIP"
                     : act == "leaky_relu"   ? "OC_ACT_LEAKY_RELU"
                     : act == "hard_sigmoid" ? "OC_ACT_HARD_SIGMOID"
                     : act == "hard_swish"   ? "OC_ACT_HARD_SWISH"
                     : act == "sigmoid"      ? "OC_ACT_SIGMOID"
                     : act == "tanh"         ? "OC_ACT_TANH"
                                             : "OC_ACT_NONE";
  return absl::StrCat("{", kind, ", ", CFloat(s.Float("act_alpha")), ", ",
                      CFloat(s.Float("act_beta")), "}");
}

// The op table (compiler/ir/ops.def) names each op's emitter member.
absl::Status StatementEmitter::Run() {
  switch (s_.op) {
#define OC_OP(Enum, Name, Category, MinOps, MaxOps, Effect, Results, Attrs, Emit) \
  case OpKind::Enum:                                                            \
    return Emit();
#include "compiler/ir/ops.def"
  }
  return absl::InternalError("statement of an unknown op");
}

absl::Status StatementEmitter::View() {
  w_.Comment("a view: shares its operand's bytes, no code");
  return absl::OkStatus();
}

// The fields of oc_conv2d_params (3-D view) for this statement.
std::vector<std::string> StatementEmitter::ConvFields() const {
  const std::vector<int64_t> xs = Spatial3(In(0)), ys = Spatial3(Out());
  const std::vector<int64_t> k = Attr3("kernel", 1), st = Attr3("strides", 1),
                             d = Attr3("dilations", 1), pb = Pads3(false);
  return {absl::StrCat(".n = ", In(0)[0]),      absl::StrCat(".c_in = ", In(0)[1]),
          absl::StrCat(".h_in = ", xs[1]),      absl::StrCat(".w_in = ", xs[2]),
          absl::StrCat(".c_out = ", Out()[1]),  absl::StrCat(".h_out = ", ys[1]),
          absl::StrCat(".w_out = ", ys[2]),     absl::StrCat(".k_h = ", k[1]),
          absl::StrCat(".k_w = ", k[2]),        absl::StrCat(".stride_h = ", st[1]),
          absl::StrCat(".stride_w = ", st[2]),  absl::StrCat(".dil_h = ", d[1]),
          absl::StrCat(".dil_w = ", d[2]),      absl::StrCat(".pad_top = ", pb[1]),
          absl::StrCat(".pad_left = ", pb[2]),  absl::StrCat(".group = ", s_.Int("group", 1)),
          absl::StrCat(".act = ", ActInit(s_)), absl::StrCat(".d_in = ", xs[0]),
          absl::StrCat(".d_out = ", ys[0]),     absl::StrCat(".k_d = ", k[0]),
          absl::StrCat(".stride_d = ", st[0]),  absl::StrCat(".dil_d = ", d[0]),
          absl::StrCat(".pad_front = ", pb[0])};
}

const OverlapContract* StatementEmitter::Overlap() const {
  const size_t index = &s_ - ctx_.program.statements().data();
  const std::vector<int>& of = ctx_.model.overlap_of_statement;
  if (index >= of.size() || of[index] < 0) return nullptr;
  return &ctx_.model.overlaps[of[index]];
}

void StatementEmitter::RowsContractComment(const OverlapContract* c) {
  if (c && c->kind == OverlapContract::Kind::kRows) {
    w_.Comment(absl::StrCat("overlap contract: the output starts ", c->displacement,
                            " bytes below the input; output rows are written in order, each"));
    w_.Comment("over input rows that no later output row reads");
  } else if (c && c->kind == OverlapContract::Kind::kRowsUp) {
    w_.Comment(absl::StrCat("overlap contract: the output starts ", -c->displacement,
                            " bytes above the input's start; output rows are written last first,"));
    w_.Comment("each over input rows that no earlier output row reads");
  }
}

std::string StatementEmitter::ContractScratchOffset() const {
  return ctx_.contract_scratch_name[&s_ - ctx_.program.statements().data()];
}

std::vector<std::string> StatementEmitter::WithField(std::vector<std::string> fields,
                                                     const std::string& name, int64_t value) {
  for (std::string& f : fields) {
    if (f.rfind(name + " = ", 0) == 0) f = absl::StrCat(name, " = ", value);
  }
  return fields;
}

void StatementEmitter::PlanesContractComment(const OverlapContract& c) {
  w_.Comment(absl::StrCat("overlap contract: the output starts ", c.displacement,
                          " bytes below the input; each plane is computed into scratch once the"));
  w_.Comment("input planes up to it are read, then copied over input planes that are dead");
}

void StatementEmitter::PlaneByPlane(const OverlapContract& c, const std::string& call) {
  const int64_t in_plane = c.in_plane_bytes / 4, out_plane = c.out_plane_bytes / 4;
  PlanesContractComment(c);
  w_.Line(absl::StrCat("const float *x = ", Read(0), ";"));
  w_.Line(absl::StrCat("float *y = ", Write(), ";"));
  w_.Line(absl::StrCat("float *plane = (float *)(", ctx_.ArenaAt(ContractScratchOffset()), ");"));
  w_.Line("size_t k;");
  w_.Open(absl::StrCat("for (k = 0; k < ", c.planes, "u; ++k)"));
  std::string line = call;
  const int64_t channels = In(0)[1];
  auto replace = [&](const std::string& from, const std::string& to) {
    for (size_t at = line.find(from); at != std::string::npos; at = line.find(from, at + to.size())) {
      line.replace(at, from.size(), to);
    }
  };
  replace("@X", absl::StrCat("x + k * ", in_plane, "u"));
  replace("@Y", "plane");
  if (s_.op == OpKind::kConv) {
    replace("@W", absl::StrCat(Read(1), " + (k % ", channels, "u) * ", Prod(In(1), 1, In(1).size()), "u"));
    replace("@B", HasOperand(2) ? absl::StrCat(Read(2), " + k % ", channels, "u") : "NULL");
  }
  w_.Line(line);
  w_.Line(absl::StrCat("memcpy(y + k * ", out_plane, "u, plane, ", out_plane, "u * sizeof(float));"));
  w_.Close();
}

absl::Status StatementEmitter::Conv(bool transpose) {
  OC_RETURN_IF_ERROR(RequireF32(0));
  const OverlapContract* c = transpose ? nullptr : Overlap();
  if (!transpose && IsChannelsLastConv(s_)) {
    // Weights per group [kh][kw][ic][oc] (passes/transforms/channels_last.cc).
    std::vector<std::string> fields = ConvFields();
    if (c && c->kind == OverlapContract::Kind::kRowsUp) fields.push_back(".reverse_rows = 1");
    Params("oc_conv2d_params", fields);
    Use("conv2d_nhwc.c");
    RowsContractComment(c);
    w_.Line(absl::StrCat("oc_conv2d_nhwc_f32(&p, ", Read(0), ", ", Read(1), ", ",
                         HasOperand(2) ? Read(2) : "NULL", ", ", Write(), ", ",
                         s_.Int("x_channels_last"), ", ", s_.Int("y_channels_last"), ");"));
    return absl::OkStatus();
  }
  if (c && c->kind == OverlapContract::Kind::kPixels) {
    Params("oc_conv2d_params", ConvFields());
    Use("conv1x1_overlap.c");
    w_.Comment("overlap contract: the output starts at the input; each block of pixels is");
    w_.Comment("computed into scratch, then copied over input pixels no later block reads");
    w_.Line(absl::StrCat("oc_conv1x1_overlap_f32(&p, ", Read(0), ", ", Read(1), ", ",
                         HasOperand(2) ? Read(2) : "NULL", ", ", Write(), ", (float *)(",
                         ctx_.ArenaAt(ContractScratchOffset()), "), ", c->block, ");"));
    return absl::OkStatus();
  }
  if (c && In(0).size() <= 4) {
    // Depthwise 1-D or 2-D: all planes in one call (a patch's planes are small).
    Params("oc_conv2d_params", ConvFields());
    Use("conv2d_dw_planes.c");
    PlanesContractComment(*c);
    w_.Line(absl::StrCat("oc_conv2d_dw_planes_f32(&p, ", Read(0), ", ", Read(1), ", ",
                         HasOperand(2) ? Read(2) : "NULL", ", ", Write(), ", (float *)(",
                         ctx_.ArenaAt(ContractScratchOffset()), "));"));
    return absl::OkStatus();
  }
  if (c) {
    std::vector<std::string> f = ConvFields();
    for (const char* field : {".n", ".c_in", ".c_out", ".group"}) f = WithField(f, field, 1);
    Params("oc_conv2d_params", f);
    Use("conv2d.c");
    PlaneByPlane(*c, "oc_conv2d_f32(&p, @X, @W, @B, @Y);");
    return absl::OkStatus();
  }
  Params(transpose ? "oc_conv_transpose2d_params" : "oc_conv2d_params", ConvFields());
  std::string bias = HasOperand(2) ? Read(2) : "NULL";
  if (!transpose && s_.scratch_bytes > 0) {
    // The statement's scratch is the row band (compiler/target/kernel_facts.h).
    Use("conv2d.c");
    Use("conv2d_band.c");
    w_.Line(absl::StrCat("oc_conv2d_band_f32(&p, ", Read(0), ", ", Read(1), ", ", bias, ", ",
                         Scratch("float"), ", ", Write(), ");"));
    return absl::OkStatus();
  }
  Use(transpose ? "conv_transpose2d.c" : "conv2d.c");
  w_.Line(absl::StrCat(transpose ? "oc_conv_transpose2d_f32" : "oc_conv2d_f32", "(&p, ", Read(0),
                       ", ", Read(1), ", ", bias, ", ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Gemm() {
  OC_RETURN_IF_ERROR(RequireF32(0));
  const Shape& a = In(0);
  const Shape& y = Out();
  const int64_t ta = s_.Int("trans_a"), m = y[0], n = y[1], k = ta ? a[0] : a[1];
  int64_t csm = 0, csn = 0;
  if (HasOperand(2)) {
    const Shape& c = In(2);
    if (c.size() == 1) {
      csn = c[0] == 1 ? 0 : 1;
    } else if (c.size() == 2) {
      csm = c[0] == 1 ? 0 : c[1];
      csn = c[1] == 1 ? 0 : 1;
    }
  }
  Params("oc_gemm_params",
         {absl::StrCat(".m = ", m), absl::StrCat(".n = ", n), absl::StrCat(".k = ", k),
          absl::StrCat(".trans_a = ", ta), absl::StrCat(".trans_b = ", s_.Int("trans_b")),
          absl::StrCat(".alpha = ", CFloat(s_.Float("alpha", 1.0f))),
          absl::StrCat(".beta = ", CFloat(s_.Float("beta", 1.0f))),
          absl::StrCat(".c_stride_m = ", csm), absl::StrCat(".c_stride_n = ", csn),
          absl::StrCat(".act = ", ActInit(s_))});
  Use("gemm.c");
  w_.Line(absl::StrCat("oc_gemm_f32(&p, ", Read(0), ", ", Read(1), ", ",
                       HasOperand(2) ? Read(2) : "NULL", ", ", Write(), ");"));
  return absl::OkStatus();
}

// The fields of oc_matmul_params for operands a and b (numpy matmul
// batching and broadcasting; 1-D operands become matrices).
std::vector<std::string> StatementEmitter::MatMulFields(Shape a, Shape b) const {
  if (a.size() == 1) a.insert(a.begin(), 1);
  if (b.size() == 1) b.push_back(1);
  const int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
  Shape ab(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2);
  size_t rank = std::max(ab.size(), bb.size());
  while (ab.size() < rank) ab.insert(ab.begin(), 1);
  while (bb.size() < rank) bb.insert(bb.begin(), 1);
  std::vector<int64_t> dims(rank), as(rank), bs(rank);
  int64_t astr = m * k, bstr = k * n;
  for (int i = static_cast<int>(rank) - 1; i >= 0; --i) {
    dims[i] = std::max(ab[i], bb[i]);
    as[i] = ab[i] == 1 ? 0 : astr;
    bs[i] = bb[i] == 1 ? 0 : bstr;
    astr *= ab[i];
    bstr *= bb[i];
  }
  return {absl::StrCat(".m = ", m),         absl::StrCat(".n = ", n),
          absl::StrCat(".k = ", k),         absl::StrCat(".batch_rank = ", rank),
          ".batch_dims = " + Ints(dims),    ".a_batch_strides = " + Ints(as),
          ".b_batch_strides = " + Ints(bs), absl::StrCat(".act = ", ActInit(s_))};
}

absl::Status StatementEmitter::MatMul() {
  OC_RETURN_IF_ERROR(RequireF32(0));
  Params("oc_matmul_params", MatMulFields(In(0), In(1)));
  Use("matmul.c");
  w_.Line(absl::StrCat("oc_matmul_f32(&p, ", Read(0), ", ", Read(1), ", ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Unary() {
  OC_RETURN_IF_ERROR(RequireF32(0));
  std::string name(OpName(s_.op));
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  Use("unary.c");
  w_.Line(absl::StrCat("oc_unary_f32(OC_UNARY_", name, ", ", CFloat(s_.Float("alpha")), ", ",
                       CFloat(s_.Float("beta")), ", ", Read(0), ", ", Write(), ", ",
                       V(s_.results[0]).NumElements(), ");"));
  return absl::OkStatus();
}

// The oc_binary_op of a binary-kernel statement.
std::string StatementEmitter::BinaryOpName() const {
  switch (s_.op) {
    case OpKind::kMod:
      return s_.Int("fmod") ? "OC_BINARY_FMOD" : "OC_BINARY_MOD";
    case OpKind::kBitShift:
      return s_.Str("direction") == "left" ? "OC_BINARY_SHIFT_LEFT" : "OC_BINARY_SHIFT_RIGHT";
    case OpKind::kLessOrEqual:
      return "OC_BINARY_LESS_EQUAL";
    case OpKind::kGreaterOrEqual:
      return "OC_BINARY_GREATER_EQUAL";
    default: {
      std::string name(OpName(s_.op));
      for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return "OC_BINARY_" + name;
    }
  }
}

// Binary kernels exist per operand type: binary_<type>.c.
absl::Status StatementEmitter::Binary() {
  Shape y = Out(), a = In(0), b = In(1);
  if (y.size() > kMaxRank) return Unsupported("rank above 8");
  if (s_.Int("channels_last") != 0) {
    // NHWC tensors and [n, c, 1, 1] operands (passes/transforms/channels_last.cc): the
    // broadcast over the physical order n, h, w, c.
    for (Shape* s : {&y, &a, &b}) *s = {(*s)[0], (*s)[2], (*s)[3], (*s)[1]};
  }
  const std::string type(DTypeName(V(s_.operands[0]).dtype));
  Params("oc_broadcast_params", {absl::StrCat(".rank = ", y.size()), ".dims = " + Ints(y),
                                 ".a_strides = " + Ints(BroadcastStrides(a, y)),
                                 ".b_strides = " + Ints(BroadcastStrides(b, y))});
  Use(absl::StrCat("binary_", type, ".c"));
  w_.Line(absl::StrCat("oc_binary_", type, "(", BinaryOpName(), ", &p, ", Read(0), ", ", Read(1),
                       ", ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Where() {
  const Shape& y = Out();
  if (y.size() > kMaxRank) return Unsupported("rank above 8");
  Params("oc_where_params",
         {absl::StrCat(".rank = ", y.size()),
          absl::StrCat(".elem_size = ", DTypeSize(V(s_.results[0]).dtype)), ".dims = " + Ints(y),
          ".c_strides = " + Ints(BroadcastStrides(In(0), y)),
          ".a_strides = " + Ints(BroadcastStrides(In(1), y)),
          ".b_strides = " + Ints(BroadcastStrides(In(2), y))});
  Use("where.c");
  w_.Line(
      absl::StrCat("oc_where(&p, ", Read(0), ", ", Read(1), ", ", Read(2), ", ", Write(), ");"));
  return absl::OkStatus();
}

// Casts that involve float64 have their own kernel (the others need no
// double arithmetic).
absl::Status StatementEmitter::Cast() {
  const DType from = V(s_.operands[0]).dtype, to = V(s_.results[0]).dtype;
  const bool f64 = from == DType::kF64 || to == DType::kF64;
  Use(f64 ? "cast_f64.c" : "cast.c");
  w_.Line(absl::StrCat(f64 ? "oc_cast_f64(" : "oc_cast(", DTypeEnum(from), ", ", DTypeEnum(to),
                       ", ", Read(0), ", ", Write(), ", ", V(s_.results[0]).NumElements(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Classify() {
  OC_RETURN_IF_ERROR(RequireF32(0));
  const bool nan = s_.op == OpKind::kIsNaN;
  Use("classify.c");
  w_.Line(absl::StrCat("oc_classify_f32(", Read(0), ", ", Write(), ", ",
                       V(s_.results[0]).NumElements(), ", ", nan ? 1 : 0, ", ",
                       nan ? 0 : s_.Int("detect_positive"), ", ",
                       nan ? 0 : s_.Int("detect_negative"), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::ArgMax() {
  OC_RETURN_IF_ERROR(RequireF32(0));
  const Shape& x = In(0);
  const size_t axis = static_cast<size_t>(s_.Int("axis"));
  Use("argmax.c");
  w_.Line(absl::StrCat("oc_argmax_f32(", Read(0), ", ", Write(), ", ", Prod(x, 0, axis), ", ",
                       x[axis], ", ", Prod(x, axis + 1, x.size()), ", ",
                       s_.op == OpKind::kArgMin ? 1 : 0, ", ", s_.Int("select_last_index"), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Softmax() {
  OC_RETURN_IF_ERROR(RequireF32(0));
  const Shape& x = In(0);
  const size_t axis = static_cast<size_t>(s_.Int("axis"));
  int64_t outer = Prod(x, 0, axis), len, inner;
  if (s_.Int("coerce_2d")) {
    len = Prod(x, axis, x.size());
    inner = 1;
  } else {
    len = x[axis];
    inner = Prod(x, axis + 1, x.size());
  }
  if (s_.op == OpKind::kHardmax) {
    Use("hardmax.c");
    w_.Line(absl::StrCat("oc_hardmax_f32(", Read(0), ", ", Write(), ", ", outer, ", ", len, ", ",
                         inner, ");"));
    return absl::OkStatus();
  }
  Use("softmax.c");
  w_.Line(absl::StrCat("oc_softmax_f32(", Read(0), ", ", Write(), ", ", outer, ", ", len, ", ",
                       inner, ", ", s_.op == OpKind::kLogSoftmax ? 1 : 0, ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::ChannelAffine() {
  OC_RETURN_IF_ERROR(RequireF32(0));
  const Shape& x = In(0);
  Use("channel_affine.c");
  w_.Line(absl::StrCat("oc_channel_affine_f32(", Read(0), ", ", Read(1), ", ", Read(2), ", ",
                       Write(), ", ", x[0], ", ", x[1], ", ", Prod(x, 2, x.size()), ");"));
  return absl::OkStatus();
}

// A graph input's values channels-last (passes/transforms/channels_last.cc), in place
// when the memory model lets it write over its operand.
absl::Status StatementEmitter::ToChannelsLast() {
  const Shape& x = In(0);
  if (x.size() != 4) return Unsupported("a tensor that is not 4-D");
  const DType t = V(s_.operands[0]).dtype;
  if (t == DType::kI8 || t == DType::kU8) {  // an 8-bit graph input (--quantized-io)
    Use("to_nhwc_8.c");
    w_.Line(absl::StrCat("oc_to_nhwc_8((const uint8_t *)", Read(0), ", (uint8_t *)", Write(), ", ", x[0],
                         ", ", x[1], ", ", x[2] * x[3], ", ", Scratch("unsigned char"), ");"));
    return absl::OkStatus();
  }
  OC_RETURN_IF_ERROR(RequireF32(0));
  Use("to_nhwc.c");
  w_.Line(absl::StrCat("oc_to_nhwc_f32(", Read(0), ", ", Write(), ", ", x[0], ", ", x[1], ", ",
                       x[2] * x[3], ", ", Scratch("unsigned char"), ");"));
  return absl::OkStatus();
}

// A Reduce of an empty input whose axes come at run time (the checked axes
// include a zero dim): every output is the reduction's value for no elements.
absl::Status StatementEmitter::ReduceEmpty() {
  std::string value = "0";
  switch (s_.op) {
    case OpKind::kReduceProd: value = "1"; break;
    case OpKind::kReduceMean: value = "NAN"; break;
    case OpKind::kReduceMin: value = "INFINITY"; break;
    case OpKind::kReduceMax:
    case OpKind::kReduceLogSum:
    case OpKind::kReduceLogSumExp: value = "-INFINITY"; break;
    default: break;
  }
  const std::string type = V(s_.results[0]).dtype == DType::kF64 ? "double" : "float";
  w_.Line(absl::StrCat(type, " *y = ", Write(), ";"));
  w_.Line("int32_t i;");
  w_.Line(absl::StrCat("(void)", Read(0), ";  /* no elements to read */"));
  w_.Line(absl::StrCat("for (i = 0; i < ", V(s_.results[0]).NumElements(), "; i++) y[i] = (", type, ")", value, ";"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Reduce() {
  const Shape& x = In(0);
  if (x.size() > kMaxRank) return Unsupported("rank above 8");
  uint32_t mask = 0;
  for (int64_t a : s_.Ints("axes")) mask |= 1u << a;
  std::string op(OpName(s_.op));  // reduce_log_sum_exp -> OC_REDUCE_LOG_SUM_EXP
  for (char& c : op) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  op = "OC_" + op;
  const bool run_time_axes = s_.Has("run_time_axes_masks");
  if (run_time_axes && V(s_.operands[0]).NumElements() == 0) return ReduceEmpty();
  Params("oc_reduce_params", {absl::StrCat(".rank = ", x.size()), ".dims = " + Ints(x),
                              absl::StrCat(".reduce_mask = ", mask, "u")},
         run_time_axes ? "p0" : "p");
  if (run_time_axes) {  // axes checked by the run function (emit_operand_checks.cc)
    w_.Line("oc_reduce_params p = p0;");
    w_.Line(absl::StrCat("const int64_t *axes = ", Read(1), ";"));
    w_.Line("int32_t i;");
    w_.Open(absl::StrCat("for (i = 0; i < ", In(1)[0], "; i++)"));
    w_.Line(absl::StrCat("p.reduce_mask |= 1u << (axes[i] < 0 ? axes[i] + ", x.size(), " : axes[i]);"));
    w_.Close();
  }
  const bool f64 = V(s_.operands[0]).dtype == DType::kF64;
  Use(f64 ? "reduce_f64.c" : "reduce.c");
  w_.Line(absl::StrCat(f64 ? "oc_reduce_f64(" : "oc_reduce_f32(", op, ", &p, ", Read(0), ", ",
                       Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Pool() {
  OC_RETURN_IF_ERROR(RequireF32(0));
  const std::vector<int64_t> xs = Spatial3(In(0)), ys = Spatial3(Out());
  const std::vector<int64_t> k = Attr3("kernel", 1), st = Attr3("strides", 1),
                             d = s_.Has("dilations") ? Attr3("dilations", 1)
                                                     : std::vector<int64_t>{1, 1, 1},
                             pb = Pads3(false), pe = Pads3(true);
  std::vector<std::string> fields = {absl::StrCat(".n_c = ", In(0)[0] * In(0)[1]),
                              absl::StrCat(".h_in = ", xs[1]),
                              absl::StrCat(".w_in = ", xs[2]),
                              absl::StrCat(".h_out = ", ys[1]),
                              absl::StrCat(".w_out = ", ys[2]),
                              absl::StrCat(".k_h = ", k[1]),
                              absl::StrCat(".k_w = ", k[2]),
                              absl::StrCat(".stride_h = ", st[1]),
                              absl::StrCat(".stride_w = ", st[2]),
                              absl::StrCat(".dil_h = ", d[1]),
                              absl::StrCat(".dil_w = ", d[2]),
                              absl::StrCat(".pad_top = ", pb[1]),
                              absl::StrCat(".pad_left = ", pb[2]),
                              absl::StrCat(".pad_bottom = ", pe[1]),
                              absl::StrCat(".pad_right = ", pe[2]),
                              absl::StrCat(".count_include_pad = ", s_.Int("count_include_pad")),
                              absl::StrCat(".d_in = ", xs[0]),
                              absl::StrCat(".d_out = ", ys[0]),
                              absl::StrCat(".k_d = ", k[0]),
                              absl::StrCat(".stride_d = ", st[0]),
                              absl::StrCat(".dil_d = ", d[0]),
                              absl::StrCat(".pad_front = ", pb[0]),
                              absl::StrCat(".pad_back = ", pe[0]),
                              absl::StrCat(".storage_order = ", s_.Int("storage_order"))};
  const bool is_max = s_.op == OpKind::kMaxPool;
  if (IsChannelsLastPool(s_)) {
    // Channels-last activations (passes/transforms/channels_last.cc).
    const OverlapContract* c = Overlap();
    if (c && c->kind == OverlapContract::Kind::kRowsUp) fields.push_back(".reverse_rows = 1");
    Params("oc_pool2d_params", fields);
    Use("maxpool2d_nhwc.c");
    RowsContractComment(c);
    w_.Line(absl::StrCat("oc_maxpool2d_nhwc_f32(&p, ", In(0)[1], ", ", Read(0), ", ", Write(), ", ",
                         s_.Int("x_channels_last"), ", ", s_.Int("y_channels_last"), ");"));
    return absl::OkStatus();
  }
  if (const OverlapContract* c = Overlap()) {
    Params("oc_pool2d_params", WithField(fields, ".n_c", 1));
    Use(is_max ? "maxpool2d.c" : "avgpool2d.c");
    PlaneByPlane(*c, is_max ? "oc_maxpool2d_f32(&p, @X, @Y, NULL);" : "oc_avgpool2d_f32(&p, @X, @Y);");
    return absl::OkStatus();
  }
  Params("oc_pool2d_params", fields);
  if (is_max) {
    Use("maxpool2d.c");
    w_.Line(absl::StrCat("oc_maxpool2d_f32(&p, ", Read(0), ", ", Write(), ", ",
                         s_.results.size() > 1 ? Write(1) : "NULL", ");"));
  } else {
    Use("avgpool2d.c");
    w_.Line(absl::StrCat("oc_avgpool2d_f32(&p, ", Read(0), ", ", Write(), ");"));
  }
  return absl::OkStatus();
}

absl::Status StatementEmitter::GlobalPool() {
  OC_RETURN_IF_ERROR(RequireF32(0));
  const Shape& x = In(0);
  if (s_.Int("x_channels_last") != 0) {  // passes/transforms/channels_last.cc
    Use("global_pool_nhwc.c");
    w_.Line(absl::StrCat("oc_global_pool_nhwc_f32(", Read(0), ", ", Write(), ", ", x[0], ", ", x[1],
                         ", ", Prod(x, 2, x.size()), ", ", s_.op == OpKind::kGlobalMaxPool ? 1 : 0, ");"));
    return absl::OkStatus();
  }
  Use("global_pool.c");
  w_.Line(absl::StrCat("oc_global_pool_f32(", Read(0), ", ", Write(), ", ", x[0] * x[1], ", ",
                       Prod(x, 2, x.size()), ", ", s_.op == OpKind::kGlobalMaxPool ? 1 : 0, ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Resize() {
  OC_RETURN_IF_ERROR(RequireF32(0));
  const Shape& x = In(0);
  const Shape& y = Out();
  std::vector<float> scales = s_.Floats("scales");
  std::string coord = s_.Str("coord_mode"), nearest = s_.Str("nearest_mode");
  std::string coord_c = coord == "half_pixel"           ? "OC_COORD_HALF_PIXEL"
                        : coord == "asymmetric"         ? "OC_COORD_ASYMMETRIC"
                        : coord == "align_corners"      ? "OC_COORD_ALIGN_CORNERS"
                        : coord == "pytorch_half_pixel" ? "OC_COORD_PYTORCH_HALF_PIXEL"
                                                        : "OC_COORD_TF_HALF_PIXEL_FOR_NN";
  std::string nearest_c = nearest == "round_prefer_ceil" ? "OC_NEAREST_ROUND_PREFER_CEIL"
                          : nearest == "floor"           ? "OC_NEAREST_FLOOR"
                          : nearest == "ceil"            ? "OC_NEAREST_CEIL"
                                                         : "OC_NEAREST_ROUND_PREFER_FLOOR";
  std::vector<std::string> fields =
         {absl::StrCat(".n_c = ", x[0] * x[1]), absl::StrCat(".h_in = ", x[2]),
          absl::StrCat(".w_in = ", x[3]), absl::StrCat(".h_out = ", y[2]),
          absl::StrCat(".w_out = ", y[3]),
          absl::StrCat(".mode = ",
                       s_.Str("mode") == "linear" ? "OC_RESIZE_LINEAR" : "OC_RESIZE_NEAREST"),
          ".coord_mode = " + coord_c, ".nearest_mode = " + nearest_c,
          ".scale_h = " + CFloat(scales[0]), ".scale_w = " + CFloat(scales[1])};
  Use("resize2d.c");
  if (const OverlapContract* c = Overlap()) {
    Params("oc_resize2d_params", WithField(fields, ".n_c", 1));
    PlaneByPlane(*c, "oc_resize2d_f32(&p, @X, @Y);");
    return absl::OkStatus();
  }
  Params("oc_resize2d_params", fields);
  w_.Line(absl::StrCat("oc_resize2d_f32(&p, ", Read(0), ", ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status EmitStatementBody(EmitContext& ctx, const Statement& s, CodeWriter& w) {
  return StatementEmitter(ctx, s, w).Run();
}

}  // namespace oc
