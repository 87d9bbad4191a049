/* Elementwise And, Or, Xor and comparisons on bool (uint8_t 0 / 1),
 * with numpy broadcasting (oc_binary.h). */
#include "onnx_to_c/oc_binary.h"

static void binary_row_bool_(OC_BINARY_ROW_ARGS) {
  switch (op) {
    case OC_BINARY_AND: OC_BINARY_LOOP(uint8_t, uint8_t, OC_SAME, uint8_t, OC_TO_BOOL, av & bv);
    case OC_BINARY_OR: OC_BINARY_LOOP(uint8_t, uint8_t, OC_SAME, uint8_t, OC_TO_BOOL, av | bv);
    case OC_BINARY_XOR: OC_BINARY_LOOP(uint8_t, uint8_t, OC_SAME, uint8_t, OC_TO_BOOL, av ^ bv);
    OC_BINARY_COMPARE_CASES(uint8_t, uint8_t, OC_SAME)
    default: break;
  }
}

OC_API void oc_binary_bool(int32_t op, const oc_broadcast_params *p, const uint8_t *a,
                           const uint8_t *b, void *y) {
  oc_broadcast_binary(op, p, a, 1, b, 1, y, 1, binary_row_bool_);
}
