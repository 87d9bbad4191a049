// Deterministic random interval sets for the arena planners' tests and
// benchmark (the same sets on every platform: GenRng, no <random>).
#ifndef ONNX_TO_C_BENCH_INTERVAL_GENERATORS_H_
#define ONNX_TO_C_BENCH_INTERVAL_GENERATORS_H_

#include <cstdint>
#include <vector>

#include "bench/graph_generators.h"
#include "passes/planning/interval_packing.h"

namespace oc {

// `buffers` items over as many steps: sizes of 1 to 256 x `align` bytes,
// lifetimes of up to an eighth of the steps.
std::vector<IntervalItem> UniformIntervals(GenRng& rng, int buffers, int64_t align);

// A guillotine partition of a (buffers / 2 steps) x (1024 x `align` bytes)
// rectangle into `buffers` items, the largest piece split first, by time or
// by bytes: max-live is reachable by construction and every step is full,
// so no byte may be wasted anywhere (the hardest case for an exact planner).
std::vector<IntervalItem> TiledIntervals(GenRng& rng, int buffers, int64_t align);

}  // namespace oc

#endif  // ONNX_TO_C_BENCH_INTERVAL_GENERATORS_H_
