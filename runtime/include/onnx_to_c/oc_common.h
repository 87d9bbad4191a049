/*
 * onnx-to-c runtime: shared definitions for the C99 kernels.
 *
 * The runtime is plain C99 and depends on nothing in the compiler. It is used
 * two ways:
 *   - as a library (the kernels of runtime/reference, some replaced by an
 *     optimized folder's, with oc_kernels.h), for kernel tests;
 *   - embedded by the code generator into one generated translation unit, with
 *     OC_API defined as `static` so two models never clash at link time.
 *
 * Shapes and strides are int32_t: a tensor with more than 2^31-1 elements is
 * rejected by the compiler. All parameter structs are filled in by the code
 * generator as `static const` data.
 */
#ifndef ONNX_TO_C_OC_COMMON_H_
#define ONNX_TO_C_OC_COMMON_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef OC_API
#define OC_API
#endif

/* A kernel's per-type instance kept out of its dispatcher: inlined together,
 * the instances' spill slots add up in one stack frame (stack is RAM too). */
#if defined(__GNUC__)
#define OC_NOINLINE __attribute__((noinline))
#else
#define OC_NOINLINE
#endif

/* Packed 8-bit weights on a word boundary: the Cortex-M DSP kernels load
 * them with LDM where they are aligned (runtime/arm: oc_q8_dsp.h) and word by word where
 * they are not, so the attribute only picks the faster path. */
#if defined(__GNUC__)
#define OC_WORD_ALIGNED __attribute__((aligned(4)))
#else
#define OC_WORD_ALIGNED
#endif

#define OC_MAX_RANK 8

/* Activation applied in a kernel's epilogue (Conv, ConvTranspose, Gemm, MatMul). */
typedef enum {
  OC_ACT_NONE = 0,
  OC_ACT_RELU = 1,
  OC_ACT_CLIP = 2,         /* min(max(v, alpha), beta) */
  OC_ACT_LEAKY_RELU = 3,   /* v < 0 ? alpha * v : v */
  OC_ACT_HARD_SIGMOID = 4, /* max(0, min(1, alpha * v + beta)) */
  OC_ACT_HARD_SWISH = 5,   /* v * max(0, min(1, v / 6 + 1 / 2)) */
  OC_ACT_SIGMOID = 6,
  OC_ACT_TANH = 7
} oc_act_kind;

typedef struct {
  int32_t kind; /* oc_act_kind */
  float alpha;
  float beta;
} oc_act;

/* Elementwise unary operators (oc_unary_f32). */
typedef enum {
  OC_UNARY_RELU = 0,
  OC_UNARY_LEAKY_RELU = 1,   /* alpha */
  OC_UNARY_CLIP = 2,         /* alpha = min, beta = max */
  OC_UNARY_SIGMOID = 3,
  OC_UNARY_HARD_SIGMOID = 4, /* alpha, beta */
  OC_UNARY_HARD_SWISH = 5,
  OC_UNARY_TANH = 6,
  OC_UNARY_SQRT = 7,
  OC_UNARY_EXP = 8,
  OC_UNARY_LOG = 9,
  OC_UNARY_ABS = 10,
  OC_UNARY_NEG = 11,
  OC_UNARY_RECIPROCAL = 12,
  OC_UNARY_FLOOR = 13,
  OC_UNARY_CEIL = 14,
  OC_UNARY_ELU = 15,         /* alpha */
  OC_UNARY_SELU = 16,        /* alpha, beta = gamma */
  OC_UNARY_SOFTPLUS = 17,
  OC_UNARY_SOFTSIGN = 18,
  OC_UNARY_ERF = 19,
  OC_UNARY_IDENTITY = 20,
  OC_UNARY_ROUND = 21,       /* half to even */
  OC_UNARY_SIGN = 22,
  OC_UNARY_SIN = 23,
  OC_UNARY_COS = 24,
  OC_UNARY_THRESHOLDED_RELU = 25, /* alpha */
  OC_UNARY_CELU = 26,        /* alpha */
  OC_UNARY_GELU = 27,        /* exact (erf) form */
  OC_UNARY_MUL_ADD = 28,     /* alpha * v + beta (folded BatchNorm on a scalar) */
  OC_UNARY_ACOS = 29,
  OC_UNARY_ASIN = 30,
  OC_UNARY_ATAN = 31,
  OC_UNARY_ACOSH = 32,
  OC_UNARY_ASINH = 33,
  OC_UNARY_ATANH = 34,
  OC_UNARY_COSH = 35,
  OC_UNARY_SINH = 36,
  OC_UNARY_TAN = 37,
  OC_UNARY_SHRINK = 38,      /* alpha = lambd, beta = bias */
  OC_UNARY_MISH = 39,
  OC_UNARY_GELU_TANH = 40,   /* tanh approximation */
  OC_UNARY_SWISH = 41        /* alpha */
} oc_unary_op;

/* Elementwise binary operators (oc_binary_f32). */
typedef enum {
  OC_BINARY_ADD = 0,
  OC_BINARY_SUB = 1,
  OC_BINARY_MUL = 2,
  OC_BINARY_DIV = 3,
  OC_BINARY_POW = 4,
  OC_BINARY_MIN = 5,
  OC_BINARY_MAX = 6,
  OC_BINARY_PRELU = 7, /* a < 0 ? a * b : a */
  OC_BINARY_MOD = 8,   /* integers: remainder with the sign of b (Python's %) */
  OC_BINARY_FMOD = 9,  /* remainder with the sign of a (C's % and fmod) */
  OC_BINARY_SHIFT_LEFT = 10,  /* unsigned integers; shifts >= the width give 0 */
  OC_BINARY_SHIFT_RIGHT = 11,
  OC_BINARY_AND = 12, /* bool: logical; integers: bitwise */
  OC_BINARY_OR = 13,
  OC_BINARY_XOR = 14,
  /* comparisons: y is bool (uint8_t 0 / 1) whatever the operand type */
  OC_BINARY_EQUAL = 15,
  OC_BINARY_LESS = 16,
  OC_BINARY_LESS_EQUAL = 17,
  OC_BINARY_GREATER = 18,
  OC_BINARY_GREATER_EQUAL = 19
} oc_binary_op;

/* Integer division and remainder by 0 give 0, and INT_MIN / -1 wraps, so
 * that no input is undefined behaviour; integer +, -, * and Pow wrap. */

/* Element types, in the compiler's order (compiler/ir/dtype.h). bool is a
 * uint8_t holding 0 or 1, float16 a uint16_t holding the IEEE bits. */
typedef enum {
  OC_F32 = 0,
  OC_F64 = 1,
  OC_F16 = 2,
  OC_I8 = 3,
  OC_U8 = 4,
  OC_I16 = 5,
  OC_U16 = 6,
  OC_I32 = 7,
  OC_U32 = 8,
  OC_I64 = 9,
  OC_U64 = 10,
  OC_BOOL = 11
} oc_dtype;

/* Numpy broadcasting: y has `rank` dims; a and b are read with per-dim element
 * strides (0 on a broadcast dim). The kernels accept y == a or y == b when that
 * operand has y's shape (in-place execution). */
typedef struct {
  int32_t rank;
  int32_t dims[OC_MAX_RANK];
  int32_t a_strides[OC_MAX_RANK];
  int32_t b_strides[OC_MAX_RANK];
} oc_broadcast_params;

/* Where: y = c ? a : b with three-way numpy broadcasting (per-dim element
 * strides, 0 on broadcast dims); elements of elem_size bytes, c is bool. */
typedef struct {
  int32_t rank;
  int32_t elem_size;
  int32_t dims[OC_MAX_RANK];
  int32_t c_strides[OC_MAX_RANK];
  int32_t a_strides[OC_MAX_RANK];
  int32_t b_strides[OC_MAX_RANK];
} oc_where_params;

/* CumSum along one axis of a (rank, dims) tensor; the axis is a constant
 * (axis >= 0) or read from the kernel's axis operand (axis == -1; int32 or
 * int64, negative counting from the end). */
typedef struct {
  int32_t rank;
  int32_t dims[OC_MAX_RANK];
  int32_t axis;
  int32_t axis_is64;
  int32_t exclusive, reverse;
} oc_cumsum_params;

/* Einsum of one or two operands as a loop over n_labels index dims (the
 * output's labels first, then the summed ones): y[...] += a[...] * b[...]
 * with per-label element strides of each tensor (0 where a label is absent,
 * summed where it repeats: a diagonal). y (y_size elements) starts at 0; the
 * sums run in row-major label order. */
typedef struct {
  int32_t n_labels;
  int32_t n_operands;
  int32_t y_size;
  int32_t dims[OC_MAX_RANK];
  int32_t y_strides[OC_MAX_RANK];
  int32_t a_strides[OC_MAX_RANK];
  int32_t b_strides[OC_MAX_RANK];
} oc_einsum_params;

/* Quantization: x viewed as (outer, axis_len, inner); scale and zero point
 * are one value (per_axis == 0) or one per axis index. q_type is the
 * quantized type: OC_U8 or OC_I8 (and OC_I32 for DequantizeLinear's input).
 * QuantizeLinear: q = saturate(round_half_even(x / scale) + zp);
 * DequantizeLinear: x = (q - zp) * scale. A NULL zero point is 0. */
typedef struct {
  int32_t outer, axis_len, inner;
  int32_t per_axis;
  int32_t q_type; /* oc_dtype */
} oc_quant_params;

/* Requantization of int32 accumulators acc (outer, channels, inner):
 * y = saturate(round_half_even((acc + bias[c]) * (a_scale * b_scale[c] /
 * y_scale)) + y_zp) in y_type (OC_U8 / OC_I8); b_scale is per channel when
 * b_per_channel, bias (int32, or NULL) per channel. */
typedef struct {
  int32_t outer, channels, inner;
  int32_t b_per_channel;
  int32_t y_type; /* oc_dtype */
} oc_requant_params;

/* 2-D convolution, NCHW activations, OIHW weights (I = c_in / group).
 * A 1-D convolution is a 2-D one with h = k_h = 1; a 3-D one (NCDHW, OIDHW)
 * adds the depth fields, which are 1 (pad_front 0) otherwise. */
typedef struct {
  int32_t n, c_in, h_in, w_in;
  int32_t c_out, h_out, w_out;
  int32_t k_h, k_w;
  int32_t stride_h, stride_w;
  int32_t dil_h, dil_w;
  int32_t pad_top, pad_left; /* bottom/right padding is implied by h_out/w_out */
  int32_t group;
  oc_act act;
  int32_t d_in, d_out, k_d, stride_d, dil_d, pad_front;
  int32_t reverse_rows; /* oc_conv2d_nhwc_f32: output rows in decreasing (n, oy) order */
} oc_conv2d_params;

/* 2-D transposed convolution, NCHW, weights (c_in, c_out / group, k_h, k_w).
 * pad_top/pad_left are the begin pads of the ONNX attribute; h_out/w_out
 * already include output_padding and the end pads. */
typedef oc_conv2d_params oc_conv_transpose2d_params;

/* Y = act(alpha * op(A) * op(B) + beta * C); A is (M,K) or (K,M) if trans_a,
 * B is (K,N) or (N,K) if trans_b. C (optional) is read at
 * c[m * c_stride_m + n * c_stride_n] (strides 0 where C broadcasts). */
typedef struct {
  int32_t m, n, k;
  int32_t trans_a, trans_b;
  float alpha, beta;
  int32_t c_stride_m, c_stride_n;
  oc_act act;
} oc_gemm_params;

/* Batched MatMul with numpy broadcasting over the batch dims:
 * Y[b] = A[b] (M x K) * B[b] (K x N). batch_rank <= OC_MAX_RANK - 2; strides
 * are element strides of each operand's matrices per batch dim (0 where the
 * operand broadcasts). */
typedef struct {
  int32_t m, n, k;
  int32_t batch_rank;
  int32_t batch_dims[OC_MAX_RANK];
  int32_t a_batch_strides[OC_MAX_RANK];
  int32_t b_batch_strides[OC_MAX_RANK];
  oc_act act;
} oc_matmul_params;

/* MatMulInteger: int32 y = (a - a_zp) * (b - b_zp) on 8-bit operands
 * (a_signed / b_signed: int8, else uint8). a_zp is one value or one per row
 * of A (a_zp_per_row), b_zp one value or one per column of B. */
typedef struct {
  oc_matmul_params mm;
  int32_t a_signed, b_signed;
  int32_t a_zp_per_row, b_zp_per_col;
} oc_matmul_int_params;

/* ConvInteger: int32 y = conv(x - x_zp, w - w_zp) on 8-bit operands; x_zp
 * is one value, w_zp one value or one per output channel. */
typedef struct {
  oc_conv2d_params conv;
  int32_t x_signed, w_signed;
  int32_t w_zp_per_channel;
} oc_conv_int_params;

/* Recurrent layers (RNN, GRU, LSTM), ONNX layouts: X (seq, batch, input),
 * Y (seq, num_dir, batch, hidden), states (num_dir, batch, hidden); with
 * layout 1 X (batch, seq, input), Y (batch, seq, num_dir, hidden), states
 * (batch, num_dir, hidden). Weights W (num_dir, gates * hidden, input), R
 * (num_dir, gates * hidden, hidden), B (num_dir, 2 * gates * hidden). Gate
 * pre-activations are clipped to [-clip, clip] when has_clip. acts holds
 * each direction's activations f, g, h. */
typedef enum {
  OC_RNN_SIGMOID = 0,
  OC_RNN_TANH = 1,
  OC_RNN_RELU = 2,
  OC_RNN_AFFINE = 3,           /* alpha * v + beta */
  OC_RNN_LEAKY_RELU = 4,       /* alpha */
  OC_RNN_THRESHOLDED_RELU = 5, /* alpha */
  OC_RNN_SCALED_TANH = 6,      /* alpha * tanh(beta * v) */
  OC_RNN_HARD_SIGMOID = 7,     /* alpha, beta */
  OC_RNN_ELU = 8,              /* alpha */
  OC_RNN_SOFTSIGN = 9,
  OC_RNN_SOFTPLUS = 10
} oc_rnn_act_kind;

typedef struct {
  int32_t kind; /* oc_rnn_act_kind */
  float alpha, beta;
} oc_rnn_act;

typedef struct {
  int32_t seq, batch, input, hidden;
  int32_t num_dir;
  int32_t reverse; /* a single direction runs backwards */
  int32_t layout;
  int32_t has_clip;
  float clip;
  int32_t linear_before_reset; /* GRU */
  int32_t input_forget;        /* LSTM: couple the input and forget gates */
  oc_rnn_act acts[2][3];
} oc_rnn_params;

/* GridSample (PyTorch's grid_sample, 4-D): x (n, c, h_in, w_in) sampled at
 * grid (n, h_out, w_out, 2) positions in [-1, 1] (x, y). */
typedef enum { OC_GRID_BILINEAR = 0, OC_GRID_NEAREST = 1, OC_GRID_BICUBIC = 2 } oc_grid_mode;
typedef enum { OC_GRID_ZEROS = 0, OC_GRID_BORDER = 1, OC_GRID_REFLECTION = 2 } oc_grid_padding;

typedef struct {
  int32_t n, c, h_in, w_in, h_out, w_out;
  int32_t d_in, d_out; /* 3-D: depths (0 in 2-D); grid (n, d_out, h_out, w_out, 3) */
  int32_t mode;    /* oc_grid_mode */
  int32_t padding; /* oc_grid_padding */
  int32_t align_corners;
} oc_grid_sample_params;

/* DeformConv, 2-D: x (n, c, h, w), w (oc, c / group, kh, kw), offset (n,
 * offset_group * kh * kw * 2, out_h, out_w) as (dy, dx) per tap, mask (n,
 * offset_group * kh * kw, out_h, out_w) or none, bias (oc) or none. */
typedef struct {
  int32_t n, c, h, w, oc, out_h, out_w, kh, kw;
  int32_t stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
  int32_t group, offset_group;
} oc_deform_conv_params;

/* RoiAlign (as ONNX Runtime computes it): x (n, c, h, w), rois (n_rois, 4)
 * as x1, y1, x2, y2, batch_indices (n_rois, int64) -> y (n_rois, c, out_h,
 * out_w); each bin averages (or takes the max of) bilinear samples on a
 * sampling_ratio grid (ceil(roi size / bins) when 0). */
typedef struct {
  int32_t n, c, h, w, n_rois, out_h, out_w;
  int32_t sampling_ratio;
  float spatial_scale;
  int32_t half_pixel; /* coordinate_transformation_mode half_pixel */
  int32_t is_max;
} oc_roi_align_params;

/* DFT along one axis of x viewed as (outer, n_in, inner, 1 or 2 (complex_in
 * + 1)): y (outer, n_out, inner, 2) = sum over j < min(n_in, len) of
 * x[j] * w^(j k), w = exp(-2 pi i / len) (conjugate and divided by len when
 * inverse). The kernel gets cos and sin of 2 pi m / len, m < len. */
typedef struct {
  int32_t outer, n_in, inner;
  int32_t len, n_out;
  int32_t complex_in;
  int32_t inverse;
} oc_dft_params;

/* Pooling over NCHW (n_c = N * C planes). A 1-D pool has h = k_h = 1; a
 * 3-D one (NCDHW) adds the depth fields, which are 1 (pads 0) otherwise.
 * MaxPool's optional indices are flat input positions, row-major, or with
 * storage_order 1 with h and w swapped (column-major planes). */
typedef struct {
  int32_t n_c, h_in, w_in, h_out, w_out;
  int32_t k_h, k_w;
  int32_t stride_h, stride_w;
  int32_t dil_h, dil_w;
  int32_t pad_top, pad_left, pad_bottom, pad_right;
  int32_t count_include_pad; /* AveragePool only */
  int32_t d_in, d_out, k_d, stride_d, dil_d, pad_front, pad_back;
  int32_t storage_order; /* MaxPool indices only */
  int32_t reverse_rows;  /* oc_maxpool2d_nhwc_f32: output rows in decreasing (n, oy) order */
} oc_pool2d_params;

/* Generic strided copy of elem_size-byte elements:
 * y[dst_offset + sum i_d * dst_strides[d]] = x[src_offset + sum i_d * src_strides[d]]
 * for every index i over dims. Strides are in elements and may be zero (src,
 * broadcast) or negative (src, reversed slices). Used for Concat, Slice,
 * Split, Transpose, Expand, Tile, constant Pad and copies. */
typedef struct {
  int32_t rank;
  int32_t elem_size;
  int32_t dims[OC_MAX_RANK];
  int32_t src_offset;
  int32_t dst_offset;
  int32_t src_strides[OC_MAX_RANK];
  int32_t dst_strides[OC_MAX_RANK];
} oc_copy_params;

/* Gather along one axis: x is (outer, axis_len, inner), y is (outer,
 * n_indices, inner). Indices are int32 (compile-time ones) or int64
 * (index_is64); negative ones count from the end; out-of-range ones give
 * zeros. */
typedef struct {
  int32_t outer, axis_len, inner;
  int32_t n_indices;
  int32_t elem_size;
  int32_t index_is64;
} oc_gather_params;

/* GatherElements: y has index's dims; y[i] = x[i with its `axis` coordinate
 * replaced by index[i]] (negative counts from the end, out of range gives
 * zero). x_strides are x's row-major element strides. */
typedef struct {
  int32_t rank;
  int32_t elem_size;
  int32_t axis;
  int32_t axis_len; /* x's dim along axis */
  int32_t index_is64;
  int32_t dims[OC_MAX_RANK];
  int32_t x_strides[OC_MAX_RANK];
} oc_gather_elements_params;

/* Scatter reductions (ScatterElements, ScatterND): NONE copies the update,
 * the others combine it with the element (float32 only). */
typedef enum {
  OC_SCATTER_NONE = 0,
  OC_SCATTER_ADD = 1,
  OC_SCATTER_MUL = 2,
  OC_SCATTER_MAX = 3,
  OC_SCATTER_MIN = 4
} oc_scatter_reduction;

/* ScatterElements: y = data (data_size elements), then for every position
 * i of index (dims): y[i with its axis coordinate replaced by index[i]] =
 * update[i] (or combined, `reduction`). y_strides are data's row-major
 * strides. Out-of-range indices are skipped. */
typedef struct {
  int32_t rank;
  int32_t elem_size;
  int32_t axis;
  int32_t axis_len;
  int32_t index_is64;
  int32_t reduction; /* oc_scatter_reduction */
  int32_t data_size;
  int32_t dims[OC_MAX_RANK];
  int32_t y_strides[OC_MAX_RANK];
} oc_scatter_elements_params;

/* GatherND / ScatterND with batch_dims: data is (batch, data_batch
 * elements); indices is (batch, n_tuples, k); each tuple addresses a slice
 * of `inner` elements at sum(tuple[j] * strides[j]) (dims[j] bound the
 * tuple's entries, negative counting from the end). GatherND copies the
 * slices out (zeros for out-of-range tuples); ScatterND starts from data
 * and writes (or combines) the updates' slices in. */
typedef struct {
  int32_t batch, n_tuples, k, inner;
  int32_t data_batch;
  int32_t elem_size;
  int32_t index_is64;
  int32_t reduction; /* ScatterND: oc_scatter_reduction */
  int32_t dims[OC_MAX_RANK];
  int32_t strides[OC_MAX_RANK];
} oc_nd_params;

/* NegativeLogLikelihoodLoss: x (n, c, inner) holds log-probabilities,
 * target (n, inner) class indices (int32 or int64), weight (c) or NULL.
 * loss = -x[target] * weight[target], 0 where target == ignore_index;
 * reduction none gives y (n, inner), sum and mean one value (mean divides by
 * the summed weights of the counted elements). */
typedef enum { OC_REDUCTION_NONE = 0, OC_REDUCTION_SUM = 1, OC_REDUCTION_MEAN = 2 } oc_reduction;

typedef struct {
  int32_t n, c, inner;
  int32_t target_is64;
  int32_t reduction; /* oc_reduction */
  int32_t has_ignore_index;
  int64_t ignore_index;
} oc_nll_loss_params;

/* Trilu on (batch, rows, cols) matrices of elem_size-byte elements: keeps
 * j - i >= k (upper) or j - i <= k (lower), zeros the rest. k is read from
 * the kernel's int64 pointer when it is not NULL. */
typedef struct {
  int32_t batch, rows, cols;
  int32_t elem_size;
  int32_t upper;
  int64_t k;
} oc_trilu_params;

/* Normalization of the rows of x (rows, cols): y = (x - mean) / sqrt(var +
 * epsilon) * scale + bias, the variance without correction. LayerNorm has
 * scale and bias per column (channels == 0); InstanceNorm per row % channels. */
typedef struct {
  int32_t rows, cols;
  int32_t channels;
  float epsilon;
} oc_norm_params;

/* Reduction over any set of axes of an input of rank `rank`.
 * reduce_mask bit d set = axis d is reduced. Output is the kept dims in order
 * (keepdims does not change the memory layout). Sums run in increasing
 * row-major index order of the reduced dims. */
typedef enum {
  OC_REDUCE_SUM = 0,
  OC_REDUCE_MEAN = 1,
  OC_REDUCE_MAX = 2,
  OC_REDUCE_MIN = 3,
  OC_REDUCE_PROD = 4,
  OC_REDUCE_SUM_SQUARE = 5,
  OC_REDUCE_L1 = 6,
  OC_REDUCE_L2 = 7,
  OC_REDUCE_LOG_SUM = 8,
  OC_REDUCE_LOG_SUM_EXP = 9
} oc_reduce_op;

typedef struct {
  int32_t rank;
  int32_t dims[OC_MAX_RANK];
  uint32_t reduce_mask;
} oc_reduce_params;

/* Pad of any rank: y dims = x dims + pads_begin + pads_end (pads may be
 * negative, cropping). */
typedef enum { OC_PAD_CONSTANT = 0, OC_PAD_REFLECT = 1, OC_PAD_EDGE = 2 } oc_pad_mode;

typedef struct {
  int32_t rank;
  int32_t mode; /* oc_pad_mode */
  int32_t elem_size;
  int32_t in_dims[OC_MAX_RANK];
  int32_t pads_begin[OC_MAX_RANK];
  int32_t out_dims[OC_MAX_RANK];
} oc_pad_params;

/* Resize of the two innermost dims of an (n_c, h, w) tensor. */
typedef enum { OC_RESIZE_NEAREST = 0, OC_RESIZE_LINEAR = 1 } oc_resize_mode;
typedef enum {
  OC_COORD_HALF_PIXEL = 0,
  OC_COORD_ASYMMETRIC = 1,
  OC_COORD_ALIGN_CORNERS = 2,
  OC_COORD_PYTORCH_HALF_PIXEL = 3,
  OC_COORD_TF_HALF_PIXEL_FOR_NN = 4
} oc_coord_mode;
typedef enum {
  OC_NEAREST_ROUND_PREFER_FLOOR = 0,
  OC_NEAREST_ROUND_PREFER_CEIL = 1,
  OC_NEAREST_FLOOR = 2,
  OC_NEAREST_CEIL = 3
} oc_nearest_mode;

typedef struct {
  int32_t n_c, h_in, w_in, h_out, w_out;
  int32_t mode;       /* oc_resize_mode */
  int32_t coord_mode; /* oc_coord_mode */
  int32_t nearest_mode;
  float scale_h, scale_w; /* output / input, as ONNX defines the scales */
} oc_resize2d_params;

#endif /* ONNX_TO_C_OC_COMMON_H_ */
