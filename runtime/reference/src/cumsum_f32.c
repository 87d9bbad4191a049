/* CumSum on float (oc_cumsum.h). */
#include "onnx_to_c/oc_cumsum.h"

OC_DEFINE_CUMSUM(f32, float, OC_CUMSUM_ADD)
