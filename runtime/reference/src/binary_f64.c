/* Elementwise binary operators on float64 (oc_binary.h); no Pow. */
#include "onnx_to_c/oc_binary.h"

static void binary_row_f64_(OC_BINARY_ROW_ARGS) {
  switch (op) {
    OC_BINARY_FLOAT_CASES(double, double, OC_SAME, OC_SAME, fmod)
    default: break;
  }
}

OC_API void oc_binary_f64(int32_t op, const oc_broadcast_params *p, const double *a,
                          const double *b, void *y) {
  oc_broadcast_binary(op, p, a, 8, b, 8, y, op >= OC_BINARY_EQUAL ? 1 : 8, binary_row_f64_);
}
