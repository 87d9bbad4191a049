#include "compiler/import/opset_versions.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "onnx/defs/schema.h"

namespace oc {
namespace {

constexpr VersionChange kNew = VersionChange::kNewOp;
constexpr VersionChange kSem = VersionChange::kSemantics;
constexpr VersionChange kTypes = VersionChange::kTypesOnly;

constexpr const char* kReduceAttrs = "keepdims:int noop_with_empty_axes:int";
constexpr const char* kResizeAttrs =
    "antialias:int axes:ints coordinate_transformation_mode:string cubic_coeff_a:float "
    "exclude_outside:int extrapolation_value:float keep_aspect_ratio_policy:string mode:string "
    "nearest_mode:string";
constexpr const char* kPoolAttrs = "auto_pad:string ceil_mode:int dilations:ints kernel_shape:ints pads:ints strides:ints";

// The bfloat16 bump of opset 22 (ONNX 1.17): element types only.
constexpr const char* kBfloat16At22[] = {
    "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "AveragePool", "Bernoulli", "Conv",
    "ConvTranspose", "Cos", "Cosh", "DeformConv", "Det", "Dropout", "Elu", "EyeLike", "GRU",
    "GlobalAveragePool", "GlobalLpPool", "GlobalMaxPool", "GridSample", "HardSigmoid", "HardSwish",
    "InstanceNormalization", "LSTM", "LpNormalization", "LpPool", "MaxPool", "MaxRoiPool",
    "MaxUnpool", "Mish", "Multinomial", "NegativeLogLikelihoodLoss", "RNN", "RandomNormal",
    "RandomNormalLike", "RandomUniform", "RandomUniformLike", "RoiAlign", "Round", "Selu", "Sin",
    "Sinh", "Softplus", "Softsign", "Tan", "ThresholdedRelu"};

// The ops whose versions 19 (float8), 21 (int4/uint4), 23 (float4e2m1) and
// 24 (float8e8m0) only add element types.
constexpr const char* kNewTypeOps[] = {"Constant", "Identity", "If", "Loop", "Reshape", "Scan",
                                       "Shape", "Size"};
constexpr const char* kNewTypeOpsFrom21[] = {"ConstantOfShape", "Flatten", "Pad", "Squeeze",
                                             "Transpose", "Unsqueeze"};

std::vector<OpVersion> BuildTable() {
  std::vector<OpVersion> t = {
      // Opset 18 (ONNX 1.13).
      {"BitwiseAnd", 18, kNew, "new: bitwise and of integers", 2, 2},
      {"BitwiseOr", 18, kNew, "new: bitwise or of integers", 2, 2},
      {"BitwiseXor", 18, kNew, "new: bitwise xor of integers", 2, 2},
      {"BitwiseNot", 18, kNew, "new: bitwise not of integers", 1, 1},
      {"CenterCropPad", 18, kNew, "new: crop or pad to a shape around the center", 2, 2, 1, 1,
       "axes:ints"},
      {"Col2Im", 18, kNew, "new: column blocks back to an image", 3, 3, 1, 1,
       "dilations:ints pads:ints strides:ints"},
      {"GroupNormalization", 18, kNew, "new: normalization over channel groups, scale and bias per group",
       3, 3, 1, 1, "epsilon:float num_groups:int"},
      {"LpPool", 18, kSem, "ceil_mode and dilations attributes", 1, 1, 1, 1,
       "auto_pad:string ceil_mode:int dilations:ints kernel_shape:ints p:int pads:ints strides:ints"},
      {"Mish", 18, kNew, "new: x * tanh(softplus(x))", 1, 1},
      {"OptionalGetElement", 18, kSem, "accepts tensors and sequences", 1, 1},
      {"OptionalHasElement", 18, kSem, "accepts tensors and sequences", 0, 1},
      {"Pad", 18, kSem, "axes input: pads only the listed axes", 2, 4, 1, 1, "mode:string"},
      {"ReduceL1", 18, kSem, "axes is an input (it was an attribute)", 1, 2, 1, 1, kReduceAttrs},
      {"ReduceL2", 18, kSem, "axes is an input (it was an attribute)", 1, 2, 1, 1, kReduceAttrs},
      {"ReduceLogSum", 18, kSem, "axes is an input (it was an attribute)", 1, 2, 1, 1, kReduceAttrs},
      {"ReduceLogSumExp", 18, kSem, "axes is an input (it was an attribute)", 1, 2, 1, 1, kReduceAttrs},
      {"ReduceMax", 18, kSem, "axes is an input (it was an attribute)", 1, 2, 1, 1, kReduceAttrs},
      {"ReduceMean", 18, kSem, "axes is an input (it was an attribute)", 1, 2, 1, 1, kReduceAttrs},
      {"ReduceMin", 18, kSem, "axes is an input (it was an attribute)", 1, 2, 1, 1, kReduceAttrs},
      {"ReduceProd", 18, kSem, "axes is an input (it was an attribute)", 1, 2, 1, 1, kReduceAttrs},
      {"ReduceSumSquare", 18, kSem, "axes is an input (it was an attribute)", 1, 2, 1, 1, kReduceAttrs},
      {"Resize", 18, kSem, "antialias, axes and keep_aspect_ratio_policy attributes", 1, 4, 1, 1,
       kResizeAttrs},
      {"ScatterElements", 18, kSem, "reduction 'max' and 'min'", 3, 3, 1, 1,
       "axis:int reduction:string"},
      {"ScatterND", 18, kSem, "reduction 'max' and 'min'", 3, 3, 1, 1, "reduction:string"},
      {"Split", 18, kSem, "num_outputs attribute (the last part may be smaller)", 1, 2, 1, 1 << 16,
       "axis:int num_outputs:int"},
      // Opset 19 (ONNX 1.14): float8 types, and:
      {"AveragePool", 19, kSem, "dilations attribute", 1, 1, 1, 1,
       "auto_pad:string ceil_mode:int count_include_pad:int dilations:ints kernel_shape:ints pads:ints strides:ints"},
      {"Cast", 19, kSem, "saturate attribute (float8 targets only) and float8 types", 1, 1, 1, 1,
       "saturate:int to:int"},
      {"CastLike", 19, kSem, "saturate attribute (float8 targets only) and float8 types", 2, 2, 1, 1,
       "saturate:int"},
      {"DeformConv", 19, kNew, "new: deformable convolution", 3, 5, 1, 1,
       "dilations:ints group:int kernel_shape:ints offset_group:int pads:ints strides:ints"},
      {"DequantizeLinear", 19, kTypes, "float8 types"},
      {"Equal", 19, kTypes, "string type"},
      {"Pad", 19, kSem, "mode 'wrap'", 2, 4, 1, 1, "mode:string"},
      {"QuantizeLinear", 19, kSem, "saturate attribute (float8 targets only) and float8 types", 2, 3, 1, 1,
       "axis:int saturate:int"},
      {"Resize", 19, kSem, "coordinate_transformation_mode 'half_pixel_symmetric'", 1, 4, 1, 1,
       kResizeAttrs},
      // Opset 20 (ONNX 1.15).
      {"AffineGrid", 20, kNew, "new: a sampling grid from affine matrices", 2, 2, 1, 1,
       "align_corners:int"},
      {"ConstantOfShape", 20, kTypes, "float8 types"},
      {"DFT", 20, kSem, "axis is an input (it was an attribute)", 1, 3, 1, 1,
       "inverse:int onesided:int"},
      {"Gelu", 20, kNew, "new: Gaussian error linear unit (approximate 'none' or 'tanh')", 1, 1, 1, 1,
       "approximate:string"},
      {"GridSample", 20, kSem, "N-d, modes 'linear' and 'cubic' (were 'bilinear', 'bicubic')", 2, 2, 1, 1,
       "align_corners:int mode:string padding_mode:string"},
      {"ImageDecoder", 20, kNew, "new: decodes an encoded image", 1, 1, 1, 1, "pixel_format:string"},
      {"IsInf", 20, kTypes, "float8 types"},
      {"IsNaN", 20, kTypes, "float8 types"},
      {"ReduceMax", 20, kTypes, "bool type"},
      {"ReduceMin", 20, kTypes, "bool type"},
      {"RegexFullMatch", 20, kNew, "new: string matching", 1, 1, 1, 1, "pattern:string"},
      {"StringConcat", 20, kNew, "new: string concatenation", 2, 2},
      {"StringSplit", 20, kNew, "new: string splitting", 1, 1, 2, 2, "delimiter:string maxsplit:int"},
      // Opset 21 (ONNX 1.16): int4/uint4 types, and:
      {"Cast", 21, kTypes, "int4/uint4 types"},
      {"CastLike", 21, kTypes, "int4/uint4 types"},
      {"DequantizeLinear", 21, kSem, "block_size attribute (blocked quantization), int4/uint4 types", 2, 3, 1,
       1, "axis:int block_size:int"},
      {"GroupNormalization", 21, kSem, "scale and bias per channel (were per group), stash_type", 3, 3, 1, 1,
       "epsilon:float num_groups:int stash_type:int"},
      {"QLinearMatMul", 21, kTypes, "float8 types, scales of any float type"},
      {"QuantizeLinear", 21, kSem, "block_size and output_dtype attributes, int4/uint4 types", 2, 3, 1, 1,
       "axis:int block_size:int output_dtype:int saturate:int"},
      // Opset 23 (ONNX 1.18): float4e2m1 types, and:
      {"Attention", 23, kNew, "new: scaled dot-product attention", 3, 6, 1, 4,
       "is_causal:int kv_num_heads:int q_num_heads:int qk_matmul_output_mode:int scale:float "
       "softcap:float softmax_precision:int"},
      {"Cast", 23, kTypes, "float4e2m1 type"},
      {"CastLike", 23, kTypes, "float4e2m1 type"},
      {"DequantizeLinear", 23, kSem, "output_dtype attribute, float4e2m1 type", 2, 3, 1, 1,
       "axis:int block_size:int output_dtype:int"},
      {"QuantizeLinear", 23, kSem, "precision attribute, float4e2m1 type", 2, 3, 1, 1,
       "axis:int block_size:int output_dtype:int precision:int saturate:int"},
      {"RMSNormalization", 23, kNew, "new: root-mean-square normalization", 2, 2, 1, 1,
       "axis:int epsilon:float stash_type:int"},
      {"RotaryEmbedding", 23, kNew, "new: rotary position embedding", 3, 4, 1, 1,
       "interleaved:int num_heads:int rotary_embedding_dim:int"},
      // Opset 24 (ONNX 1.19): float8e8m0 types, and:
      {"Attention", 24, kSem, "past and present key/value caches updated in place", 3, 7, 1, 4,
       "is_causal:int kv_num_heads:int q_num_heads:int qk_matmul_output_mode:int scale:float "
       "softcap:float softmax_precision:int"},
      {"Cast", 24, kTypes, "float8e8m0 type"},
      {"CastLike", 24, kTypes, "float8e8m0 type"},
      {"DequantizeLinear", 24, kTypes, "float8e8m0 type"},
      {"QuantizeLinear", 24, kTypes, "float8e8m0 type"},
      {"SplitToSequence", 24, kTypes, "bfloat16 type"},
      {"Swish", 24, kNew, "new: x * sigmoid(alpha * x)", 1, 1, 1, 1, "alpha:float"},
      {"TensorScatter", 24, kNew, "new: writes updates into a cache tensor", 2, 3, 1, 1,
       "axis:int mode:string"},
      {"TopK", 24, kTypes, "bfloat16 type"},
  };
  for (const char* op : kBfloat16At22) t.push_back({op, 22, kTypes, "bfloat16 type"});
  for (const char* op : kNewTypeOps) {
    for (int v : {19, 21, 23, 24}) t.push_back({op, v, kTypes, "new element types"});
  }
  for (const char* op : kNewTypeOpsFrom21) {
    for (int v : {21, 23, 24}) t.push_back({op, v, kTypes, "new element types"});
  }
  std::stable_sort(t.begin(), t.end(), [](const OpVersion& a, const OpVersion& b) {
    const int c = std::string(a.op).compare(b.op);
    return c != 0 ? c < 0 : a.since < b.since;
  });
  return t;
}

// op -> its entries, oldest first.
const std::map<std::string, std::vector<const OpVersion*>>& ByOp() {
  static const auto* by_op = [] {
    auto* m = new std::map<std::string, std::vector<const OpVersion*>>();
    for (const OpVersion& v : OpVersionsAfterLibOnnx()) (*m)[v.op].push_back(&v);
    return m;
  }();
  return *by_op;
}

const char* AttributeTypeName(const onnx::AttributeProto& a) {
  switch (a.type()) {
    case onnx::AttributeProto::INT: return "int";
    case onnx::AttributeProto::FLOAT: return "float";
    case onnx::AttributeProto::STRING: return "string";
    case onnx::AttributeProto::INTS: return "ints";
    case onnx::AttributeProto::FLOATS: return "floats";
    default: return "other";
  }
}

}  // namespace

const std::vector<OpVersion>& OpVersionsAfterLibOnnx() {
  static const auto* table = new std::vector<OpVersion>(BuildTable());
  return *table;
}

const OpVersion* SemanticVersionAfterLibOnnx(const std::string& op, int opset) {
  auto it = ByOp().find(op);
  if (it == ByOp().end()) return nullptr;
  const OpVersion* found = nullptr;
  for (const OpVersion* v : it->second) {
    if (v->since <= opset && v->change != VersionChange::kTypesOnly) found = v;
  }
  return found;
}

int TableSinceVersion(const std::string& op, int opset) {
  auto it = ByOp().find(op);
  if (it == ByOp().end()) return 0;
  int since = 0;
  for (const OpVersion* v : it->second) {
    if (v->since <= opset) since = v->since;
  }
  return since;
}

int OpSinceVersion(const std::string& op, int opset) {
  const int since = TableSinceVersion(op, opset);
  if (since > 0) return since;
  const onnx::OpSchema* schema =
      onnx::OpSchemaRegistry::Schema(op, std::min(opset, kLibOnnxMaxOpset), "");
  return schema ? schema->SinceVersion() : 0;
}

absl::Status CheckNodeAgainstTable(const onnx::NodeProto& node, const OpVersion& version) {
  const std::string where =
      absl::StrCat("node '", node.name(), "' (", node.op_type(), "-", version.since, "): ");
  // Trailing empty names are absent optional inputs and outputs.
  int inputs = node.input_size(), outputs = node.output_size();
  while (inputs > 0 && node.input(inputs - 1).empty()) --inputs;
  while (outputs > 0 && node.output(outputs - 1).empty()) --outputs;
  if (inputs < version.min_inputs || inputs > version.max_inputs) {
    return absl::InvalidArgumentError(absl::StrCat(where, "has ", inputs, " inputs; version ",
                                                   version.since, " takes ", version.min_inputs,
                                                   " to ", version.max_inputs));
  }
  if (outputs < version.min_outputs || outputs > version.max_outputs) {
    return absl::InvalidArgumentError(absl::StrCat(where, "has ", outputs, " outputs; version ",
                                                   version.since, " gives ", version.min_outputs,
                                                   " to ", version.max_outputs));
  }
  std::map<std::string, std::string> allowed;
  for (absl::string_view entry : absl::StrSplit(version.attributes, ' ', absl::SkipEmpty())) {
    std::pair<std::string, std::string> name_type = absl::StrSplit(entry, ':');
    allowed.insert(name_type);
  }
  for (const auto& attr : node.attribute()) {
    auto it = allowed.find(attr.name());
    if (it == allowed.end()) {
      return absl::InvalidArgumentError(absl::StrCat(where, "unknown attribute '", attr.name(), "'"));
    }
    if (it->second != AttributeTypeName(attr)) {
      return absl::InvalidArgumentError(absl::StrCat(where, "attribute '", attr.name(),
                                                     "' must be of type ", it->second));
    }
  }
  return absl::OkStatus();
}

}  // namespace oc
