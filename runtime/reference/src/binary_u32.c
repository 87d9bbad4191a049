/* Elementwise binary operators on uint32_t (oc_binary.h). */
#include "onnx_to_c/oc_binary.h"

OC_DEFINE_BINARY_INT(u32, uint32_t, uint32_t, OC_BINARY_UNSIGNED_CASES)
