#include "compiler/target/target.h"

#include <cctype>

namespace oc {

// Alignment: x86-64: 16 bytes suits SSE loads of any buffer, 32 the AVX ones
// of x86-64-v3 (AVX2 machines). Cortex-M: 8 bytes covers every element type
// (LDRD/VLDR need at most 8) without padding RAM that is scarce. The arena
// goes to .bss.arena on Cortex-M so a linker script can place it (and check
// its size) on its own.
const std::vector<Target>& Targets() {
  static const std::vector<Target> kTargets = {
      {"x86-64", "x86-64 (SSE2, with AVX2 statements chosen at run time)", 16, "",
       {.x86_avx2_dispatch = true, .fpu = true}, false, {"x86"}},
      {"x86-64-v3", "x86-64-v3 (AVX2)", 32, "", {.avx2 = true, .fpu = true}, false, {"x86"}},
      {"cortex-m0", "Cortex-M0 (Armv6-M, no FPU)", 8, ".bss.arena", {}, true},
      {"cortex-m3", "Cortex-M3 (Armv7-M, no FPU)", 8, ".bss.arena", {}, true},
      {"cortex-m4", "Cortex-M4F (Armv7E-M, single-precision FPU)", 8, ".bss.arena",
       {.fpu_vmla = true, .fpu = true, .dsp_smlad = true}, true, {"arm"}},
      {"cortex-m7", "Cortex-M7 (Armv7E-M, FPU)", 8, ".bss.arena",
       {.fpu_vmla = true, .fpu = true, .dsp_smlad = true},
       true, {"arm"}},
  };
  return kTargets;
}

const Target* FindTarget(absl::string_view name) {
  for (const Target& t : Targets()) {
    if (name == t.name) return &t;
  }
  return nullptr;
}

std::string TargetNames() {
  std::string out;
  for (const Target& t : Targets()) out += (out.empty() ? "" : ", ") + std::string(t.name);
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
