#include "compiler/driver/arena_items.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "passes/analysis/arena_occupants.h"

namespace oc {

namespace {

ArenaItem ItemOf(const CompileResult& r, const ArenaOccupant& o) {
  const std::string& name = o.IsBuffer() ? r.program.value(r.model.buffers[o.buffer].root).name
                                         : r.program.statements()[o.statement].node_name;
  return {name, !o.IsBuffer(), OccupantOffset(r.plan, o), o.bytes, o.first_step, o.last_step, ""};
}

}  // namespace

std::vector<ArenaItem> ArenaItems(const CompileResult& r) {
  std::vector<ArenaItem> items;
  for (const ArenaOccupant& o : ArenaOccupants(r.program, r.model)) {
    if (!o.IsBuffer() && OccupantOffset(r.plan, o) < 0) continue;  // scratch the plan left out
    items.push_back(ItemOf(r, o));
  }
  return items;
}

std::vector<ArenaItem> LiveItemsAt(const CompileResult& r, int step) {
  std::vector<ArenaItem> live;
  for (const ArenaOccupant& o : ArenaOccupants(r.program, r.model)) {
    if (!o.LiveAt(step) || (!o.IsBuffer() && OccupantOffset(r.plan, o) < 0)) continue;
    ArenaItem it = ItemOf(r, o);
    // At an overlap contract's step its output lies partly over its dying
    // input: count only the bytes beyond the input (as the live bytes do).
    it.bytes = o.BytesAt(step);
    if (step == o.credit_step) it.over = r.program.value(r.model.buffers[o.over_buffer].root).name;
    live.push_back(std::move(it));
  }
  std::stable_sort(live.begin(), live.end(), [](const ArenaItem& a, const ArenaItem& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.offset < b.offset;
  });
  return live;
}

std::string DescribeItems(const std::vector<ArenaItem>& items, size_t limit) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < limit; ++i) {
    absl::StrAppend(&out, i ? ", " : "", items[i].scratch ? "scratch of '" : "'", items[i].name,
                    "' (", items[i].bytes, " bytes",
                    items[i].over.empty() ? "" : absl::StrCat(" beyond '", items[i].over, "'"), ")");
  }
  if (items.size() > limit) absl::StrAppend(&out, " and ", items.size() - limit, " more");
  return out;
}

}  // namespace oc
