// `onnx-to-c verify` for the report's memory_map (--memory-map): the regions
// lie end to end and make up the arena, each within its size; every arena
// buffer is inside the one region that lists it; each region's traffic and
// the access cost are recomputed from the program and the values' placements;
// the claimed bounds sit below what they bound and the cost below its baseline.
#ifndef ONNX_TO_C_DRIVER_VERIFY_REGIONS_H_
#define ONNX_TO_C_DRIVER_VERIFY_REGIONS_H_

#include <ostream>
#include <vector>

#include "absl/status/status.h"
#include "compiler/ir/program.h"
#include "compiler/support/json_reader.h"

namespace oc {

// `elided`: per statement index, whether it runs no code (the report's
// elided statements, already checked).
absl::Status CheckMemoryRegions(const Program& program, const JsonValue& report, const std::vector<bool>& elided,
                                std::ostream& log);

}  // namespace oc

#endif  // ONNX_TO_C_DRIVER_VERIFY_REGIONS_H_
