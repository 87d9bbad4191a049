/* Elementwise binary operators on uint64_t (oc_binary.h). */
#include "onnx_to_c/oc_binary.h"

OC_DEFINE_BINARY_INT(u64, uint64_t, uint64_t, OC_BINARY_UNSIGNED_CASES)
