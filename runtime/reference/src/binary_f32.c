/*
 * Elementwise binary operators (oc_binary_op) on float32 with numpy
 * broadcasting (oc_binary.h). y may equal a or b when that operand has y's
 * shape (each element is read before it is written); comparisons write bool.
 */
#include "onnx_to_c/oc_binary.h"

static void binary_row_f32_(OC_BINARY_ROW_ARGS) {
  switch (op) {
    OC_BINARY_FLOAT_CASES(float, float, OC_SAME, OC_SAME, fmodf)
    case OC_BINARY_POW: OC_BINARY_LOOP(float, float, OC_SAME, float, OC_SAME, oc_powf(av, bv));
    case OC_BINARY_PRELU:
      OC_BINARY_LOOP(float, float, OC_SAME, float, OC_SAME, av < 0.0f ? av * bv : av);
    default: break;
  }
}

OC_API void oc_binary_f32(int32_t op, const oc_broadcast_params *p, const float *a,
                          const float *b, void *y) {
  oc_broadcast_binary(op, p, a, 4, b, 4, y, op >= OC_BINARY_EQUAL ? 1 : 4, binary_row_f32_);
}
