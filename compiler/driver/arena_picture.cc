// `--print-arena-plan`: an ASCII picture of the arena, offsets down the page
// and steps across, one letter per buffer.
#include <algorithm>
#include <sstream>

#include "compiler/driver/compile.h"

namespace oc {

std::string ArenaPicture(const CompileResult& r, int rows, int max_columns) {
  const MemoryModel& m = r.model;
  const int steps = static_cast<int>(m.live_bytes.size());
  const int64_t arena = r.plan.arena_bytes;
  std::ostringstream out;
  out << "arena " << arena << " bytes, peak " << m.peak_bytes << " at step " << m.peak_step
      << ", planner " << r.plan.planner << "\n";
  if (arena == 0 || steps == 0) return out.str();
  const int cols = std::min(steps, max_columns);
  const int64_t row_bytes = (arena + rows - 1) / rows;
  std::vector<std::string> grid(rows, std::string(cols, '.'));
  std::vector<std::pair<char, const Buffer*>> legend;
  int letter = 0;
  for (const Buffer& b : m.buffers) {
    if (b.location != BufferLocation::kArena) continue;
    const char c = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"[letter++ % 62];
    legend.push_back({c, &b});
    const int64_t lo = r.plan.buffer_offset[b.id], hi = lo + b.aligned_bytes;
    for (int row = static_cast<int>(lo / row_bytes); row < rows && row * row_bytes < hi; ++row) {
      for (int s = b.first_step; s <= b.last_step; ++s) grid[row][s * cols / steps] = c;
    }
  }
  for (int row = 0; row < rows; ++row) {
    out.width(10);
    out << row * row_bytes << " |" << grid[row] << "|\n";
  }
  out << "           steps 0.." << steps - 1 << (cols < steps ? " (scaled)" : "") << "\n";
  for (const auto& [c, b] : legend) {
    out << "  " << c << " " << r.program.value(b->root).name << ": " << b->aligned_bytes
        << " bytes at " << r.plan.buffer_offset[b->id] << ", steps " << b->first_step << ".."
        << b->last_step << "\n";
  }
  return out.str();
}

}  // namespace oc
