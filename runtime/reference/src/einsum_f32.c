/* Einsum on float (oc_einsum.h). */
#include "onnx_to_c/oc_einsum.h"

OC_DEFINE_EINSUM(f32, float)
