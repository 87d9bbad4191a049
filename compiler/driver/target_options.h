// The --target choices and what each one sets by default.
#ifndef ONNX_TO_C_DRIVER_TARGET_OPTIONS_H_
#define ONNX_TO_C_DRIVER_TARGET_OPTIONS_H_

#include <cstdint>
#include <string>

namespace oc {

struct TargetDefaults {
  const char* name;           // as given to --target
  int64_t alignment;          // arena buffer alignment unless --alignment is given
  const char* arena_section;  // linker section of the arena unless --arena-section is given
  const char* requant;        // requantization of 8-bit layers unless --requant is given
};

// The defaults of a target, or nullptr when the name is unknown.
const TargetDefaults* FindTarget(const std::string& name);

// "x86-64, cortex-m0, ..." for messages and --help.
std::string TargetNames();

// True for a linker section name the generated C can carry: 1 to 64
// characters from [A-Za-z0-9_.$], so it never needs escaping.
bool IsValidSectionName(const std::string& name);

}  // namespace oc

#endif  // ONNX_TO_C_DRIVER_TARGET_OPTIONS_H_
