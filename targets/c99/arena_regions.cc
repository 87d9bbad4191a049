#include "targets/c99/arena_regions.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace oc {

int RegionAt(const std::vector<EmitRegion>& regions, int64_t at) {
  for (size_t r = 0; r < regions.size(); ++r) {
    if (regions[r].base <= at && at < regions[r].base + regions[r].bytes) return static_cast<int>(r);
  }
  return -1;
}

std::string RegionArray(const std::string& prefix, const EmitRegion& region) {
  return absl::StrCat(prefix, "_arena_", region.name);
}

std::string RegionField(const EmitRegion& region) { return "arena_" + region.name; }

void EmitRegionArrays(const std::string& prefix, const std::vector<EmitRegion>& regions, int64_t alignment,
                      CodeWriter& w) {
  for (const EmitRegion& r : regions) {
    const std::string array = RegionArray(prefix, r);
    // One byte at least: C has no zero-length arrays.
    const int64_t storage = std::max<int64_t>(r.bytes, 1);
    w.Comment(absl::StrCat("region '", r.name, "': ", r.bytes, " bytes in section ", r.section));
    w.Line("#if defined(__GNUC__)");
    w.Line(absl::StrCat("static uint8_t ", array, "[", storage, "] __attribute__((aligned(",
                        std::max(alignment, r.alignment), "), section(\"", r.section, "\")));"));
    w.Line("#else");
    w.Line(absl::StrCat("static union { uint8_t bytes[", storage, "]; double d; uint64_t u; } ", array,
                        "_storage;"));
    w.Line(absl::StrCat("#define ", array, " (", array, "_storage.bytes)"));
    w.Line("#endif");
  }
}

}  // namespace oc
