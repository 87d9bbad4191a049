#include "targets/c99/arena_guard.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace oc {
namespace {

// Guard zone bytes on each side; a multiple of the alignment keeps the arena aligned.
int64_t GuardBytes(const MemoryModel& m) { return std::max<int64_t>(64, m.alignment); }

// One guarded array: the arena, or a region of a memory map. `stem` names its
// guard storage and functions, `array` the macro for its first byte; it holds
// the plan's offsets [base, base + bytes).
struct GuardedSpan {
  std::string stem, array;
  int64_t base = 0, bytes = 0;
  bool region = false;  // writes are clipped to it and made relative to its base
};

GuardedSpan WholeArena(const ArenaPlan& plan, const std::string& name) {
  return {name, name + "_arena", 0, plan.arena_bytes};
}

GuardedSpan RegionSpan(const std::string& name, const EmitRegion& r) {
  return {absl::StrCat(name, "_", r.name), RegionArray(name, r), r.base, r.bytes, true};
}

}  // namespace

std::vector<std::pair<int64_t, int64_t>> DeclaredWrites(const Program& p, const MemoryModel& m,
                                                        const ArenaPlan& plan, int s) {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  if (!m.elided[s]) {
    // Its results' bytes in their arena buffers, and its scratch.
    for (const ArenaOccupant& o : ArenaOccupants(p, m)) {
      if (!o.IsBuffer() && o.statement == s) {
        ranges.emplace_back(OccupantOffset(plan, o), OccupantOffset(plan, o) + o.bytes);
      }
    }
    for (ValueId r : p.statements()[s].results) {
      const int b = m.buffer_of_value[r];
      if (b < 0 || m.buffers[b].location != BufferLocation::kArena) continue;
      const int64_t at = plan.buffer_offset[b] + m.offset_in_buffer[r];
      ranges.emplace_back(at, at + p.value(r).ByteSize());
    }
  }
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<int64_t, int64_t>> merged;
  for (const auto& r : ranges) {
    if (!merged.empty() && r.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, r.second);
    } else {
      merged.push_back(r);
    }
  }
  return merged;
}

namespace {

void EmitGuardedSpan(const MemoryModel& m, const GuardedSpan& span, const std::string& step_variable,
                     const std::string& gnu_attributes, CodeWriter& w) {
  const std::string& name = span.stem;
  const int64_t guard = GuardBytes(m);
  const int64_t total = span.bytes + 2 * guard;
  w.Comment(absl::StrCat("arena guard: ", guard, " canary bytes on each side of the arena"));
  w.Line("#if defined(__GNUC__)");
  w.Line(absl::StrCat("static uint8_t ", name, "_guarded[", total, "] __attribute__((aligned(",
                      m.alignment, ")", gnu_attributes, "));"));
  w.Line("#else");
  w.Line(absl::StrCat("static union { uint8_t bytes[", total, "]; double d; uint64_t u; } ", name,
                      "_guarded_storage;"));
  w.Line(absl::StrCat("#define ", name, "_guarded (", name, "_guarded_storage.bytes)"));
  w.Line("#endif");
  w.Line(absl::StrCat("#define ", span.array, " (", name, "_guarded + ", guard, "u)"));
  w.Line(absl::StrCat("static uint8_t ", name, "_snapshot[", total, "];"));
  if (!step_variable.empty()) w.Line(absl::StrCat("int ", step_variable, " = -1;"));
  w.Line();
  w.Comment("True when no byte in [from, to) of the guarded storage changed.");
  w.Open(absl::StrCat("static int ", name, "_guard_unchanged(size_t from, size_t to)"));
  w.Line(absl::StrCat("return from >= to || memcmp(", name, "_guarded + from, ", name,
                      "_snapshot + from, to - from) == 0;"));
  w.Close();
  w.Comment("Checks the bytes outside `writes` ([begin, end) pairs in the arena, sorted),");
  w.Comment("then snapshots the storage for the next statement.");
  w.Open(absl::StrCat("static int ", name, "_guard_check(const size_t *writes, size_t pairs)"));
  w.Line("size_t i, at = 0;");
  w.Line("int ok = 1;");
  w.Open("for (i = 0; i < pairs; ++i)");
  w.Line(absl::StrCat("ok = ok && ", name, "_guard_unchanged(at, writes[2 * i] + ", guard, "u);"));
  w.Line(absl::StrCat("at = writes[2 * i + 1] + ", guard, "u;"));
  w.Close();
  w.Line(absl::StrCat("ok = ok && ", name, "_guard_unchanged(at, sizeof ", name, "_snapshot);"));
  w.Line(absl::StrCat("memcpy(", name, "_snapshot, ", name, "_guarded, sizeof ", name, "_snapshot);"));
  w.Line("return ok;");
  w.Close();
  w.Line();
}

void EmitGuardSpanStart(const MemoryModel& m, const GuardedSpan& span, CodeWriter& w) {
  const std::string& name = span.stem;
  if (m.aliases.io_in_arena) {
    // The caller has written the inputs into the arena: fill only the canaries.
    const int64_t guard = GuardBytes(m);
    w.Line(absl::StrCat("memset(", name, "_guarded, 0xA5, ", guard, "u);"));
    w.Line(absl::StrCat("memset(", name, "_guarded + ", guard + span.bytes, "u, 0xA5, ", guard,
                        "u);"));
  } else {
    w.Line(absl::StrCat("memset(", name, "_guarded, 0xA5, sizeof ", name, "_snapshot);"));
  }
  w.Line(absl::StrCat("memcpy(", name, "_snapshot, ", name, "_guarded, sizeof ", name, "_snapshot);"));
}

void EmitGuardSpanCheck(const std::vector<std::pair<int64_t, int64_t>>& writes, const GuardedSpan& span,
                        const std::string& step_variable, const std::string& error_status, int s,
                        CodeWriter& w) {
  const std::string& name = span.stem;
  std::vector<std::string> bounds;
  for (const auto& [begin, end] : writes) {
    if (span.region && (end <= span.base || begin >= span.base + span.bytes)) continue;
    bounds.push_back(absl::StrCat(std::max(begin, span.base) - span.base, "u"));
    bounds.push_back(absl::StrCat(std::min(end, span.base + span.bytes) - span.base, "u"));
  }
  w.Open("");
  w.Line(absl::StrCat("static const size_t writes[] = {",
                      bounds.empty() ? "0u" : absl::StrJoin(bounds, ", "), "};"));
  w.Open(absl::StrCat("if (!", name, "_guard_check(writes, ", bounds.size() / 2, "u))"));
  w.Line(absl::StrCat(step_variable, " = ", s, ";"));
  w.Line(absl::StrCat("return ", error_status, ";"));
  w.Close();
  w.Close();
}

}  // namespace

void EmitGuardedArena(const MemoryModel& m, const ArenaPlan& plan, const std::string& name,
                      const std::string& gnu_attributes, CodeWriter& w) {
  EmitGuardedSpan(m, WholeArena(plan, name), name + "_arena_guard_step", gnu_attributes, w);
}

void EmitGuardStart(const MemoryModel& m, const ArenaPlan& plan, const std::string& name, CodeWriter& w) {
  EmitGuardSpanStart(m, WholeArena(plan, name), w);
  w.Line(absl::StrCat(name, "_arena_guard_step = -1;"));
}

void EmitGuardCheck(const Program& p, const MemoryModel& m, const ArenaPlan& plan, const std::string& name,
                    const std::string& error_status, int s, CodeWriter& w) {
  EmitGuardSpanCheck(DeclaredWrites(p, m, plan, s), WholeArena(plan, name), name + "_arena_guard_step",
                     error_status, s, w);
}

void EmitGuardedRegions(const MemoryModel& m, const std::string& name, const std::vector<EmitRegion>& regions,
                        CodeWriter& w) {
  for (size_t r = 0; r < regions.size(); ++r) {
    const std::string section = absl::StrCat(", section(\"", regions[r].section, "\")");
    EmitGuardedSpan(m, RegionSpan(name, regions[r]), r == 0 ? name + "_arena_guard_step" : "", section, w);
  }
}

void EmitRegionsGuardStart(const MemoryModel& m, const std::string& name, const std::vector<EmitRegion>& regions,
                           CodeWriter& w) {
  for (const EmitRegion& r : regions) EmitGuardSpanStart(m, RegionSpan(name, r), w);
  w.Line(absl::StrCat(name, "_arena_guard_step = -1;"));
}

void EmitRegionsGuardCheck(const Program& p, const MemoryModel& m, const ArenaPlan& plan, const std::string& name,
                           const std::vector<EmitRegion>& regions, const std::string& error_status, int s,
                           CodeWriter& w) {
  const std::vector<std::pair<int64_t, int64_t>> writes = DeclaredWrites(p, m, plan, s);
  for (const EmitRegion& r : regions) {
    EmitGuardSpanCheck(writes, RegionSpan(name, r), name + "_arena_guard_step", error_status, s, w);
  }
}

}  // namespace oc
