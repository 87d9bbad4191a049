#include "passes/analysis/memory_model.h"

#include <algorithm>
#include <set>

#include "passes/analysis/overlap_contracts.h"

namespace oc {

const char* OverlapKindName(OverlapContract::Kind kind) {
  switch (kind) {
    case OverlapContract::Kind::kPlanes: return "planes";
    case OverlapContract::Kind::kPixels: return "pixels";
    case OverlapContract::Kind::kElements: return "elements";
    case OverlapContract::Kind::kRows: return "rows";
    case OverlapContract::Kind::kRowsUp: return "rows_up";
  }
  return "planes";
}

int64_t AlignUp(int64_t n, int64_t alignment) {
  return (n + alignment - 1) / alignment * alignment;
}

int64_t StatementScratchBytes(const Program& p, const MemoryModel& m, int s) {
  int64_t bytes = AlignUp(p.statements()[s].scratch_bytes, m.alignment);
  if (!m.overlap_of_statement.empty() && m.overlap_of_statement[s] >= 0) {
    bytes += m.overlaps[m.overlap_of_statement[s]].scratch;
  }
  return bytes;
}

int64_t CallerIoBytes(const MemoryModel& model) {
  int64_t bytes = 0;
  for (const Buffer& b : model.buffers) {
    if (b.location == BufferLocation::kInput || b.location == BufferLocation::kOutput) bytes += b.bytes;
  }
  return bytes;
}

namespace {

// Assigns values to buffers in one pass over the program order.
class BufferAssigner {
 public:
  BufferAssigner(const Program& p, MemoryModel& m) : p_(p), m_(m) {
    const size_t nv = p.num_values();
    m_.buffer_of_value.assign(nv, -1);
    m_.offset_in_buffer.assign(nv, 0);
    readers_.resize(nv);
    is_output_.assign(nv, false);
    const auto& stmts = p.statements();
    for (size_t s = 0; s < stmts.size(); ++s) {
      for (ValueId o : stmts[s].operands) {
        if (o != kNoValue) readers_[o].insert(static_cast<int>(s));
      }
    }
    for (ValueId o : p.outputs()) {
      is_output_[o] = true;
      // The caller reads outputs after the last step: a reader nobody may overtake.
      readers_[o].insert(static_cast<int>(stmts.size()));
    }
    m_.elided.assign(stmts.size(), false);
    m_.in_place_operand.assign(stmts.size(), -1);
    // Ancestors in the data flow: every order runs them first. The program
    // order is a topological one.
    const std::vector<int> def = p.DefiningStatementIndex();
    words_ = (stmts.size() + 63) / 64;
    ancestors_.assign(stmts.size() * words_, 0);
    for (size_t s = 0; s < stmts.size(); ++s) {
      uint64_t* mine = &ancestors_[s * words_];
      for (ValueId o : stmts[s].operands) {
        if (o == kNoValue || def[o] < 0) continue;
        const uint64_t* theirs = &ancestors_[static_cast<size_t>(def[o]) * words_];
        for (size_t w = 0; w < words_; ++w) mine[w] |= theirs[w];
        mine[def[o] / 64] |= uint64_t{1} << (def[o] % 64);
      }
    }
  }

  void Run() {
    for (size_t i = 0; i < p_.inputs().size(); ++i) {
      const bool streamed = m_.aliases.streamed_input == static_cast<int>(i);
      int b = NewBuffer(p_.inputs()[i], streamed                  ? BufferLocation::kStreamed
                                        : m_.aliases.io_in_arena ? BufferLocation::kArena
                                                                 : BufferLocation::kInput);
      m_.buffers[b].holds_input = true;
      m_.buffers[b].io_index = static_cast<int>(i);
      // In the arena an input's last reader may write over it (in place).
      if (m_.aliases.io_in_arena && !streamed) current_readers_[b] = readers_[p_.inputs()[i]];
    }
    for (const Value& v : p_.values()) {
      if (v.IsConstant()) NewBuffer(v.id, BufferLocation::kConstant);
    }
    const auto& stmts = p_.statements();
    for (size_t s = 0; s < stmts.size(); ++s) {
      const Statement& st = stmts[s];
      const int si = static_cast<int>(s);
      if (GetOpInfo(st.op).effect == MemoryEffect::kView && m_.aliases.views) {
        Join(st.results[0], st.operands[0], 0, si);
        m_.elided[s] = true;
        continue;
      }
      if (st.op == OpKind::kSplit && m_.aliases.split_views && SplitIsContiguous(st)) {
        int64_t offset = 0;
        for (ValueId r : st.results) {
          Join(r, st.operands[0], offset, si);
          offset += p_.value(r).ByteSize();
        }
        m_.elided[s] = true;
        continue;
      }
      if (GetOpInfo(st.op).effect == MemoryEffect::kInPlace && m_.aliases.in_place &&
          TryInPlace(st, si)) {
        continue;
      }
      if (st.op == OpKind::kConcat && m_.aliases.concat_in_place && TryConcatInPlace(st, si)) {
        continue;
      }
      for (ValueId r : st.results) {
        int b = NewBuffer(r, is_output_[r] && !m_.aliases.io_in_arena ? BufferLocation::kOutput
                                                                       : BufferLocation::kArena);
        current_readers_[b] = readers_[r];
      }
    }
    // A graph output's whole buffer is the caller's output memory (the importer
    // gives every output a buffer of its own).
    for (size_t i = 0; i < p_.outputs().size(); ++i) {
      Buffer& b = m_.buffers[m_.buffer_of_value[p_.outputs()[i]]];
      if (b.location == BufferLocation::kArena && !m_.aliases.io_in_arena) {
        b.location = BufferLocation::kOutput;
      }
      if (b.location == BufferLocation::kOutput) b.io_index = static_cast<int>(i);
      b.holds_output = true;
    }
    Compact();
  }

 private:
  int NewBuffer(ValueId root, BufferLocation loc) {
    Buffer b;
    b.id = static_cast<int>(m_.buffers.size());
    b.root = root;
    b.values.push_back(root);
    b.location = loc;
    b.bytes = p_.value(root).ByteSize();
    m_.buffer_of_value[root] = b.id;
    m_.buffers.push_back(b);
    current_readers_.emplace_back();
    merged_.push_back(false);
    return b.id;
  }

  // `v` lives inside `base`'s buffer at base's offset + `offset`; statement s
  // (a view or split) reads base and runs no code: it is transparent for the
  // in-place rule, whose question is who reads the bytes next.
  void Join(ValueId v, ValueId base, int64_t offset, int s) {
    int b = m_.buffer_of_value[base];
    m_.buffer_of_value[v] = b;
    m_.offset_in_buffer[v] = m_.offset_in_buffer[base] + offset;
    m_.buffers[b].values.push_back(v);
    current_readers_[b].erase(s);
    current_readers_[b].insert(readers_[v].begin(), readers_[v].end());
  }

  // An arena buffer holding a whole intermediate value, free to be reused.
  bool Reusable(int b, ValueId v) const {
    const Buffer& buf = m_.buffers[b];
    // A graph output in the arena (--io=arena) must hold its value to the end.
    for (ValueId held : buf.values) {
      if (is_output_[held]) return false;
    }
    return buf.location == BufferLocation::kArena && !merged_[b] &&
           m_.offset_in_buffer[v] == 0 && p_.value(v).ByteSize() == buf.bytes;
  }

  bool TryInPlace(const Statement& st, int s) {
    const ValueId y = st.results[0];
    if (is_output_[y]) return false;
    const Value& yv = p_.value(y);
    // Unary/binary ops may overwrite any full-shape operand; the others their first.
    size_t candidates = GetOpInfo(st.op).category == OpCategory::kBinary ? st.operands.size() : 1;
    for (size_t i = 0; i < candidates; ++i) {
      ValueId a = st.operands[i];
      if (a == kNoValue) continue;
      const Value& av = p_.value(a);
      if (av.shape != yv.shape || av.dtype != yv.dtype) continue;
      int b = m_.buffer_of_value[a];
      if (b < 0 || !Reusable(b, a)) continue;
      // Only this statement may still read the bytes, and only once: any
      // other reader runs before it in every order (an SE block's pooling,
      // which the multiplication by its result depends on).
      if (!ReadsLast(current_readers_[b], s)) continue;
      if (std::count(st.operands.begin(), st.operands.end(), a) != 1) continue;
      m_.buffer_of_value[y] = b;
      m_.buffers[b].values.push_back(y);
      current_readers_[b] = readers_[y];
      m_.in_place_operand[s] = static_cast<int>(i);
      return true;
    }
    return false;
  }

  bool ReadsLast(const std::set<int>& readers, int s) const {
    if (!readers.count(s)) return false;
    for (int r : readers) {
      if (r == s) continue;
      if (r >= static_cast<int>(m_.elided.size())) return false;  // the caller reads it
      if (!((ancestors_[static_cast<size_t>(s) * words_ + r / 64] >> (r % 64)) & 1)) return false;
    }
    return true;
  }

  // Row-major: slices along `axis` are contiguous when every dim before it is 1.
  bool OuterIsOne(const Shape& shape, int64_t axis) const {
    for (int64_t d = 0; d < axis; ++d) {
      if (shape[d] != 1) return false;
    }
    return true;
  }

  bool SplitIsContiguous(const Statement& st) const {
    const ValueId x = st.operands[0];
    if (m_.buffer_of_value[x] < 0) return false;
    for (ValueId r : st.results) {
      if (is_output_[r]) return false;  // outputs live in caller memory
    }
    return OuterIsOne(p_.value(x).shape, st.Int("axis"));
  }

  bool TryConcatInPlace(const Statement& st, int s) {
    const ValueId y = st.results[0];
    if (is_output_[y] || !OuterIsOne(p_.value(y).shape, st.Int("axis"))) return false;
    std::set<int> seen;
    for (ValueId x : st.operands) {
      int b = m_.buffer_of_value[x];
      if (b < 0 || !Reusable(b, x) || !seen.insert(b).second) return false;
      // An arena input's bytes are the caller's from before the first step.
      if (m_.buffers[b].holds_input) return false;
      if (m_.buffers[b].values.size() > 1 && m_.buffers[b].root != x &&
          !IsLatestContent(b, x)) {
        return false;
      }
    }
    int yb = NewBuffer(y, BufferLocation::kArena);
    int64_t offset = 0;
    std::set<int> readers = readers_[y];
    for (ValueId x : st.operands) {
      int b = m_.buffer_of_value[x];
      std::vector<int64_t>& starts = m_.buffers[yb].part_starts;
      starts.push_back(offset);
      for (int64_t inner : m_.buffers[b].part_starts) starts.push_back(offset + inner);
      for (ValueId v : m_.buffers[b].values) {
        m_.buffer_of_value[v] = yb;
        m_.offset_in_buffer[v] += offset;
        m_.buffers[yb].values.push_back(v);
      }
      for (int r : current_readers_[b]) {
        if (r != s) readers.insert(r);
      }
      merged_[b] = true;
      m_.buffers[b].values.clear();
      offset += m_.buffers[b].bytes;
    }
    current_readers_[yb] = readers;
    std::vector<int64_t>& starts = m_.buffers[yb].part_starts;
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    m_.elided[s] = true;
    return true;
  }

  // The value currently held by a buffer is the last one written into it.
  bool IsLatestContent(int b, ValueId x) const {
    for (auto it = m_.buffers[b].values.rbegin(); it != m_.buffers[b].values.rend(); ++it) {
      if (p_.value(*it).ByteSize() == m_.buffers[b].bytes) return *it == x;
    }
    return false;
  }

  // Drops buffers merged into others and renumbers the rest.
  void Compact() {
    std::vector<int> remap(m_.buffers.size(), -1);
    std::vector<Buffer> kept;
    for (size_t b = 0; b < m_.buffers.size(); ++b) {
      if (merged_[b]) continue;
      remap[b] = static_cast<int>(kept.size());
      kept.push_back(std::move(m_.buffers[b]));
      kept.back().id = remap[b];
    }
    m_.buffers = std::move(kept);
    for (int& b : m_.buffer_of_value) {
      if (b >= 0) b = remap[b];
    }
  }

  const Program& p_;
  MemoryModel& m_;
  std::vector<std::set<int>> readers_;         // per value: statements reading it
  std::vector<std::set<int>> current_readers_;  // per buffer: readers of what it holds now
  size_t words_ = 0;
  std::vector<uint64_t> ancestors_;  // per statement, words_ words: a bit per ancestor
  std::vector<bool> merged_;
  std::vector<bool> is_output_;
};

// Gives a concat-in-place buffer its parts when every part starts aligned and
// no overlap contract involves it (a contract's buffers move as wholes).
void SplitIntoParts(MemoryModel& m) {
  std::vector<bool> in_contract(m.buffers.size(), false);
  for (const OverlapContract& c : m.overlaps) in_contract[c.input_buffer] = in_contract[c.output_buffer] = true;
  for (Buffer& b : m.buffers) {
    b.parts.clear();
    if (!CanHaveParts(b, m.alignment) || in_contract[b.id]) continue;
    for (size_t k = 0; k < b.part_starts.size(); ++k) {
      const int64_t end = k + 1 < b.part_starts.size() ? b.part_starts[k + 1] : b.aligned_bytes;
      b.parts.push_back({b.part_starts[k], end - b.part_starts[k], -1, -1});
    }
  }
}

// Drops the overlap contracts that keep a buffer from having parts.
void DropContractsOnParts(MemoryModel& m) {
  std::vector<OverlapContract> kept;
  for (const OverlapContract& c : m.overlaps) {
    if (!CanHaveParts(m.buffers[c.input_buffer], m.alignment) &&
        !CanHaveParts(m.buffers[c.output_buffer], m.alignment)) {
      kept.push_back(c);
    }
  }
  m.overlaps = std::move(kept);
}

}  // namespace

bool CanHaveParts(const Buffer& b, int64_t alignment) {
  if (b.location != BufferLocation::kArena || b.part_starts.size() < 2) return false;
  for (int64_t start : b.part_starts) {
    if (start % alignment != 0 || start >= b.bytes) return false;
  }
  return true;
}

MemoryModel ComputeMemoryModel(const Program& p, int64_t alignment, const AliasOptions& aliases) {
  MemoryModel m;
  m.alignment = alignment;
  m.aliases = aliases;
  BufferAssigner(p, m).Run();
  for (Buffer& b : m.buffers) b.aligned_bytes = AlignUp(b.bytes, alignment);
  m.overlap_of_statement.assign(p.statements().size(), -1);
  if (aliases.overlap) {
    m.overlaps = FindOverlapContracts(p, m, BuildScheduleGraph(p, m, /*whole_buffers=*/true));
    const std::vector<int32_t>& cut = aliases.cut_contracts;
    m.overlaps.erase(std::remove_if(m.overlaps.begin(), m.overlaps.end(),
                                    [&](const OverlapContract& c) {
                                      return std::find(cut.begin(), cut.end(),
                                                       p.statements()[c.statement].id) != cut.end();
                                    }),
                     m.overlaps.end());
    if (aliases.concat_parts && aliases.parts_over_contracts) DropContractsOnParts(m);
    for (size_t i = 0; i < m.overlaps.size(); ++i) {
      m.overlap_of_statement[m.overlaps[i].statement] = static_cast<int>(i);
    }
  }
  if (aliases.concat_parts) SplitIntoParts(m);

  // Liveness comes from the schedule graph, the one implementation of the rule.
  const auto& stmts = p.statements();
  const int last = static_cast<int>(stmts.size()) - 1;
  ProgramGraph pg = BuildScheduleGraph(p, m);
  std::vector<int> identity(stmts.size());
  for (size_t i = 0; i < identity.size(); ++i) identity[i] = static_cast<int>(i);
  std::vector<StepInterval> iv = BufferIntervals(pg.graph, identity);
  for (size_t gb = 0; gb < iv.size(); ++gb) {
    Buffer& b = m.buffers[pg.arena_buffer[gb]];
    const int part = pg.arena_part[gb];
    if (part >= 0) {
      b.parts[part].first_step = iv[gb].first;
      b.parts[part].last_step = iv[gb].last;
    }
    const bool first = part <= 0;  // the whole buffer, or its first part
    b.first_step = first ? iv[gb].first : std::min(b.first_step, iv[gb].first);
    b.last_step = first ? iv[gb].last : std::max(b.last_step, iv[gb].last);
  }
  std::vector<int> def = p.DefiningStatementIndex();
  for (Buffer& b : m.buffers) {
    if (b.location == BufferLocation::kInput) b.first_step = 0;
    if (b.location == BufferLocation::kOutput) {
      b.first_step = def[b.root];
      b.last_step = last;
    }
  }
  m.live_bytes = stmts.empty() ? std::vector<int64_t>{} : LiveBytes(pg.graph, identity);
  for (size_t s = 0; s < m.live_bytes.size(); ++s) {
    if (m.live_bytes[s] > m.peak_bytes || m.peak_step < 0) {
      m.peak_bytes = m.live_bytes[s];
      m.peak_step = static_cast<int>(s);
    }
  }
  return m;
}

ProgramGraph BuildScheduleGraph(const Program& p, const MemoryModel& m, bool whole_buffers) {
  const auto& stmts = p.statements();
  const int n = static_cast<int>(stmts.size());
  ProgramGraph pg;
  pg.graph = ScheduleGraph(n);
  std::vector<int> def = p.DefiningStatementIndex();
  std::vector<std::vector<int>> writers(m.buffers.size()), readers(m.buffers.size());
  // Per buffer with parts: per part, the statements writing or reading a
  // value that touches its bytes.
  auto split = [&](int b) { return !whole_buffers && !m.buffers[b].parts.empty(); };
  std::vector<std::vector<std::vector<int>>> part_writers(m.buffers.size()), part_readers(m.buffers.size());
  for (const Buffer& b : m.buffers) {
    if (split(b.id)) {
      part_writers[b.id].resize(b.parts.size());
      part_readers[b.id].resize(b.parts.size());
    }
  }
  auto touch = [&](std::vector<std::vector<std::vector<int>>>& lists, ValueId v, int s) {
    const int b = m.buffer_of_value[v];
    const int64_t lo = m.offset_in_buffer[v], hi = lo + p.value(v).ByteSize();
    for (size_t k = 0; k < m.buffers[b].parts.size(); ++k) {
      const BufferPart& part = m.buffers[b].parts[k];
      if (lo < part.offset + part.bytes && part.offset < hi) lists[b][k].push_back(s);
    }
  };
  for (int s = 0; s < n; ++s) {
    // An overlap contract pays its scratch and saves its credit.
    pg.graph.scratch[s] = StatementScratchBytes(p, m, s);
    if (!m.overlap_of_statement.empty() && m.overlap_of_statement[s] >= 0) {
      pg.graph.scratch[s] -= m.overlaps[m.overlap_of_statement[s]].credit;
    }
    for (ValueId o : stmts[s].operands) {
      if (o == kNoValue) continue;
      if (def[o] >= 0) pg.graph.AddEdge(def[o], s);
      readers[m.buffer_of_value[o]].push_back(s);
      if (m.buffer_of_value[o] >= 0 && split(m.buffer_of_value[o])) touch(part_readers, o, s);
    }
    if (m.elided[s]) continue;  // runs no code, writes nothing
    for (ValueId r : stmts[s].results) {
      writers[m.buffer_of_value[r]].push_back(s);
      if (m.buffer_of_value[r] >= 0 && split(m.buffer_of_value[r])) touch(part_writers, r, s);
    }
  }
  // A graph input in the arena is written by the caller before the first
  // step: its writers are the statements that depend on no other (one of
  // them runs first in every order), which AddBuffer also counts as readers,
  // so it is live from step 0 to its last reader or the last of those,
  // whichever is later. A graph output in the arena is read by the caller
  // after the last step: its readers include the statements nothing depends
  // on (one of them runs last in every order). verify applies the same rule.
  std::vector<int> roots, sinks;
  for (int s = 0; s < n; ++s) {
    if (pg.graph.preds[s].empty()) roots.push_back(s);
    if (pg.graph.succs[s].empty()) sinks.push_back(s);
  }
  for (const Buffer& b : m.buffers) {
    if (b.location != BufferLocation::kArena) continue;
    if (b.holds_input) writers[b.id].insert(writers[b.id].end(), roots.begin(), roots.end());
    if (b.holds_output) readers[b.id].insert(readers[b.id].end(), sinks.begin(), sinks.end());
    // Every arena buffer has a writer that runs code; be safe if not.
    if (writers[b.id].empty()) writers[b.id] = readers[b.id];
    if (!split(b.id)) {
      pg.graph.AddBuffer(b.aligned_bytes, writers[b.id], readers[b.id]);
      pg.arena_buffer.push_back(b.id);
      pg.arena_part.push_back(-1);
      continue;
    }
    for (size_t k = 0; k < b.parts.size(); ++k) {
      std::vector<int>& w = part_writers[b.id][k];
      std::vector<int>& r = part_readers[b.id][k];
      if (w.empty()) w = r.empty() ? writers[b.id] : r;
      pg.graph.AddBuffer(b.parts[k].bytes, w, r);
      pg.arena_buffer.push_back(b.id);
      pg.arena_part.push_back(static_cast<int>(k));
    }
  }
  pg.graph.Finish();
  return pg;
}

void ApplyOrder(Program& program, const std::vector<int>& order) {
  std::vector<Statement> reordered;
  reordered.reserve(order.size());
  for (int i : order) reordered.push_back(std::move(program.statements()[i]));
  program.statements() = std::move(reordered);
}

}  // namespace oc
