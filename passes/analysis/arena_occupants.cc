#include "passes/analysis/arena_occupants.h"

#include <algorithm>
#include <utility>

namespace oc {

std::vector<ArenaOccupant> ArenaOccupants(const Program& p, const MemoryModel& m) {
  std::vector<ArenaOccupant> out;
  std::vector<int> occupant_of_buffer(m.buffers.size(), -1);
  int group = 0;
  for (const Buffer& b : m.buffers) {
    if (b.location != BufferLocation::kArena) continue;
    occupant_of_buffer[b.id] = static_cast<int>(out.size());
    ArenaOccupant o;
    o.buffer = b.id;
    o.bytes = b.aligned_bytes;
    o.first_step = b.first_step;
    o.last_step = b.last_step;
    if (b.parts.empty()) {
      out.push_back(o);
      continue;
    }
    // A concat buffer's parts: live each from its own writer, at fixed offsets.
    for (const BufferPart& part : b.parts) {
      o.bytes = part.bytes;
      o.first_step = part.first_step;
      o.last_step = part.last_step;
      o.part_offset = o.group_offset = part.offset;
      o.group = group;
      out.push_back(o);
    }
    ++group;
  }
  for (size_t i = 0; i < p.statements().size(); ++i) {
    const int s = static_cast<int>(i);
    const int64_t bytes = StatementScratchBytes(p, m, s);
    if (bytes <= 0) continue;
    ArenaOccupant o;
    o.kind = ArenaOccupant::Kind::kScratch;
    o.statement = s;
    o.bytes = bytes;
    o.first_step = o.last_step = s;
    o.kernel_scratch = AlignUp(p.statements()[i].scratch_bytes, m.alignment);
    o.contract_scratch = bytes - o.kernel_scratch;
    out.push_back(o);
  }
  // Overlap contracts chain buffers into groups with fixed relative offsets:
  // output = input - displacement. Chains only: a buffer is the input of at
  // most one contract (it dies there) and the output of at most one.
  std::vector<const OverlapContract*> as_input(m.buffers.size(), nullptr);
  std::vector<bool> is_output(m.buffers.size(), false);
  for (const OverlapContract& c : m.overlaps) {
    as_input[c.input_buffer] = &c;
    is_output[c.output_buffer] = true;
    ArenaOccupant& o = out[occupant_of_buffer[c.output_buffer]];
    o.credit = c.credit;
    o.credit_step = c.statement;
    o.over_buffer = c.input_buffer;
  }
  for (const Buffer& b : m.buffers) {
    if (!as_input[b.id] || is_output[b.id]) continue;  // start at a chain's head
    std::vector<std::pair<int, int64_t>> chain = {{b.id, 0}};
    for (const OverlapContract* c = as_input[b.id]; c; c = as_input[c->output_buffer]) {
      chain.push_back({c->output_buffer, chain.back().second - c->displacement});
    }
    int64_t lowest = 0;
    for (const auto& [buf, rel] : chain) lowest = std::min(lowest, rel);
    for (const auto& [buf, rel] : chain) {
      ArenaOccupant& o = out[occupant_of_buffer[buf]];
      o.group = group;
      o.group_offset = rel - lowest;
    }
    ++group;
  }
  return out;
}

}  // namespace oc
