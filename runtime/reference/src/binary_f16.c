/* Elementwise binary operators on float16 (oc_binary.h), computed in float32
 * and rounded once to half: exact for Min, Max and Mod, and correctly
 * rounded for +, -, *, / (float has more than twice half's precision). */
#include "onnx_to_c/oc_binary.h"

static void binary_row_f16_(OC_BINARY_ROW_ARGS) {
  switch (op) {
    OC_BINARY_FLOAT_CASES(uint16_t, float, oc_h2f, oc_f2h, fmodf)
    case OC_BINARY_POW: OC_BINARY_LOOP(uint16_t, float, oc_h2f, uint16_t, oc_f2h, oc_powf(av, bv));
    default: break;
  }
}

OC_API void oc_binary_f16(int32_t op, const oc_broadcast_params *p, const uint16_t *a,
                          const uint16_t *b, void *y) {
  oc_broadcast_binary(op, p, a, 2, b, 2, y, op >= OC_BINARY_EQUAL ? 1 : 2, binary_row_f16_);
}
