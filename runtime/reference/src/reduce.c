/* ONNX Reduce* on float32 (oc_reduce.h). */
#include "onnx_to_c/oc_reduce.h"

OC_DEFINE_REDUCE(f32, float, oc_expf, oc_logf, sqrtf, fabsf, oc_inff())
