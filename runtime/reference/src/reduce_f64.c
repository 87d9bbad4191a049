/* ONNX Reduce* on float64 (oc_reduce.h), with oc_math64.h's exp and log. */
#include "onnx_to_c/oc_math64.h"
#include "onnx_to_c/oc_reduce.h"

OC_DEFINE_REDUCE(f64, double, oc_exp_f64, oc_log_f64, sqrt, fabs, oc_inf_f64())
