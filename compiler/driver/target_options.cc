#include "compiler/driver/target_options.h"

#include <cctype>

namespace oc {
namespace {

// x86-64: 16 bytes suits SSE loads of any buffer, 32 the AVX ones of
// x86-64-v3 (AVX2 machines). Cortex-M: 8 bytes
// covers every element type (LDRD/VLDR need at most 8) without padding RAM
// that is scarce. The arena goes to .bss.arena so a linker script can place
// it (and check its size) on its own. 8-bit layers requantize in float32
// where there is an FPU, in fixed point on M0/M3.
constexpr TargetDefaults kTargets[] = {
    {"x86-64", 16, "", "float"},
    {"x86-64-v3", 32, "", "float"},
    {"cortex-m0", 8, ".bss.arena", "fixed"},
    {"cortex-m3", 8, ".bss.arena", "fixed"},
    {"cortex-m4", 8, ".bss.arena", "float"},
    {"cortex-m7", 8, ".bss.arena", "float"},
};

}  // namespace

const TargetDefaults* FindTarget(const std::string& name) {
  for (const TargetDefaults& t : kTargets) {
    if (name == t.name) return &t;
  }
  return nullptr;
}

std::string TargetNames() {
  std::string out;
  for (const TargetDefaults& t : kTargets) out += (out.empty() ? "" : ", ") + std::string(t.name);
  return out;
}

bool IsValidSectionName(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '$') return false;
  }
  return true;
}

}  // namespace oc
