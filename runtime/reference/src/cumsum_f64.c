/* CumSum on double (oc_cumsum.h). */
#include "onnx_to_c/oc_cumsum.h"

OC_DEFINE_CUMSUM(f64, double, OC_CUMSUM_ADD)
