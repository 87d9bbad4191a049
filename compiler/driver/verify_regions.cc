#include "compiler/driver/verify_regions.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/driver/report_fields.h"
#include "passes/planning/region_plan.h"

namespace oc {
namespace {

using F = ReportField;

absl::Status Mismatch(const std::string& what) {
  return absl::FailedPreconditionError(absl::StrCat("the report does not verify: memory_map: ", what));
}

const JsonValue& At(const JsonValue& object, F field) { return object[ReportKey(field)]; }

// Equal to the report's precision: it prints numbers to six significant digits.
bool Near(double a, double b) { return std::fabs(a - b) <= 1e-5 * std::max({1.0, std::fabs(a), std::fabs(b)}); }

struct RegionClaim {
  int64_t base = 0, arena = 0;
};

// The region holding [offset, offset + bytes), or -1.
int RegionOf(const std::vector<RegionClaim>& regions, int64_t offset, int64_t bytes) {
  for (size_t k = 0; k < regions.size(); ++k) {
    if (regions[k].base <= offset && offset + bytes <= regions[k].base + regions[k].arena &&
        offset < regions[k].base + regions[k].arena) {
      return static_cast<int>(k);
    }
  }
  return -1;
}

// Every buffer (part) inside the region that lists its value, each listed once.
absl::Status CheckBuffersInRegions(const JsonValue& report, const JsonValue& regions_json,
                                   const std::vector<RegionClaim>& regions) {
  std::map<int64_t, int> listed;  // value -> region
  for (size_t k = 0; k < regions.size(); ++k) {
    for (const JsonValue& v : At(regions_json.array[k], F::kMemoryRegionBuffers).array) {
      if (!listed.insert({v.Int(), static_cast<int>(k)}).second) {
        return Mismatch(absl::StrCat("buffer of value ", v.Int(), " is listed in two regions"));
      }
    }
  }
  // A concat buffer is listed part by part: its value (the concat's) is in
  // each part's holds.
  std::map<int64_t, bool> matched;
  for (const JsonValue& b : At(report, F::kBuffers).array) {
    std::vector<int64_t> names = {At(b, F::kBufferValue).Int()};
    for (const JsonValue& v : At(b, F::kBufferHolds).array) names.push_back(v.Int());
    const auto named = std::find_if(names.begin(), names.end(), [&](int64_t v) { return listed.count(v) > 0; });
    if (named == names.end()) return Mismatch(absl::StrCat("buffer of value ", names[0], " is in no region"));
    if (RegionOf(regions, At(b, F::kBufferOffset).Int(), At(b, F::kBufferBytes).Int()) != listed[*named]) {
      return Mismatch(absl::StrCat("buffer of value ", names[0], " is not inside its region's arena"));
    }
    matched[*named] = true;
  }
  const size_t buffers = matched.size();
  if (buffers != listed.size()) return Mismatch("a region lists a value that names no buffer");
  return absl::OkStatus();
}

// Bytes read and written per region: each statement that runs code reads its
// arena operands and writes its arena results whole; with io_in_arena the
// caller writes each input and reads each output once.
absl::StatusOr<std::vector<int64_t>> RegionTraffic(const Program& p, const JsonValue& report,
                                                   const std::vector<bool>& elided,
                                                   const std::vector<RegionClaim>& regions) {
  std::vector<int> region_of(p.num_values(), -1);
  for (const JsonValue& v : At(report, F::kValues).array) {
    if (At(v, F::kValueSpace).string != "arena") continue;
    const int64_t id = At(v, F::kValueId).Int();
    const int r = RegionOf(regions, At(v, F::kValueOffset).Int(), At(v, F::kValueBytes).Int());
    if (r < 0) return Mismatch(absl::StrCat("value ", id, " is inside no region"));
    region_of[id] = r;
  }
  std::vector<int64_t> traffic(regions.size(), 0);
  auto add = [&](ValueId v) {
    if (v >= 0 && region_of[v] >= 0) traffic[region_of[v]] += p.value(v).ByteSize();
  };
  for (size_t i = 0; i < p.statements().size(); ++i) {
    if (elided[i]) continue;
    for (ValueId v : p.statements()[i].operands) add(v);
    for (ValueId v : p.statements()[i].results) add(v);
  }
  if (At(report, F::kIoInArena).boolean) {
    for (ValueId v : p.inputs()) add(v);
    for (ValueId v : p.outputs()) add(v);
  }
  return traffic;
}

}  // namespace

absl::Status CheckMemoryRegions(const Program& p, const JsonValue& report, const std::vector<bool>& elided,
                                std::ostream& log) {
  const JsonValue& mm = At(report, F::kMemoryMap);
  const JsonValue& regions_json = At(mm, F::kMemoryMapRegions);
  if (regions_json.array.empty()) return absl::OkStatus();
  std::vector<RegionClaim> regions;
  int64_t base = 0;
  for (const JsonValue& r : regions_json.array) {
    const int64_t arena = At(r, F::kMemoryRegionArenaBytes).Int();
    const std::string& name = At(r, F::kMemoryRegionName).string;
    if (arena > At(r, F::kMemoryRegionSizeBytes).Int()) {
      return Mismatch(absl::StrCat("region '", name, "' needs ", arena, " bytes, more than its size"));
    }
    if (At(r, F::kMemoryRegionArenaLowerBoundBytes).Int() > arena) {
      return Mismatch(absl::StrCat("region '", name, "' is below its claimed lower bound"));
    }
    regions.push_back({base, arena});
    base += arena;
  }
  if (base != At(report, F::kArenaBytes).Int()) return Mismatch("the regions' arenas do not make up the arena");
  if (absl::Status st = CheckBuffersInRegions(report, regions_json, regions); !st.ok()) return st;
  absl::StatusOr<std::vector<int64_t>> traffic = RegionTraffic(p, report, elided, regions);
  if (!traffic.ok()) return traffic.status();
  double cost = 0;
  for (size_t k = 0; k < regions.size(); ++k) {
    const JsonValue& r = regions_json.array[k];
    if (At(r, F::kMemoryRegionTrafficBytes).Int() != (*traffic)[k]) {
      return Mismatch(absl::StrCat("region '", At(r, F::kMemoryRegionName).string, "' has traffic ",
                                   (*traffic)[k], " bytes, not ", At(r, F::kMemoryRegionTrafficBytes).Int()));
    }
    cost += static_cast<double>((*traffic)[k]) * At(r, F::kMemoryRegionCost).number;
  }
  const double claimed = At(mm, F::kMemoryMapAccessCost).number;
  if (!Near(cost, claimed)) return Mismatch(absl::StrCat("access cost ", claimed, " but the regions give ", cost));
  const double bound = At(mm, F::kMemoryMapAccessCostLowerBound).number;
  if (bound > claimed && !Near(bound, claimed)) return Mismatch("the access cost is below its lower bound");
  const double gap = At(mm, F::kMemoryMapAccessCostGapPercent).number;
  if (std::abs(gap - AccessCostGapPercent(claimed, bound)) > 1e-3 * std::max(1.0, gap)) {
    return Mismatch(absl::StrCat("access cost gap ", gap, "% but cost and bound give ", AccessCostGapPercent(claimed, bound), "%"));
  }
  if (claimed > At(mm, F::kMemoryMapAccessCostBaseline).number &&
      !Near(claimed, At(mm, F::kMemoryMapAccessCostBaseline).number)) {
    return Mismatch("the access cost is above its baseline");
  }
  log << "verify: " << regions.size() << " memory regions: each buffer inside one, each within its size; "
      << "traffic and access cost " << cost << " recomputed\n";
  return absl::OkStatus();
}

}  // namespace oc
