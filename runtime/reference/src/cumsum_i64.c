/* CumSum on int64_t (oc_cumsum.h). */
#include "onnx_to_c/oc_cumsum.h"

/* wrap-around addition */
#define CUMSUM_ADD_I64_(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))
OC_DEFINE_CUMSUM(i64, int64_t, CUMSUM_ADD_I64_)
