// Deterministic random small programs (IR, not only schedule graphs) for
// selective recompute's tests and benchmark: elementwise ops and concats
// over a few tensor widths, some statements heavy (many MACs), some cheap,
// so that re-running a cheap one sometimes lowers the peak.
#ifndef ONNX_TO_C_BENCH_PROGRAM_GENERATORS_H_
#define ONNX_TO_C_BENCH_PROGRAM_GENERATORS_H_

#include <cstdint>

#include "compiler/ir/program.h"

namespace oc {

// `statements` statements reading one graph input; every value nothing
// reads is a graph output. Heavy statements get `heavy_macs` MACs.
Program RandomRecomputeProgram(uint64_t seed, int statements, int64_t heavy_macs = 1000000);

}  // namespace oc

#endif  // ONNX_TO_C_BENCH_PROGRAM_GENERATORS_H_
