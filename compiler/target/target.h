// The code generation targets: one row per target says everything the
// compiler knows about it. The CLI takes its defaults (alignment, arena
// section, requantization), the emitter selects encodings by its features,
// and the report and header name it. A new core is one row here (plus its
// toolchain flags and test bed in targets/cortex_m/).
//
// What the runtime's kernels need from memory (scratch, overlap contracts) is
// the same C on every target: compiler/target/kernel_facts.h.
#ifndef ONNX_TO_C_TARGET_TARGET_H_
#define ONNX_TO_C_TARGET_TARGET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace oc {

// Instruction-set features the generated C is specialized for. None changes
// an output bit (no FMA, no fast math): they change encodings only.
struct TargetFeatures {
  // NAME_avx2.c: the statements compiled a second time for AVX2, chosen at
  // run time when the CPU has it (targets/c99/x86_dispatch.h).
  bool x86_avx2_dispatch = false;
  // AVX2 encodings everywhere (the target CPU has AVX2).
  bool avx2 = false;
  // A single-precision FPU whose VMLA.F32 (multiply, then add, rounding
  // both) the tiles may use.
  bool fpu_vmla = false;
  // Hardware floating point (else 8-bit layers requantize in fixed point by
  // default).
  bool fpu = false;
  // The Armv7E-M DSP extension (SMLAD): kernels that pair 8-bit products in
  // 16-bit lanes may be chosen for it.
  bool dsp_smlad = false;
};

struct Target {
  const char* name;         // as given to --target
  const char* description;  // for --help
  int64_t alignment;        // arena buffer alignment unless --alignment is given
  const char* arena_section;  // linker section of the arena unless --arena-section is given
  TargetFeatures features;
  // --io default: the graph's inputs and outputs in the arena (a firmware's
  // RAM is the arena plus whatever it holds for them) or in caller buffers.
  bool io_in_arena = false;
  // Runtime folders whose files replace the reference ones of the same name
  // (runtime/<folder>: optimized kernels and their helpers), first match
  // first; runtime/reference is searched after them (targets/c99/runtime_text.h).
  std::vector<std::string> kernel_folders = {};
  // Requantization of 8-bit layers unless --requant is given.
  const char* DefaultRequant() const { return features.fpu ? "float" : "fixed"; }
};

const std::vector<Target>& Targets();

// The target of that name, or nullptr.
const Target* FindTarget(absl::string_view name);

// "x86-64, x86-64-v3, cortex-m0, ..." for messages.
std::string TargetNames();

// True for a linker section name the generated C can carry: 1 to 64
// characters from [A-Za-z0-9_.$], so it never needs escaping.
bool IsValidSectionName(const std::string& name);

}  // namespace oc

#endif  // ONNX_TO_C_TARGET_TARGET_H_
