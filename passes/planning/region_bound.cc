#include "passes/planning/region_bound.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

namespace oc {

std::vector<std::vector<int>> RegionUnits(const std::vector<IntervalItem>& items) {
  std::vector<std::vector<int>> units;
  std::map<int, size_t> unit_of_group;
  for (size_t i = 0; i < items.size(); ++i) {
    const int g = items[i].group;
    if (g < 0) {
      units.push_back({static_cast<int>(i)});
      continue;
    }
    auto [at, fresh] = unit_of_group.insert({g, units.size()});
    if (fresh) units.emplace_back();
    units[at->second].push_back(static_cast<int>(i));
  }
  return units;
}

int64_t UnitBytesAt(const std::vector<IntervalItem>& items, const std::vector<int>& unit, int step) {
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (int i : unit) {
    const IntervalItem& it = items[i];
    if (it.first <= step && step <= it.last) spans.push_back({it.group_offset, it.group_offset + it.bytes});
  }
  std::sort(spans.begin(), spans.end());
  int64_t covered = 0, end = std::numeric_limits<int64_t>::min();
  for (const auto& [lo, hi] : spans) {
    const int64_t from = std::max(lo, end);
    if (hi > from) covered += hi - from;
    end = std::max(end, hi);
  }
  return covered;
}

int64_t UnitHeight(const std::vector<IntervalItem>& items, const std::vector<int>& unit) {
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = 0;
  for (int i : unit) {
    lo = std::min(lo, items[i].group_offset);
    hi = std::max(hi, items[i].group_offset + items[i].bytes);
  }
  return unit.empty() ? 0 : hi - lo;
}

namespace {

// The cheapest cost of a region at least `bytes` large; -1 when none is.
double CheapestHolding(const std::vector<RegionCapacity>& regions, int64_t bytes) {
  double best = -1;
  for (const RegionCapacity& r : regions) {
    if (r.size >= bytes && (best < 0 || r.cost < best)) best = r.cost;
  }
  return best;
}

// The fractional relaxation at one step: the live units' bytes and traffic,
// the densest first into the cheapest regions. Returns -1 when the bytes
// exceed the regions' total.
double FractionalCost(std::vector<std::pair<int64_t, int64_t>> live,  // (bytes, traffic)
                      const std::vector<RegionCapacity>& by_cost) {
  std::sort(live.begin(), live.end(), [](const auto& a, const auto& b) {
    // a.traffic / a.bytes > b.traffic / b.bytes, exactly.
    return static_cast<__int128>(a.second) * b.first > static_cast<__int128>(b.second) * a.first;
  });
  double cost = 0;
  size_t r = 0;
  int64_t room = by_cost.empty() ? 0 : by_cost[0].size;
  for (const auto& [bytes, traffic] : live) {
    int64_t left = bytes;
    while (left > 0) {
      if (r == by_cost.size()) return -1;
      const int64_t take = std::min(left, room);
      cost += static_cast<double>(traffic) * by_cost[r].cost * static_cast<double>(take) /
              static_cast<double>(bytes);
      left -= take;
      room -= take;
      if (room == 0 && ++r < by_cost.size()) room = by_cost[r].size;
    }
  }
  return cost;
}

}  // namespace

AccessCostBound AccessCostLowerBound(const std::vector<IntervalItem>& items,
                                     const std::vector<std::vector<int>>& units,
                                     const std::vector<int64_t>& unit_traffic,
                                     const std::vector<RegionCapacity>& regions) {
  AccessCostBound out;
  std::vector<RegionCapacity> by_cost = regions;
  std::stable_sort(by_cost.begin(), by_cost.end(),
                   [](const RegionCapacity& a, const RegionCapacity& b) { return a.cost < b.cost; });
  std::vector<double> own(units.size());
  double all_own = 0;
  int last_step = -1;
  for (size_t u = 0; u < units.size(); ++u) {
    const double cheapest = CheapestHolding(regions, UnitHeight(items, units[u]));
    if (cheapest < 0) return {false, 0, -1};
    own[u] = static_cast<double>(unit_traffic[u]) * cheapest;
    all_own += own[u];
    for (int i : units[u]) last_step = std::max(last_step, items[i].last);
  }
  out.cost = all_own;
  for (int step = 0; step <= last_step; ++step) {
    std::vector<std::pair<int64_t, int64_t>> live;
    double rest = 0;  // the units not live at the step, at their own cheapest
    for (size_t u = 0; u < units.size(); ++u) {
      const int64_t bytes = UnitBytesAt(items, units[u], step);
      if (bytes == 0) {
        rest += own[u];
      } else {
        live.push_back({bytes, unit_traffic[u]});
      }
    }
    if (live.empty()) continue;
    const double relaxed = FractionalCost(std::move(live), by_cost);
    if (relaxed < 0) return {false, 0, step};
    if (relaxed + rest > out.cost) {
      out.cost = relaxed + rest;
      out.step = step;
    }
  }
  return out;
}

}  // namespace oc
