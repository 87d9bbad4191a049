// A board's RAM as the user describes it (--memory-map=FILE): named regions,
// each with its size, a relative access cost per byte, an optional alignment
// and linker section. The planner assigns every arena occupant to one region
// (passes/planning/region_plan.h) and the emitter gives each region its own
// static array in its own section.
//
//   {"regions": [{"name": "dtcm", "size": 131072, "cost": 1},
//                {"name": "psram", "size": 8388608, "cost": 8,
//                 "alignment": 32, "section": ".psram_bss"}]}
//
// "description" (a string) is allowed at the top and in every region, for
// documentation; any other key is an error.
#ifndef ONNX_TO_C_TARGET_MEMORY_MAP_H_
#define ONNX_TO_C_TARGET_MEMORY_MAP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace oc {

struct MemoryRegion {
  std::string name;     // lower-case C identifier: the array is NAME_arena_<name>
  int64_t size = 0;     // bytes, > 0
  double cost = 1;      // relative access cost per byte, > 0
  int64_t alignment = 0;  // of the region's array; 0: the arena's alignment
  std::string section;  // linker section; default ".bss.arena.<name>"
};

struct MemoryMap {
  std::vector<MemoryRegion> regions;  // in the file's order
  int64_t TotalBytes() const;
  int64_t LargestRegionBytes() const;
};

// Parses and checks a memory map (the JSON text of the file); errors name
// the region and the key.
absl::StatusOr<MemoryMap> ParseMemoryMap(absl::string_view json_text);

// Reads and parses the file; errors name it.
absl::StatusOr<MemoryMap> ReadMemoryMap(const std::string& path);

}  // namespace oc

#endif  // ONNX_TO_C_TARGET_MEMORY_MAP_H_
