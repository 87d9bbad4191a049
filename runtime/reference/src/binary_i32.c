/* Elementwise binary operators on int32_t (oc_binary.h). */
#include "onnx_to_c/oc_binary.h"

OC_DEFINE_BINARY_INT(i32, int32_t, uint32_t, OC_BINARY_SIGNED_CASES)
