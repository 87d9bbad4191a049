/* CumSum on int32_t (oc_cumsum.h). */
#include "onnx_to_c/oc_cumsum.h"

/* wrap-around addition */
#define CUMSUM_ADD_I32_(a, b) ((int32_t)((uint32_t)(a) + (uint32_t)(b)))
OC_DEFINE_CUMSUM(i32, int32_t, CUMSUM_ADD_I32_)
