// StatementEmitter: data movement (copies, concat, slice, split, transpose,
// expand, tile, pad) and indexing (gather and scatter variants, one-hot,
// top-k, trilu, reverse-sequence, max-unpool).
#include "absl/strings/str_cat.h"
#include "compiler/support/status.h"
#include "targets/c99/statement_emitter.h"

namespace oc {
namespace {

// oc_scatter_reduction's name for a reduction attribute.
std::string ScatterReductionEnum(const std::string& r) {
  std::string up = r;
  for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return "OC_SCATTER_" + up;
}

}  // namespace

// A strided copy from operand 0 into result `r`.
absl::Status StatementEmitter::StridedCopy(int r, const Shape& dims, int64_t src_offset,
                                           const std::vector<int64_t>& src_strides,
                                           int64_t dst_offset,
                                           const std::vector<int64_t>& dst_strides,
                                           const std::string& pname) {
  if (dims.size() > kMaxRank) return Unsupported("rank above 8");
  Params("oc_copy_params",
         {absl::StrCat(".rank = ", dims.size()),
          absl::StrCat(".elem_size = ", DTypeSize(V(s_.results[r]).dtype)), ".dims = " + Ints(dims),
          absl::StrCat(".src_offset = ", src_offset), absl::StrCat(".dst_offset = ", dst_offset),
          ".src_strides = " + Ints(src_strides), ".dst_strides = " + Ints(dst_strides)},
         pname);
  Use("copy.c");
  return absl::OkStatus();
}

absl::Status StatementEmitter::Copy() {
  w_.Line(
      absl::StrCat("memcpy(", Write(), ", ", Read(0), ", ", V(s_.results[0]).ByteSize(), "u);"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Concat() {
  const Shape& y = Out();
  const size_t axis = static_cast<size_t>(s_.Int("axis"));
  const int64_t outer = Prod(y, 0, axis), inner = Prod(y, axis + 1, y.size());
  int64_t offset = 0;
  for (size_t i = 0; i < s_.operands.size(); ++i) {
    const int64_t rows = In(static_cast<int>(i))[axis] * inner;
    std::string pname = absl::StrCat("p", i);
    OC_RETURN_IF_ERROR(
        StridedCopy(0, {outer, rows}, 0, {rows, 1}, offset, {y[axis] * inner, 1}, pname));
    w_.Line(absl::StrCat("oc_copy(&", pname, ", ", Read(static_cast<int>(i)), ", ", Write(), ");"));
    offset += rows;
  }
  return absl::OkStatus();
}

absl::Status StatementEmitter::Slice() {
  const Buffer& xb = ctx_.model.buffers[ctx_.model.buffer_of_value[s_.operands[0]]];
  if (xb.location == BufferLocation::kStreamed) {  // --stream-input: a band of whole rows
    w_.Line(absl::StrCat(ctx_.prefix, "_fetch_input_rows(", xb.io_index, ", ", s_.Ints("starts")[2], ", ",
                         Out()[2], ", ", Write(), ");"));
    return absl::OkStatus();
  }
  const Shape& x = In(0);
  std::vector<int64_t> st = RowMajorStrides(x), starts = s_.Ints("starts"),
                       steps = s_.Ints("steps");
  int64_t offset = 0;
  std::vector<int64_t> src(x.size());
  for (size_t d = 0; d < x.size(); ++d) {
    offset += starts[d] * st[d];
    src[d] = st[d] * steps[d];
  }
  OC_RETURN_IF_ERROR(StridedCopy(0, Out(), offset, src, 0, RowMajorStrides(Out()), "p"));
  w_.Line(absl::StrCat("oc_copy(&p, ", Read(0), ", ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Split() {
  const Shape& x = In(0);
  const size_t axis = static_cast<size_t>(s_.Int("axis"));
  std::vector<int64_t> st = RowMajorStrides(x);
  int64_t start = 0;
  for (size_t r = 0; r < s_.results.size(); ++r) {
    std::string pname = absl::StrCat("p", r);
    const Shape& y = Out(static_cast<int>(r));
    OC_RETURN_IF_ERROR(
        StridedCopy(static_cast<int>(r), y, start * st[axis], st, 0, RowMajorStrides(y), pname));
    w_.Line(
        absl::StrCat("oc_copy(&", pname, ", ", Read(0), ", ", Write(static_cast<int>(r)), ");"));
    start += y[axis];
  }
  return absl::OkStatus();
}

absl::Status StatementEmitter::Transpose() {
  std::vector<int64_t> st = RowMajorStrides(In(0)), src;
  for (int64_t p : s_.Ints("perm")) src.push_back(st[p]);
  OC_RETURN_IF_ERROR(StridedCopy(0, Out(), 0, src, 0, RowMajorStrides(Out()), "p"));
  w_.Line(absl::StrCat("oc_copy(&p, ", Read(0), ", ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Expand() {
  OC_RETURN_IF_ERROR(
      StridedCopy(0, Out(), 0, BroadcastStrides(In(0), Out()), 0, RowMajorStrides(Out()), "p"));
  w_.Line(absl::StrCat("oc_copy(&p, ", Read(0), ", ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Tile() {
  const Shape& x = In(0);
  const Shape& y = Out();
  std::vector<int64_t> reps = s_.Ints("repeats"), xs = RowMajorStrides(x), ys = RowMajorStrides(y);
  Shape dims;
  std::vector<int64_t> src, dst;
  for (size_t d = 0; d < x.size(); ++d) {
    dims.push_back(reps[d]);  // which repetition
    src.push_back(0);
    dst.push_back(x[d] * ys[d]);
    dims.push_back(x[d]);  // position inside it
    src.push_back(xs[d]);
    dst.push_back(ys[d]);
  }
  OC_RETURN_IF_ERROR(StridedCopy(0, dims, 0, src, 0, dst, "p"));
  w_.Line(absl::StrCat("oc_copy(&p, ", Read(0), ", ", Write(), ");"));
  return absl::OkStatus();
}

// An integer constant of type t as a C literal.
std::string StatementEmitter::IntLiteral(DType t, int64_t v) {
  if (t == DType::kU64) return absl::StrCat("UINT64_C(", static_cast<uint64_t>(v), ")");
  if (t == DType::kI64) return v == INT64_MIN ? "INT64_MIN" : absl::StrCat("INT64_C(", v, ")");
  return absl::StrCat("(", DTypeCType(t), ")", CInt(v));
}

absl::Status StatementEmitter::Pad() {
  const Shape& x = In(0);
  if (x.size() > kMaxRank) return Unsupported("rank above 8");
  const DType t = V(s_.operands[0]).dtype;
  std::vector<int64_t> pads = s_.Ints("pads");
  std::vector<int64_t> begin(pads.begin(), pads.begin() + x.size());
  std::string mode = s_.Str("mode");
  // float16 pads with 0 only (the lowering checks); its bits are then 0
  const std::string value = t == DType::kF16 ? "0"
                            : IsFloat(t)     ? CFloat(s_.Float("value"))
                                             : IntLiteral(t, s_.Int("int_value"));
  w_.Line(absl::StrCat("static const ", DTypeCType(t), " value = ", value, ";"));
  Params("oc_pad_params", {absl::StrCat(".rank = ", x.size()),
                           absl::StrCat(".mode = ", mode == "reflect" ? "OC_PAD_REFLECT"
                                                    : mode == "edge"  ? "OC_PAD_EDGE"
                                                                      : "OC_PAD_CONSTANT"),
                           absl::StrCat(".elem_size = ", DTypeSize(t)), ".in_dims = " + Ints(x),
                           ".pads_begin = " + Ints(begin), ".out_dims = " + Ints(Out())});
  Use("pad.c");
  w_.Line(absl::StrCat("oc_pad(&p, ", Read(0), ", ", Write(), ", &value);"));
  return absl::OkStatus();
}

// Gather: compile-time indices become an int32 array; run-time ones are
// operand 1 (int32 or int64).
absl::Status StatementEmitter::Gather() {
  const Shape& x = In(0);
  const size_t axis = static_cast<size_t>(s_.Int("axis"));
  const bool runtime = HasOperand(1);
  std::string indices = "indices";
  int64_t n = 0;
  if (runtime) {
    indices = Read(1);
    n = V(s_.operands[1]).NumElements();
  } else {
    std::vector<int64_t> idx = s_.Ints("indices");
    n = static_cast<int64_t>(idx.size());
    w_.Line(absl::StrCat("static const int32_t indices[", idx.size(), "] = ", Ints(idx), ";"));
  }
  Params("oc_gather_params",
         {absl::StrCat(".outer = ", Prod(x, 0, axis)), absl::StrCat(".axis_len = ", x[axis]),
          absl::StrCat(".inner = ", Prod(x, axis + 1, x.size())), absl::StrCat(".n_indices = ", n),
          absl::StrCat(".elem_size = ", DTypeSize(V(s_.operands[0]).dtype)),
          absl::StrCat(".index_is64 = ", runtime && Is64(1) ? 1 : 0)});
  Use("gather.c");
  w_.Line(absl::StrCat("oc_gather(&p, ", Read(0), ", ", indices, ", ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::GatherElements() {
  const Shape& x = In(0);
  const Shape& y = Out();
  if (y.size() > kMaxRank) return Unsupported("rank above 8");
  const int64_t axis = s_.Int("axis");
  Params("oc_gather_elements_params",
         {absl::StrCat(".rank = ", y.size()),
          absl::StrCat(".elem_size = ", DTypeSize(V(s_.operands[0]).dtype)),
          absl::StrCat(".axis = ", axis), absl::StrCat(".axis_len = ", x[axis]),
          absl::StrCat(".index_is64 = ", Is64(1) ? 1 : 0), ".dims = " + Ints(y),
          ".x_strides = " + Ints(RowMajorStrides(x))});
  Use("gather_elements.c");
  w_.Line(absl::StrCat("oc_gather_elements(&p, ", Read(0), ", ", Read(1), ", ", Write(), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::ScatterElements() {
  const Shape& idx = In(1);
  if (idx.size() > kMaxRank) return Unsupported("rank above 8");
  const int64_t axis = s_.Int("axis");
  Params("oc_scatter_elements_params",
         {absl::StrCat(".rank = ", idx.size()),
          absl::StrCat(".elem_size = ", DTypeSize(V(s_.operands[0]).dtype)),
          absl::StrCat(".axis = ", axis), absl::StrCat(".axis_len = ", In(0)[axis]),
          absl::StrCat(".index_is64 = ", Is64(1) ? 1 : 0),
          ".reduction = " + ScatterReductionEnum(s_.Str("reduction")),
          absl::StrCat(".data_size = ", V(s_.operands[0]).NumElements()), ".dims = " + Ints(idx),
          ".y_strides = " + Ints(RowMajorStrides(In(0)))});
  Use("scatter_elements.c");
  w_.Line(absl::StrCat("oc_scatter_elements(&p, ", Read(0), ", ", Read(1), ", ", Read(2), ", ",
                       Write(), ");"));
  return absl::OkStatus();
}

// GatherND (batch_dims) and ScatterND share oc_nd_params.
absl::Status StatementEmitter::GatherScatterND() {
  const Shape& x = In(0);
  const Shape& idx = In(1);
  const bool gather = s_.op == OpKind::kGatherND;
  const size_t b = gather ? static_cast<size_t>(s_.Int("batch_dims")) : 0;
  const size_t k = static_cast<size_t>(idx.back());
  std::vector<int64_t> st = RowMajorStrides(x);
  Params("oc_nd_params",
         {absl::StrCat(".batch = ", Prod(x, 0, b)),
          absl::StrCat(".n_tuples = ", Prod(idx, b, idx.size() - 1)), absl::StrCat(".k = ", k),
          absl::StrCat(".inner = ", Prod(x, b + k, x.size())),
          absl::StrCat(".data_batch = ", Prod(x, b, x.size())),
          absl::StrCat(".elem_size = ", DTypeSize(V(s_.operands[0]).dtype)),
          absl::StrCat(".index_is64 = ", Is64(1) ? 1 : 0),
          ".reduction = " + ScatterReductionEnum(gather ? "none" : s_.Str("reduction")),
          ".dims = " + Ints(std::vector<int64_t>(x.begin() + b, x.begin() + b + k)),
          ".strides = " + Ints(std::vector<int64_t>(st.begin() + b, st.begin() + b + k))});
  Use(gather ? "gather_nd.c" : "scatter_nd.c");
  if (gather) {
    w_.Line(absl::StrCat("oc_gather_nd(&p, ", Read(0), ", ", Read(1), ", ", Write(), ");"));
  } else {
    w_.Line(absl::StrCat("oc_scatter_nd(&p, ", Read(0), ", ", Read(1), ", ", Read(2), ", ", Write(),
                         ");"));
  }
  return absl::OkStatus();
}

absl::Status StatementEmitter::ReverseSequence() {
  const Shape& x = In(0);
  const bool time_major = s_.Int("time_axis") == 0;
  Use("reverse_sequence.c");
  w_.Line(absl::StrCat("oc_reverse_sequence(", Read(0), ", ", Read(1), ", ", Is64(1) ? 1 : 0, ", ",
                       Write(), ", ", time_major ? x[0] : x[1], ", ", time_major ? x[1] : x[0],
                       ", ", Prod(x, 2, x.size()), ", ", DTypeSize(V(s_.operands[0]).dtype), ", ",
                       time_major ? 1 : 0, ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::OneHot() {
  const Shape& y = Out();
  const size_t axis = static_cast<size_t>(s_.Int("axis"));
  Use("onehot.c");
  w_.Line(absl::StrCat("oc_onehot(", Read(0), ", ", DTypeEnum(V(s_.operands[0]).dtype), ", ",
                       Read(1), ", ", Write(), ", ", Prod(y, 0, axis), ", ", y[axis], ", ",
                       Prod(y, axis + 1, y.size()), ", ", DTypeSize(V(s_.results[0]).dtype), ");"));
  return absl::OkStatus();
}

// Indices address the default output (pooled input) shape; an
// output_shape may pad it.
absl::Status StatementEmitter::MaxUnpool() {
  const Shape& y = Out();
  std::vector<int64_t> def = s_.Ints("default_shape");
  w_.Line("static const int32_t in_dims[3] = " + Ints(Spatial3(def)) + ";");
  w_.Line("static const int32_t out_dims[3] = " + Ints(Spatial3(y)) + ";");
  Use("max_unpool.c");
  w_.Line(absl::StrCat("oc_max_unpool_f32(", Read(0), ", ", Read(1), ", ",
                       V(s_.operands[0]).NumElements(), ", ", Write(), ", ", y[0] * y[1],
                       ", in_dims, out_dims);"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::TopK() {
  const Shape& x = In(0);
  const size_t axis = static_cast<size_t>(s_.Int("axis"));
  Use("topk.c");
  w_.Line(absl::StrCat("oc_topk_f32(", Read(0), ", ", Write(0), ", ", Write(1), ", ",
                       Prod(x, 0, axis), ", ", x[axis], ", ", Prod(x, axis + 1, x.size()), ", ",
                       s_.Int("k"), ", ", s_.Int("largest"), ");"));
  return absl::OkStatus();
}

absl::Status StatementEmitter::Trilu() {
  const Shape& x = In(0);
  Params("oc_trilu_params",
         {absl::StrCat(".batch = ", Prod(x, 0, x.size() - 2)),
          absl::StrCat(".rows = ", x[x.size() - 2]), absl::StrCat(".cols = ", x.back()),
          absl::StrCat(".elem_size = ", DTypeSize(V(s_.operands[0]).dtype)),
          absl::StrCat(".upper = ", s_.Int("upper")), ".k = " + CInt(s_.Int("k"))});
  Use("trilu.c");
  w_.Line(absl::StrCat("oc_trilu(&p, ", Read(0), ", ", HasOperand(1) ? Read(1) : "NULL", ", ",
                       Write(), ");"));
  return absl::OkStatus();
}

}  // namespace oc
