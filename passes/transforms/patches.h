// Patch-based execution (docs/memory-model.md, "Patches"): a region of
// statements between one 4-D value X and one 4-D value Y runs once per
// spatial patch of Y, each patch computing exactly the rows and columns of
// every intermediate value it needs (the halo between neighbours is
// recomputed, not approximated), and the patches of Y are assembled by
// concatenation. Per-patch values are ordinary values of the program, so the
// scheduler, the bounds, the planner, the guard and `verify` see them.
//
// Bit-identity: every element of every patch value is computed by the same
// kernel from the same operand elements in the same order as in the whole
// value. A convolution or pooling window in a patch reads the same input
// elements; the window's taps outside the image stay padding, and taps that
// were inside the image are inside the patch's input (the halo), with the
// padding of the patch's statement set so.
#ifndef ONNX_TO_C_PASSES_TRANSFORMS_PATCHES_H_
#define ONNX_TO_C_PASSES_TRANSFORMS_PATCHES_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/program.h"

namespace oc {

// The statements that compute Y from X (and constants) alone: every one reads
// only X, constants or results of the region; every result but Y is read only
// inside the region and is not a graph output.
struct PatchRegion {
  ValueId input = kNoValue;
  ValueId output = kNoValue;
  std::vector<int32_t> statements;  // ids, dependencies first, then by id
};

// Y split into rows x cols patches of (nearly) equal size. With `reuse`
// (bands of whole rows only: cols 1), no halo is recomputed: each band keeps
// the rows of every region value that the band before computed and it still
// needs (a cache in the arena, StreamNet's reuse: Zheng et al., NeurIPS
// 2023) and computes only the rows below them. The rows kept are those of
// sliding windows taller than one row; with `reuse_all` too, those of every
// region value (1x1 convolutions, elementwise ops), so that no row of any
// value is computed twice: no extra MACs, a larger cache.
struct PatchGrid {
  int64_t rows = 1, cols = 1;
  bool reuse = false;
  bool reuse_all = false;  // only with reuse
};

// The region between x and y, if they bound one that can run per patch:
// 2-D convolutions (any stride, padding, dilation, group) and max pooling,
// float or 8-bit; elementwise ops whose other operands are constants constant
// along H and W; channel affine, quantize/dequantize, 8-bit add and mul;
// concatenations along C; NCHW, no channels-last marks. A value may have
// several readers in the region (a residual skip, branches that rejoin).
std::optional<PatchRegion> RegionBetween(const Program& program, ValueId x, ValueId y);

// Every region whose statements include statement index `must_contain`
// (program order), one per (X, Y) pair, X a graph input or a result of the
// `reach` statements before it, Y a result of it or the reach - 1 after it
// (which bounds the search on deep models).
std::vector<PatchRegion> RegionsContaining(const Program& program, int must_contain, int reach = 32);

struct PatchRewrite {
  int64_t region_macs = 0;   // MACs of the region's statements
  int64_t patched_macs = 0;  // MACs of their per-patch copies (>= region_macs: the halo)
  std::vector<int32_t> statements;  // ids of the statements that replaced the region
};

// The region's MACs and those of its per-patch copies under `grid` (the
// halo is the difference), without rewriting; errors as ApplyPatches.
absl::StatusOr<std::pair<int64_t, int64_t>> PatchMacs(const Program& program, const PatchRegion& region,
                                                      const PatchGrid& grid);

// Replaces the region's statements by per-patch copies, slices of X and the
// concatenations that assemble Y, at the place of Y's
// producer (value ids are then renumbered densely). Deterministic: the same
// program and plan give the same ids.
// A value's patch holds the hull of the windows its readers need; a reader
// that needs less reads a crop (a slice) of it.
// Fails, changing nothing, when the grid does not fit Y.
absl::StatusOr<PatchRewrite> ApplyPatches(Program& program, const PatchRegion& region,
                                          const PatchGrid& grid);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_TRANSFORMS_PATCHES_H_
