// oc-opt: reads IR text, runs named passes and memory stages, prints the IR
// and what the stages derived (for lit + FileCheck).
//
//   oc-opt FILE.ir --passes=fuse-activation,dce [--print-after-all]
//   oc-opt FILE.ir --passes=baselines,schedule,plan,validate-plan
//   oc-opt FILE.ir --memory-model   (prints buffers, liveness and the plan)
//   oc-opt FILE.ir --plan-search [--layout=auto] (the planning search of onnx-to-c)
#include <fstream>
#include <iostream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler/driver/cli_options.h"
#include "compiler/ir/parser.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "passes/analysis/memory_model.h"
#include "passes/pipeline/pass.h"
#include "passes/pipeline/plan_search.h"
#include "passes/planning/arena_plan.h"

namespace {

constexpr char kUsage[] = "usage: oc-opt FILE.ir [--passes=a,b,...] [options] ('-' reads stdin)";

int Fail(const std::string& message) {
  std::cerr << "error: " << message << "\n";
  return 1;
}

void PrintMemoryModel(const oc::Program& p, int64_t alignment, const oc::AliasOptions& aliases) {
  oc::MemoryModel m = oc::ComputeMemoryModel(p, alignment, aliases);
  oc::ArenaPlan plan = oc::PlanGreedyBySize(p, m);
  std::cout << "memory-model peak " << m.peak_bytes << " at step " << m.peak_step << "\n";
  for (const oc::Buffer& b : m.buffers) {
    if (b.location != oc::BufferLocation::kArena) continue;
    std::cout << "buffer " << oc::QuoteString(p.value(b.root).name) << " bytes " << b.aligned_bytes
              << " steps " << b.first_step << ".." << b.last_step << " offset "
              << plan.buffer_offset[b.id] << "\n";
  }
  for (size_t s = 0; s < m.live_bytes.size(); ++s) {
    std::cout << "step " << s << " live " << m.live_bytes[s] << "\n";
  }
  std::cout << "arena " << plan.arena_bytes << "\n";
  // Aliases: values that live inside another value's buffer, and statements
  // that run in place or not at all.
  for (const oc::Buffer& b : m.buffers) {
    for (oc::ValueId v : b.values) {
      if (v == b.root) continue;
      std::cout << "alias " << oc::QuoteString(p.value(v).name) << " in "
                << oc::QuoteString(p.value(b.root).name) << " at +" << m.offset_in_buffer[v] << "\n";
    }
  }
  for (size_t s = 0; s < m.elided.size(); ++s) {
    if (m.in_place_operand[s] >= 0) {
      std::cout << "step " << s << " in place over operand " << m.in_place_operand[s] << "\n";
    } else if (m.elided[s]) {
      std::cout << "step " << s << " elided\n";
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  oc::CliParser cli({
      {"passes", "", true, "", "comma-separated passes to run"},
      {"print-after-all", "", false, "", "print the IR after every pass"},
      {"memory-model", "", false, "", "print buffers, live bytes per step and the greedy plan"},
      {"alignment", "", true, "16", "alignment for the memory stages and --memory-model"},
      {"aliases", "", true, "all", "aliases for the memory stages and --memory-model: none, views or all"},
      {"schedule", "", true, "best", "the schedule stage's mode: file, rpo, heuristic or best"},
      {"planner", "", true, "best", "the plan stage's planner: linear, greedy or best"},
      {"recompute-cap", "", true, "1", "the recompute stage's extra runs per statement"},
      {"recompute-mac-budget", "", true, "1", "the recompute stage's extra MACs in % of the model's"},
      {"kernel-scratch-budget", "", true, "",
       "arena bytes the kernel-scratch stage may add (default: none, scratch only in the plan's "
       "free bytes)"},
      {"plan-search", "", false, "",
       "run the planning search of onnx-to-c: the passes (default: the default pipeline), then the "
       "memory stages on the layout and alias variants; the smallest arena wins"},
      {"layout", "", true, "auto", "the planning search's layout: nchw, nhwc or auto"},
      {"help", "h", false, "", "print this help"},
  });
  if (absl::Status st = cli.Parse(argc, argv); !st.ok()) {
    std::cerr << "error: " << st.message() << "\n" << kUsage << "\n";
    return 2;
  }
  if (cli.Has("help")) {
    std::cout << cli.Help(kUsage);
    return 0;
  }
  if (cli.positional().size() != 1) {
    std::cerr << "error: expected one input file\n" << kUsage << "\n";
    return 2;
  }
  int64_t alignment = 0;
  if (!oc::ParseCount(cli.Get("alignment"), &alignment) || alignment <= 0 || alignment > 4096 ||
      (alignment & (alignment - 1)) != 0) {
    std::cerr << "error: --alignment must be a power of two up to 4096\n" << kUsage << "\n";
    return 2;
  }
  const std::string aliases_word = cli.Get("aliases");
  if (aliases_word != "none" && aliases_word != "views" && aliases_word != "all") {
    std::cerr << "error: --aliases must be none, views or all\n" << kUsage << "\n";
    return 2;
  }
  const std::optional<oc::ScheduleMode> schedule = oc::ParseScheduleMode(cli.Get("schedule"));
  const std::optional<oc::Planner> planner = oc::ParsePlanner(cli.Get("planner"));
  int64_t recompute_cap = 0;
  double recompute_mac_budget = 0;
  const int64_t kernel_scratch_budget =
      cli.Has("kernel-scratch-budget") ? oc::ParseByteCount(cli.Get("kernel-scratch-budget")) : -1;
  if (!schedule || !planner || !oc::ParseCount(cli.Get("recompute-cap"), &recompute_cap) ||
      recompute_cap > 16 || !oc::ParseDecimal(cli.Get("recompute-mac-budget"), &recompute_mac_budget) ||
      (cli.Has("kernel-scratch-budget") && kernel_scratch_budget < 0)) {
    std::cerr << "error: bad --schedule, --planner, --recompute-cap, --recompute-mac-budget or "
                 "--kernel-scratch-budget (see --help)\n"
              << kUsage << "\n";
    return 2;
  }
  const std::string layout = cli.Get("layout");
  if (layout != "nchw" && layout != "nhwc" && layout != "auto") {
    std::cerr << "error: --layout must be nchw, nhwc or auto\n" << kUsage << "\n";
    return 2;
  }
  oc::AliasOptions aliases;
  if (aliases_word != "all") {
    aliases = oc::AliasOptions::None();
    aliases.views = aliases_word == "views";
  }
  std::stringstream text;
  if (cli.positional()[0] == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream in(cli.positional()[0]);
    if (!in) return Fail(absl::StrCat("cannot open '", cli.positional()[0], "'"));
    text << in.rdbuf();
  }
  auto program = oc::ParseProgram(text.str());
  if (!program.ok()) return Fail(std::string(program.status().message()));
  if (absl::Status st = oc::VerifyProgram(*program); !st.ok()) return Fail(std::string(st.message()));
  std::vector<std::string> passes;
  for (auto p : absl::StrSplit(cli.Get("passes"), ',', absl::SkipEmpty())) passes.emplace_back(p);
  oc::PipelineState state;
  state.program = std::move(*program);
  state.memory.alignment = alignment;
  state.memory.aliases = aliases;
  state.memory.schedule = *schedule;
  state.memory.planner = *planner;
  state.memory.budgets.recompute = 2 * state.memory.budgets.schedule;
  state.memory.recompute_cap = static_cast<int>(recompute_cap);
  state.memory.recompute_mac_budget_percent = recompute_mac_budget;
  state.memory.kernel_scratch_budget = kernel_scratch_budget;
  oc::PipelineOptions options;
  if (cli.Has("print-after-all")) options.print_after_all = &std::cout;
  if (cli.Has("plan-search")) {
    oc::PlanSearchOptions search;
    search.passes = passes;
    search.layout = layout == "nchw"   ? oc::PlanSearchOptions::Layout::kNchw
                    : layout == "nhwc" ? oc::PlanSearchOptions::Layout::kNhwc
                                       : oc::PlanSearchOptions::Layout::kAuto;
    search.pipeline = options;
    absl::StatusOr<oc::PlanSearchResult> found = oc::RunPlanSearch(state, search);
    if (!found.ok()) return Fail(std::string(found.status().message()));
    std::cout << "// plan search: layout " << (found->channels_last ? "nhwc" : "as given") << "\n";
  } else if (absl::Status st = oc::RunPipeline(state, passes, options); !st.ok()) {
    return Fail(std::string(st.message()));
  }
  if (cli.Has("memory-model")) {
    PrintMemoryModel(state.program, alignment, aliases);
    return 0;
  }
  std::cout << oc::PrintPipelineState(state);
  return 0;
}
