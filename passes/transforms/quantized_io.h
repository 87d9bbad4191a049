// --quantized-io: 8-bit graph inputs and outputs. A float input that only
// QuantizeLinear reads becomes an 8-bit input with that QuantizeLinear's type,
// scale and zero point (the QuantizeLinear disappears); a float output that a
// DequantizeLinear writes becomes that DequantizeLinear's 8-bit operand (the
// DequantizeLinear disappears when nothing else reads it). The converted
// inputs and outputs carry their quantization (Value::quant), which the
// header and the report state. The rest of the program is unchanged, so the
// 8-bit tensors it computes are the same bytes.
#ifndef ONNX_TO_C_PASSES_TRANSFORMS_QUANTIZED_IO_H_
#define ONNX_TO_C_PASSES_TRANSFORMS_QUANTIZED_IO_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "compiler/ir/program.h"
#include "passes/transforms/pass_stats.h"

namespace oc {

// Refuses (InvalidArgument, naming the input or output, the node and its op)
// a float input read by anything but QuantizeLinear, QuantizeLinear readers
// of one input that quantize differently (or per channel), and a
// DequantizeLinear output whose 8-bit operand is no computed tensor. A float
// output that no DequantizeLinear writes (a Softmax) stays float: a line
// saying so goes to `kept_float` when given.
absl::Status ConvertQuantizedIo(Program& program, PassStats& stats,
                                std::vector<std::string>* kept_float = nullptr);

// An 8-bit graph input or output that --quantized-io made (per-tensor quant).
inline bool IsQuantizedIo(const Value& v) {
  return v.quant.has_value() && v.quant->scales.size() == 1 &&
         (v.dtype == DType::kI8 || v.dtype == DType::kU8);
}

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_TRANSFORMS_QUANTIZED_IO_H_
