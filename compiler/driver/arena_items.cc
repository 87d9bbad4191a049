#include "compiler/driver/arena_items.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace oc {

std::vector<ArenaItem> ArenaItems(const CompileResult& r) {
  std::vector<ArenaItem> items;
  for (const Buffer& b : r.model.buffers) {
    if (b.location != BufferLocation::kArena) continue;
    items.push_back({r.program.value(b.root).name, false, r.plan.buffer_offset[b.id],
                     b.aligned_bytes, b.first_step, b.last_step, ""});
  }
  const std::vector<Statement>& stmts = r.program.statements();
  for (size_t s = 0; s < stmts.size(); ++s) {
    if (s >= r.plan.scratch_offset.size() || r.plan.scratch_offset[s] < 0) continue;
    const int64_t bytes = StatementScratchBytes(r.program, r.model, static_cast<int>(s));
    if (bytes == 0) continue;
    const int step = static_cast<int>(s);
    items.push_back({stmts[s].node_name, true, r.plan.scratch_offset[s], bytes, step, step, ""});
  }
  return items;
}

std::vector<ArenaItem> LiveItemsAt(const CompileResult& r, int step) {
  std::vector<ArenaItem> live;
  for (ArenaItem& it : ArenaItems(r)) {
    if (it.first_step <= step && step <= it.last_step) live.push_back(std::move(it));
  }
  // At an overlap contract's step its output lies partly over its dying
  // input: count only the bytes beyond the input (the live bytes do too).
  for (const OverlapContract& c : r.model.overlaps) {
    if (c.statement != step) continue;
    const std::string& out = r.program.value(r.model.buffers[c.output_buffer].root).name;
    const std::string& in = r.program.value(r.model.buffers[c.input_buffer].root).name;
    for (ArenaItem& it : live) {
      if (it.scratch || it.name != out) continue;
      it.bytes -= c.credit;
      it.over = in;
      break;
    }
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
