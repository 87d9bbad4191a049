// `--print-arena-plan`: an ASCII picture of the arena, offsets down the page
// and steps across, one letter per buffer.
#include <algorithm>
#include <sstream>

#include "compiler/driver/compile.h"
#include "passes/analysis/arena_occupants.h"

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
  std::vector<std::pair<char, ArenaOccupant>> legend;
  int letter = 0;
  for (const ArenaOccupant& o : ArenaOccupants(r.program, m)) {
    if (!o.IsBuffer()) continue;  // buffers only: scratch lives one step
    const char c = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"[letter++ % 62];
    legend.push_back({c, o});
    const int64_t lo = OccupantOffset(r.plan, o), hi = lo + o.bytes;
    for (int row = static_cast<int>(lo / row_bytes); row < rows && row * row_bytes < hi; ++row) {
      for (int s = o.first_step; s <= o.last_step; ++s) grid[row][s * cols / steps] = c;
    }
  }
  for (int row = 0; row < rows; ++row) {
    out.width(10);
    out << row * row_bytes << " |" << grid[row] << "|\n";
  }
  out << "           steps 0.." << steps - 1 << (cols < steps ? " (scaled)" : "") << "\n";
  for (const auto& [c, o] : legend) {
    out << "  " << c << " " << r.program.value(m.buffers[o.buffer].root).name << ": " << o.bytes
        << " bytes at " << OccupantOffset(r.plan, o) << ", steps " << o.first_step << ".."
        << o.last_step << "\n";
  }
  return out.str();
}

}  // namespace oc
