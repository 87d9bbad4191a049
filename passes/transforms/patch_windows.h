// Windows of patch values (docs/memory-model.md, "Patches"): the rows and
// columns of a 4-D NCHW value one patch computes, their union over a value's
// readers, the crops that give a reader its own part of that union, and the
// channel concatenations a region may contain.
#ifndef ONNX_TO_C_PASSES_TRANSFORMS_PATCH_WINDOWS_H_
#define ONNX_TO_C_PASSES_TRANSFORMS_PATCH_WINDOWS_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/program.h"

namespace oc {

// Rows (axis 0) or columns (axis 1) [begin, end) of a 4-D NCHW value.
struct Span {
  int64_t begin = 0, end = 0;
  bool operator==(const Span& o) const { return begin == o.begin && end == o.end; }
  bool operator!=(const Span& o) const { return !(*this == o); }
  int64_t size() const { return end - begin; }
};
using Window = std::array<Span, 2>;  // rows, columns

// The smallest window holding both, per axis [min begin, max end).
Window Hull(const Window& a, const Window& b);

// A concatenation along C of 4-D values of the result's N, H and W: each
// patch concatenates its parts' windows.
bool PatchableConcat(const Program& p, const Statement& s);

// The statements `in_region` marks (by program index), dependencies first and
// otherwise by id: the same list whatever order the program is in, so that a
// rewrite rebuilt from a report names the same statements.
std::vector<int32_t> RegionOrder(const Program& p, const std::vector<bool>& in_region);

// A per-patch crop: `want` of a value whose patch holds `held` (all of it
// when `held` is the whole value), as a slice into a new value named
// `name`, or `source` itself when `want` is all it holds. Appends the
// slice's id to `added`.
ValueId CropWindow(Program& p, ValueId source, const Window& held, const Window& want, const std::string& name,
                   std::vector<int32_t>& added);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_TRANSFORMS_PATCH_WINDOWS_H_
