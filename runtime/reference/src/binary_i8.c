/* Elementwise binary operators on int8_t (oc_binary.h). */
#include "onnx_to_c/oc_binary.h"

OC_DEFINE_BINARY_INT(i8, int8_t, uint32_t, OC_BINARY_SIGNED_CASES)
