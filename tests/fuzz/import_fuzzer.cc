// libFuzzer target: the ONNX importer (parse, check, shape inference,
// lowering to IR) on arbitrary bytes. Any outcome but a crash, a sanitizer
// report or a hang is fine: bad input must come back as an error status.
#include <cstddef>
#include <cstdint>
#include <string>

#include "compiler/import/importer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  oc::ImportOptions options;
  options.program_name = "fuzz";
  (void)oc::ImportOnnxBytes(bytes, options);
  return 0;
}
