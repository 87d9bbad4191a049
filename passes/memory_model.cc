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
  for (size_t s = 0; s < stmts.size(); ++s) {
    for (ValueId o : stmts[s].operands) {
      if (o == kNoValue) continue;
      Buffer& b = m.buffers[m.buffer_of_value[o]];
      b.last_step = std::max(b.last_step, static_cast<int>(s));
    }
  }
  for (Buffer& b : m.buffers) {
    if (b.location == BufferLocation::kInput) b.first_step = 0;
    if (b.location == BufferLocation::kOutput) b.last_step = last;
  }

  m.live_bytes.assign(stmts.size(), 0);
  for (const Buffer& b : m.buffers) {
    if (b.location != BufferLocation::kArena) continue;
    for (int s = b.first_step; s <= b.last_step; ++s) m.live_bytes[s] += b.aligned_bytes;
  }
  for (size_t s = 0; s < stmts.size(); ++s) {
    m.live_bytes[s] += AlignUp(stmts[s].scratch_bytes, alignment);
    if (m.live_bytes[s] > m.peak_bytes || m.peak_step < 0) {
      m.peak_bytes = m.live_bytes[s];
      m.peak_step = static_cast<int>(s);
    }
  }
  return m;
}

}  // namespace oc
