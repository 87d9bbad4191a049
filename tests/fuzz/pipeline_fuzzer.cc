// libFuzzer target: the whole compile pipeline up to C emission (import,
// passes, schedule, memory model, arena plan and its validation, emitter), in
// memory. Small search budgets keep each run short; the searches stop at
// their budgets, so this also checks that they do.
#include <cstddef>
#include <cstdint>
#include <string>

#include "compiler/driver/compile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  oc::CompileOptions options;
  options.name = "fuzz";
  options.search_effort = 0.03;
  options.emit_harness = true;
  (void)oc::CompileModelBytes(bytes, options);
  return 0;
}
