// State shared by the pieces of the C emitter (internal to targets/c99).
#ifndef ONNX_TO_C_TARGETS_C99_EMIT_CONTEXT_H_
#define ONNX_TO_C_TARGETS_C99_EMIT_CONTEXT_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "compiler/ir/program.h"
#include "compiler/support/c_names.h"
#include "passes/analysis/memory_model.h"
#include "passes/planning/arena_plan.h"
#include "targets/c99/arena_regions.h"
#include "targets/c99/code_writer.h"

namespace oc {

struct EmitContext {
  const Program& program;
  const MemoryModel& model;
  const ArenaPlan& plan;
  std::string prefix;                    // API name, e.g. "resnet8"
  UniqueNamer names;                     // file-scope identifiers
  std::vector<std::string> weight_name;  // per value: its C array (constants)
  std::vector<std::string> offset_name;  // per buffer: its offset macro (arena)
  std::vector<std::string> scratch_name;  // per statement: its kernel scratch's offset macro
  std::vector<std::string> contract_scratch_name;  // per statement: its overlap contract's
  std::set<std::string> kernels;         // runtime files to embed, e.g. "conv2d.c"
  std::string weights_attribute;         // macro placed after each weight's name, or empty
  bool requant_fixed = false;            // see EmitOptions
  // --memory-map: the regions, and per offset macro its region's field in the
  // context struct (none: the one arena, c->arena).
  std::vector<EmitRegion> regions;
  std::map<std::string, std::string> arena_field;
  bool dsp_smlad = false;  // the target's TargetFeatures::dsp_smlad

  // `c->FIELD + macro`: the arena address of an offset macro.
  std::string ArenaAt(const std::string& offset_macro) const;

  // A C expression for the value's first element, typed `const T *` (reads)
  // or `T *` (writes). T follows the value's dtype unless `as_bytes`.
  std::string Ptr(ValueId v, bool writable) const;
  std::string CType(ValueId v) const;
};

// Writes the body of statement `s` (parameter constants and kernel calls).
absl::Status EmitStatementBody(EmitContext& ctx, const Statement& s, CodeWriter& w);

// Operand i of s is a constant the emitter folds into the code (a scale or
// zero point of an 8-bit layer, a bias with zero points folded in), so the
// kernel never reads it.
bool OperandFoldedIntoCode(const EmitContext& ctx, const Statement& s, size_t i);

// A qlinear_conv that runs a kernel with packed weights and the zero points
// folded into its bias: the column convolution (kernel scratch) or the
// pointwise overlap kernel (a pixels contract) when QConvFoldsZeroPoints.
bool QConvRunsPacked(const EmitContext& ctx, const Statement& s);
// Or oc_qconv2d_packed (QConvTakesPackedTaps, no scratch, no contract): its
// weights packed, its bias as it is.
bool QConvRunsPackedTaps(const EmitContext& ctx, const Statement& s);
// Or, on an SMLAD target, oc_qconv_pw_nhwc (emit_qpw_nhwc.cc): a channels-last
// pointwise convolution, zero points folded, no contract or a rows contract.
bool QPwNhwcRuns(const EmitContext& ctx, const Statement& s);
// Or, on an SMLAD target, oc_qconv_stem_nhwc (emit_qstem_nhwc.cc): a channels-last
// convolution (or one of one input channel) of one group whose window holds at
// most 288 values, without kernel scratch, zero points folded, no contract or a
// rows contract.
bool QStemNhwcRuns(const EmitContext& ctx, const Statement& s);

// A qlinear_gemm whose zero points' constant terms the emitter folds into its
// bias (integer a, constant b and bias): oc_qgemm_params.zp_folded.
bool QGemmFoldsZeroPoints(const Program& p, const Statement& s);
// Its b zero points are all 0 (the kernel is then given none).
bool QGemmZeroPointsOfBAllZero(const Program& p, const Statement& s);
// A fully connected layer that runs oc_qgemm_packed on an SMLAD target (the
// portable loop is faster with b as it is): zero points folded, b's all 0, b
// transposed and 8-bit, an 8-bit result; b packed like the column
// convolution's weights.
bool QGemmRunsPacked(const EmitContext& ctx, const Statement& s);

// Writes the weights (constants) as static const arrays and fills weight_name;
// constants that only OperandFoldedIntoCode positions read are left out.
void EmitWeights(EmitContext& ctx, CodeWriter& w);

// The host harness: reads inputs from files, runs, writes outputs.
std::string EmitHarness(const Program& program, const std::string& prefix, int streamed_input = -1);

// Helpers for emitting numbers.
std::string CInt(int64_t v);
std::string CFloat(float v);

}  // namespace oc

#endif  // ONNX_TO_C_TARGETS_C99_EMIT_CONTEXT_H_
