// The x86-64 target's run-time dispatch. NAME_avx2.c holds the statements and
// the kernels they use compiled a second time, for AVX2; NAME_run calls them
// when the CPU has AVX2, and the baseline (SSE2) statements otherwise. There is no FMA in either (a fused multiply-add would
// change the bits): both give the same output, bit for bit.
#ifndef ONNX_TO_C_TARGETS_C99_X86_DISPATCH_H_
#define ONNX_TO_C_TARGETS_C99_X86_DISPATCH_H_

#include <string>
#include <vector>

#include "targets/c99/code_writer.h"

namespace oc {

struct X86Dispatch {
  std::string prefix;               // the API name
  std::vector<std::string> steps;   // the statement functions, in order (none: NAME_avx2.c
                                    // only holds a typedef)
};

// Pragmas that compile the functions between them for AVX2 (GCC, Clang).
void EmitAvx2Begin(CodeWriter& w);
void EmitAvx2End(CodeWriter& w);

// In NAME.c, after the statements: the step type, the weight table the
// variant reads (`weight_exprs`, the main file's expressions), the baseline
// step table and the declaration of the variant's.
void EmitDispatchTables(const X86Dispatch& d, const std::vector<std::string>& weight_exprs,
                        CodeWriter& w);

// In NAME_run: declares `steps`, the table to run.
void EmitDispatchChoice(const X86Dispatch& d, CodeWriter& w);

// NAME_avx2.c: NAME.c's preamble (includes, OC_API), then the runtime text,
// offsets, context struct and statements (which read weights through
// c->weights) under the AVX2 pragmas.
std::string EmitAvx2Variant(const X86Dispatch& d, const std::string& provenance,
                            const std::string& preamble, const std::string& runtime,
                            const std::string& offsets, const std::string& ctx_struct,
                            const std::string& statements);

}  // namespace oc

#endif  // ONNX_TO_C_TARGETS_C99_X86_DISPATCH_H_
