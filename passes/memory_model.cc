#include "passes/memory_model.h"

#include <algorithm>

namespace oc {

int64_t AlignUp(int64_t n, int64_t alignment) {
  return (n + alignment - 1) / alignment * alignment;
}

MemoryModel ComputeMemoryModel(const Program& p, int64_t alignment) {
  MemoryModel m;
  m.alignment = alignment;
  m.buffer_of_value.assign(p.num_values(), -1);
  const auto& stmts = p.statements();
  const int last = static_cast<int>(stmts.size()) - 1;

  auto new_buffer = [&](ValueId root, BufferLocation loc) {
    Buffer b;
    b.id = static_cast<int>(m.buffers.size());
    b.root = root;
    b.values.push_back(root);
    b.location = loc;
    b.bytes = p.value(root).ByteSize();
    b.aligned_bytes = AlignUp(b.bytes, alignment);
    m.buffer_of_value[root] = b.id;
    m.buffers.push_back(b);
    return b.id;
  };

  for (size_t i = 0; i < p.inputs().size(); ++i) {
    int b = new_buffer(p.inputs()[i], BufferLocation::kInput);
    m.buffers[b].io_index = static_cast<int>(i);
  }
  for (const Value& v : p.values()) {
    if (v.IsConstant()) new_buffer(v.id, BufferLocation::kConstant);
  }
  // Results: views join their operand's buffer; everything else owns one.
  for (size_t s = 0; s < stmts.size(); ++s) {
    const Statement& st = stmts[s];
    if (GetOpInfo(st.op).effect == MemoryEffect::kView) {
      int b = m.buffer_of_value[st.operands[0]];
      m.buffer_of_value[st.results[0]] = b;
      m.buffers[b].values.push_back(st.results[0]);
      continue;
    }
    for (ValueId r : st.results) {
      int b = new_buffer(r, BufferLocation::kArena);
      m.buffers[b].first_step = static_cast<int>(s);
      m.buffers[b].last_step = static_cast<int>(s);
    }
  }
  // Graph outputs own caller memory (the importer gives each its own buffer).
  for (size_t i = 0; i < p.outputs().size(); ++i) {
    Buffer& b = m.buffers[m.buffer_of_value[p.outputs()[i]]];
    if (b.location == BufferLocation::kArena) {
      b.location = BufferLocation::kOutput;
      b.io_index = static_cast<int>(i);
    }
  }
  // Liveness comes from the schedule graph, the one implementation of the rule.
  ProgramGraph pg = BuildScheduleGraph(p, m);
  std::vector<int> identity(stmts.size());
  for (size_t i = 0; i < identity.size(); ++i) identity[i] = static_cast<int>(i);
  std::vector<StepInterval> iv = BufferIntervals(pg.graph, identity);
  for (size_t gb = 0; gb < iv.size(); ++gb) {
    Buffer& b = m.buffers[pg.arena_buffer[gb]];
    b.first_step = iv[gb].first;
    b.last_step = iv[gb].last;
  }
  for (Buffer& b : m.buffers) {
    if (b.location == BufferLocation::kInput) b.first_step = 0;
    if (b.location == BufferLocation::kOutput) b.last_step = last;
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

ProgramGraph BuildScheduleGraph(const Program& p, const MemoryModel& m) {
  const auto& stmts = p.statements();
  const int n = static_cast<int>(stmts.size());
  ProgramGraph pg;
  pg.graph = ScheduleGraph(n);
  std::vector<int> def = p.DefiningStatementIndex();
  std::vector<std::vector<int>> writers(m.buffers.size()), readers(m.buffers.size());
  for (int s = 0; s < n; ++s) {
    pg.graph.scratch[s] = AlignUp(stmts[s].scratch_bytes, m.alignment);
    for (ValueId o : stmts[s].operands) {
      if (o == kNoValue) continue;
      if (def[o] >= 0) pg.graph.AddEdge(def[o], s);
      readers[m.buffer_of_value[o]].push_back(s);
    }
    if (GetOpInfo(stmts[s].op).effect == MemoryEffect::kView) continue;
    for (ValueId r : stmts[s].results) writers[m.buffer_of_value[r]].push_back(s);
  }
  for (const Buffer& b : m.buffers) {
    if (b.location != BufferLocation::kArena) continue;
    pg.graph.AddBuffer(b.aligned_bytes, writers[b.id], readers[b.id]);
    pg.arena_buffer.push_back(b.id);
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
