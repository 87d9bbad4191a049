// Passes: named transformations over a Program, registered in one table
// (pass_registry.cc) and run by a pipeline (`--passes=a,b,c`).
#ifndef ONNX_TO_C_PASSES_PASS_H_
#define ONNX_TO_C_PASSES_PASS_H_

#include <map>
#include <ostream>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/status.h"
#include "compiler/ir/program.h"

namespace oc {

// Counters a pass reports (they feed the report and `--stats`).
struct PassStats {
  std::map<std::string, int64_t> counters;
  void Add(const std::string& pass, const std::string& counter, int64_t n) {
    counters[pass + "." + counter] += n;
  }
};

using PassFn = absl::Status (*)(Program&, PassStats&);

struct PassInfo {
  absl::string_view name;
  absl::string_view summary;
  PassFn run;
};

const std::vector<PassInfo>& RegisteredPasses();
const PassInfo* FindPass(absl::string_view name);

// The pipeline onnx-to-c runs after import.
std::vector<std::string> DefaultPipeline();

struct PipelineOptions {
  bool verify_each = true;             // run the verifier after every pass
  std::ostream* print_after_all = nullptr;  // print the IR after every pass
};

// Runs the named passes in order; errors name the pass.
absl::Status RunPipeline(Program& program, const std::vector<std::string>& passes,
                         PassStats& stats, const PipelineOptions& options = {});

// The passes (one file each).
absl::Status RunDeadCodeElimination(Program& program, PassStats& stats);
absl::Status RunFoldChannelAffine(Program& program, PassStats& stats);
absl::Status RunFuseActivation(Program& program, PassStats& stats);
absl::Status RunFuseHardSwish(Program& program, PassStats& stats);
absl::Status RunFuseQdq(Program& program, PassStats& stats);
absl::Status RunVerify(Program& program, PassStats& stats);

}  // namespace oc

#endif  // ONNX_TO_C_PASSES_PASS_H_
