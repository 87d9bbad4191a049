#include "absl/strings/str_cat.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "passes/pass.h"

namespace oc {

const std::vector<PassInfo>& RegisteredPasses() {
  static const std::vector<PassInfo> kPasses = {
      {"dce", "remove statements whose results nothing reads", RunDeadCodeElimination},
      {"fold-channel-affine",
       "fold a per-channel scale and bias (BatchNormalization) into the preceding convolution",
       RunFoldChannelAffine},
      {"fuse-hard-swish", "rewrite x * HardSigmoid(x) (alpha 1/6, beta 1/2) as HardSwish(x)",
       RunFuseHardSwish},
      {"fuse-activation", "fuse an activation into the Conv/Gemm/MatMul that produces its input",
       RunFuseActivation},
      {"fuse-qdq",
       "fuse DequantizeLinear -> layer -> QuantizeLinear (and QLinearConv/QLinearMatMul) into "
       "8-bit layers",
       RunFuseQdq},
      {"verify", "check the IR's invariants", RunVerify},
  };
  return kPasses;
}

const PassInfo* FindPass(absl::string_view name) {
  for (const PassInfo& p : RegisteredPasses()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::vector<std::string> DefaultPipeline() {
  return {"fold-channel-affine", "fuse-hard-swish", "fuse-activation", "fuse-qdq", "dce"};
}

absl::Status RunVerify(Program& program, PassStats&) { return VerifyProgram(program); }

absl::Status RunPipeline(Program& program, const std::vector<std::string>& passes,
                         PassStats& stats, const PipelineOptions& options) {
  for (const std::string& name : passes) {
    const PassInfo* pass = FindPass(name);
    if (!pass) return absl::InvalidArgumentError(absl::StrCat("unknown pass '", name, "'"));
    absl::Status st = pass->run(program, stats);
    if (!st.ok()) {
      return absl::Status(st.code(), absl::StrCat("pass ", name, ": ", st.message()));
    }
    if (options.verify_each) {
      st = VerifyProgram(program);
      if (!st.ok()) {
        return absl::InternalError(
            absl::StrCat("the IR is invalid after pass ", name, ": ", st.message()));
      }
    }
    if (options.print_after_all) {
      *options.print_after_all << "// -----// IR after " << name << " //----- //\n"
                               << PrintProgram(program, {.max_constant_bytes = 64});
    }
  }
  return absl::OkStatus();
}

}  // namespace oc
