/* Elementwise binary operators on uint16_t (oc_binary.h). */
#include "onnx_to_c/oc_binary.h"

OC_DEFINE_BINARY_INT(u16, uint16_t, uint32_t, OC_BINARY_UNSIGNED_CASES)
