// With a memory map (--memory-map): one static array per region, each in its
// own linker section, and every arena pointer into its region's array. The
// plan's offsets lay the regions end to end (passes/planning/region_plan.h);
// the offset macros are relative to their region's array.
#ifndef ONNX_TO_C_TARGETS_C99_ARENA_REGIONS_H_
#define ONNX_TO_C_TARGETS_C99_ARENA_REGIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "targets/c99/code_writer.h"

namespace oc {

// One region as emitted.
struct EmitRegion {
  std::string name;     // lower-case C identifier
  std::string section;  // linker section of its array
  int64_t alignment = 0;  // of its array (at least the arena's)
  int64_t base = 0;     // where it starts among the plan's offsets
  int64_t bytes = 0;    // its arena
};

// The region holding the plan offset `at` (the first with base <= at < base +
// bytes); -1 when none does.
int RegionAt(const std::vector<EmitRegion>& regions, int64_t at);

// The region's array (file scope) and its field in the context struct.
std::string RegionArray(const std::string& prefix, const EmitRegion& region);
std::string RegionField(const EmitRegion& region);

// The arrays, each in its section (GNU C; other compilers get an aligned
// union without a section).
void EmitRegionArrays(const std::string& prefix, const std::vector<EmitRegion>& regions, int64_t alignment,
                      CodeWriter& w);

}  // namespace oc

#endif  // ONNX_TO_C_TARGETS_C99_ARENA_REGIONS_H_
