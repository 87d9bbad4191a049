/* Elementwise binary operators on int64_t (oc_binary.h). */
#include "onnx_to_c/oc_binary.h"

OC_DEFINE_BINARY_INT(i64, int64_t, uint64_t, OC_BINARY_SIGNED_CASES)
