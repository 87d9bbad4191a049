// onnx-to-c: compiles an ONNX model into static-arena C99.
//
// Exit codes (docs/cli.md): 0 success, 1 error (bad or unsupported model, I/O
// failure, a failed --max-arena or --require-certified gate, internal error),
// 2 bad usage.
#include <filesystem>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler/driver/cli_options.h"
#include "compiler/driver/compile.h"
#include "compiler/driver/html_report.h"
#include "compiler/driver/verify.h"
#include "compiler/ir/printer.h"
#include "compiler/support/c_names.h"
#include "compiler/support/file_output.h"
#include "compiler/support/error_list.h"
#include "compiler/support/printable.h"
#include "compiler/target/memory_map.h"
#include "compiler/target/target.h"

namespace {

std::vector<oc::CliOption> Options() {
  return {
      {"output-dir", "o", true, "", "directory for the generated C (created if missing)",
       "none; required with --emit=c", "DIR"},
      {"name", "", true, "", "C name prefix", "the model file's stem as a C identifier", "NAME"},
      {"dim", "", true, "",
       "pin symbolic dimensions (dim_param) of the graph's inputs and outputs, e.g. batch=1",
       "none: a symbolic dimension is an error", "NAME=N,..."},
      {"emit-harness", "", false, "", "also write NAME_harness.c, a host main for raw tensor files"},
      {"report", "", true, "", "write the JSON report to this file", "", "FILE.json"},
      {"html-report", "", true, "", "write a self-contained HTML report (inline SVG) to this file", "",
       "FILE.html"},
      {"max-arena", "", true, "",
       "fail (exit 1, no files written) when the arena needs more than BYTES (suffix K: KiB, M: MiB); "
       "without --patches, a model that does not fit is compiled with the cheapest patching that does",
       "no limit", "BYTES"},
      {"memory-map", "", true, "",
       "the board's RAM regions (JSON: name, size, cost, alignment, section): every buffer in one "
       "region, each region within its size, then the least access cost (traffic x cost); fail "
       "(exit 1) when no split fits", "one arena", "FILE.json"},
      {"require-certified", "", false, "",
       "fail (exit 1, no files written) unless the arena is certified (or proven) optimal for the "
       "chosen order and that order is certified optimal"},
      {"emit", "", true, "c",
       "what to produce: c (sources); on stdout, ir (the IR after the passes), scheduled (the IR "
       "in the chosen order with its certificate) or planned (also the arena plan)",
       "", "c|ir|scheduled|planned"},
      {"passes", "", true, "",
       "comma-separated passes replacing the default IR passes; a list that names memory stages "
       "(schedule, plan, ...) replaces the whole pipeline",
       "the default pipeline", "a,b,..."},
      {"print-after-all", "", false, "", "print the IR after every pass (stderr)"},
      {"planner", "", true, "best",
       "arena planner: linear (no reuse), greedy (largest first) or best (best fit, then exact)", "",
       "PLANNER"},
      {"schedule", "", true, "best",
       "operator order: file, rpo, heuristic or best (heuristics, then exact search)", "", "ORDER"},
      {"search-effort", "", true, "1",
       "scales the work budgets of every search (orders, bounds, arena plans); they count work, "
       "not time, so the output is the same on any machine; 0: heuristics only", "", "X"},
      {"time-limit", "", true, "60",
       "a hard stop on the searches together, in seconds of wall-clock time; the report says "
       "when it cut one short (the output then depends on the machine)", "", "SECONDS"},
      {"alignment", "", true, "", "arena alignment in bytes, a power of two",
       "16 on x86-64, 8 on Cortex-M", "N"},
      {"target", "", true, "x86-64", "the target: " + oc::TargetNames(), "", "CPU"},
      {"arena-section", "", true, "", "linker section of the arena (empty: none)",
       ".bss.arena on Cortex-M, none on x86-64", "SECTION"},
      {"weights-section", "", true, "", "linker section of the weights", "the compiler's .rodata",
       "SECTION"},
      {"print-arena-plan", "", false, "", "draw the arena plan (offsets against steps) on stdout"},
      {"io", "", true, "",
       "where the graph's inputs and outputs live: arena (in the planned arena, counted by the "
       "certificate; NAME_input(i)/NAME_output(i) point into it) or caller (buffers passed to "
       "NAME_run)", "arena on Cortex-M, caller on x86-64", "arena|caller"},
      {"quantized-io", "", false, "",
       "8-bit inputs and outputs: a float input that only QuantizeLinear reads takes its type, "
       "scale and zero point, and a float output that DequantizeLinear writes becomes its 8-bit "
       "operand (the header states each one's type, scale and zero point)"},
      {"layout", "", true, "auto",
       "activation layout: nchw (ONNX's), nhwc (channels-last where the kernels allow, so that "
       "convolutions and pools can write over their dying input row by row; with --io=arena a "
       "graph input is relaid in place first) or auto (nhwc when that lowers the arena)", "",
       "nchw|nhwc|auto"},
      {"overlap", "", true, "on",
       "input/output overlap contracts (a streaming kernel's output over its dying input)", "",
       "on|off"},
      {"requant", "", true, "",
       "requantization of 8-bit layers: float (float32 multiplier, as ONNX Runtime) or fixed "
       "(Q31 multiplier and shift, integer only)", "float on x86-64, cortex-m4 and cortex-m7, fixed "
       "on cortex-m0 and cortex-m3", "float|fixed"},
      {"recompute", "", true, "off",
       "selective recompute: re-run cheap producers before late readers when that lowers the arena",
       "", "on|off"},
      {"patches", "", true, "off",
       "patch-based execution: run the region around the peak one spatial patch at a time "
       "(halos recomputed, outputs bit-identical) when that lowers the arena, within "
       "--recompute-mac-budget; always: keep the best patching even if it does not (testing)",
       "", "auto|off|always"},
      {"stream-input", "", false, "",
       "the firmware delivers the input's rows (NAME_fetch_input_rows in the header): the patch "
       "region must start at a graph input, which then never sits whole in RAM (needs --patches)"},
      {"recompute-cap", "", true, "1", "extra runs allowed per statement under --recompute", "", "K"},
      {"recompute-mac-budget", "", true, "1",
       "extra MACs allowed under --recompute, in percent of the model's", "", "PCT"},
      {"kernel-scratch-budget", "", true, "",
       "arena bytes the fast kernels' scratch may add (suffix K: KiB, M: MiB), an opt-in that "
       "trades RAM for speed; 0: scratch-free kernels everywhere",
       "none: scratch only in bytes the plan leaves free, the arena stays the scratch-free one",
       "BYTES"},
      {"arena-guard", "", false, "",
       "emit checks that every statement writes only its declared arena bytes (testing)"},
      {"help", "h", false, "", "print this help"},
      {"version", "", false, "", "print the version"},
  };
}

constexpr char kUsage[] =
    "usage: onnx-to-c MODEL.onnx -o OUTDIR [options]\n       onnx-to-c verify REPORT.json MODEL.onnx";

int Fail(const absl::Status& st) {
  // Messages quote the model's names: one printable line of bounded length
  // whatever they hold.
  constexpr size_t kMaxMessage = 4000;
  absl::string_view message = st.message();
  const bool cut = message.size() > kMaxMessage;
  if (cut) message = message.substr(0, kMaxMessage);
  std::cerr << "error: " << oc::PrintableLine(message) << (cut ? "..." : "") << "\n";
  for (const std::string& more : oc::MoreErrors(st)) {
    const bool more_cut = more.size() > kMaxMessage;
    std::cerr << "note: also: " << oc::PrintableLine(more_cut ? more.substr(0, kMaxMessage) : more)
              << (more_cut ? "..." : "") << "\n";
  }
  return 1;
}

int Usage(const std::string& message) {
  std::cerr << "error: " << message << "\n" << kUsage << " (see --help)\n";
  return 2;
}

// The command line minus output paths, so the generated files do not depend
// on where they are written.
std::string ProvenanceLine(const oc::CliParser& cli) {
  std::string line = "onnx-to-c " + std::filesystem::path(cli.positional()[0]).filename().string();
  for (const char* opt : {"name", "dim", "passes", "planner", "alignment", "schedule", "overlap", "recompute",
                          "patches", "recompute-cap", "recompute-mac-budget", "target", "arena-section",
                          "weights-section", "requant", "kernel-scratch-budget", "io", "layout"}) {
    if (cli.Has(opt)) line += absl::StrCat(" --", opt, "=", cli.Get(opt));
  }
  if (cli.Has("quantized-io")) line += " --quantized-io";
  if (cli.Has("stream-input")) line += " --stream-input";
  if (cli.Has("arena-guard")) line += " --arena-guard";
  if (cli.Has("memory-map")) {
    line += " --memory-map=" + std::filesystem::path(cli.Get("memory-map")).filename().string();
  }
  return line;
}

// The command-line groups below copy their flags into `o` in the order their
// errors are reported; each returns the first usage error, or "" when all
// its flags are valid.

// The model, its C name and the IR passes.
std::string ReadModelOptions(const oc::CliParser& cli, oc::CompileOptions& o) {
  o.model_path = cli.positional()[0];
  o.name = cli.Get("name");
  if (!o.name.empty() && oc::SanitizeCIdentifier(o.name, 1000) != o.name) {
    return absl::StrCat("--name '", o.name, "' is not a valid C identifier");
  }
  if (cli.Has("dim")) {
    absl::StatusOr<oc::DimValues> dims = oc::ParseDimValues(cli.Get("dim"));
    if (!dims.ok()) return std::string(dims.status().message());
    o.dim_values = *std::move(dims);
  }
  if (cli.Has("passes")) {
    for (auto p : absl::StrSplit(cli.Get("passes"), ',', absl::SkipEmpty())) o.passes.emplace_back(p);
  }
  return "";
}

// The planner, the target and what it defaults: alignment, sections, requantization.
std::string ReadTargetOptions(const oc::CliParser& cli, oc::CompileOptions& o) {
  const std::optional<oc::Planner> planner = oc::ParsePlanner(cli.Get("planner"));
  if (!planner) return "--planner must be linear, greedy or best";
  o.planner = *planner;
  const oc::Target* target = oc::FindTarget(cli.Get("target"));
  if (!target) return "--target must be one of " + oc::TargetNames();
  o.target = target;
  o.alignment = target->alignment;
  o.arena_section = cli.Has("arena-section") ? cli.Get("arena-section") : target->arena_section;
  o.weights_section = cli.Get("weights-section");
  o.requant = cli.Has("requant") ? cli.Get("requant") : target->DefaultRequant();
  if (o.requant != "float" && o.requant != "fixed") return "--requant must be float or fixed";
  for (const char* opt : {"arena-section", "weights-section"}) {
    if (cli.Has(opt) && !cli.Get(opt).empty() && !oc::IsValidSectionName(cli.Get(opt))) {
      return absl::StrCat("--", opt, " must be 1 to 64 characters from [A-Za-z0-9_.$]");
    }
  }
  if (cli.Has("alignment") && !oc::ParseCount(cli.Get("alignment"), &o.alignment)) {
    return "--alignment must be a number";
  }
  if (o.alignment <= 0 || o.alignment > 4096 || (o.alignment & (o.alignment - 1)) != 0) {
    return "--alignment must be a power of two up to 4096";
  }
  return "";
}

// The order, the searches' time, and the RAM limits.
std::string ReadSearchOptions(const oc::CliParser& cli, oc::CompileOptions& o) {
  const std::optional<oc::ScheduleMode> schedule = oc::ParseScheduleMode(cli.Get("schedule"));
  if (!schedule) return "--schedule must be file, rpo, heuristic or best";
  o.schedule = *schedule;
  if (!oc::ParseDecimal(cli.Get("search-effort"), &o.search_effort) || o.search_effort > 1000) {
    return "--search-effort must be a number between 0 and 1000";
  }
  double time_limit_s = 0;
  if (!oc::ParseDecimal(cli.Get("time-limit"), &time_limit_s) || time_limit_s > 3600) {
    return "--time-limit must be a number of seconds between 0 and 3600";
  }
  o.time_limit_ms = static_cast<int64_t>(time_limit_s * 1000);
  if (cli.Has("max-arena")) {
    o.max_arena_bytes = oc::ParseByteCount(cli.Get("max-arena"));
    if (o.max_arena_bytes < 0) return "--max-arena must be a byte count such as 65536 or 64K";
  }
  if (cli.Has("memory-map")) {
    absl::StatusOr<oc::MemoryMap> map = oc::ReadMemoryMap(cli.Get("memory-map"));
    if (!map.ok()) return std::string(map.status().message());
    o.memory_map = std::make_shared<const oc::MemoryMap>(*std::move(map));
  }
  if (cli.Has("kernel-scratch-budget")) {
    o.kernel_scratch_budget = oc::ParseByteCount(cli.Get("kernel-scratch-budget"));
    if (o.kernel_scratch_budget < 0) return "--kernel-scratch-budget must be a byte count such as 4096 or 4K";
  }
  return "";
}

// What the memory stages may do: overlap, where the inputs and outputs live,
// the layout, recompute and patches.
std::string ReadMemoryOptions(const oc::CliParser& cli, oc::CompileOptions& o) {
  if (cli.Get("overlap") != "on" && cli.Get("overlap") != "off") return "--overlap must be on or off";
  o.overlap = cli.Get("overlap") == "on";
  if (cli.Has("io") && cli.Get("io") != "arena" && cli.Get("io") != "caller") {
    return "--io must be arena or caller";
  }
  o.io_in_arena = cli.Has("io") ? cli.Get("io") == "arena" : o.target->io_in_arena;
  o.quantized_io = cli.Has("quantized-io");
  const std::string layout = cli.Get("layout");
  if (layout != "nchw" && layout != "nhwc" && layout != "auto") return "--layout must be nchw, nhwc or auto";
  o.layout = layout == "nchw"   ? oc::CompileOptions::Layout::kNchw
             : layout == "nhwc" ? oc::CompileOptions::Layout::kNhwc
                                : oc::CompileOptions::Layout::kAuto;
  if (cli.Get("recompute") != "on" && cli.Get("recompute") != "off") return "--recompute must be on or off";
  o.recompute = cli.Get("recompute") == "on";
  const std::string patches = cli.Get("patches");
  if (patches != "auto" && patches != "off" && patches != "always") {
    return "--patches must be auto, off or always";
  }
  using Patches = oc::MemoryOptions::Patches;
  o.patches = patches == "auto" ? Patches::kAuto : patches == "always" ? Patches::kAlways : Patches::kOff;
  o.stream_input = cli.Has("stream-input");
  if (o.stream_input && o.patches == Patches::kOff) return "--stream-input needs --patches=auto or always";
  int64_t recompute_cap = 0;
  if (!oc::ParseCount(cli.Get("recompute-cap"), &recompute_cap) || recompute_cap > 16) {
    return "--recompute-cap must be a number between 0 and 16";
  }
  o.recompute_cap = static_cast<int>(recompute_cap);
  if (!oc::ParseDecimal(cli.Get("recompute-mac-budget"), &o.recompute_mac_budget_percent) ||
      o.recompute_mac_budget_percent > 1000) {
    return "--recompute-mac-budget must be a number between 0 and 1000";
  }
  return "";
}

// After compiling: notes, the arena picture, then the IR on stdout or the
// files (reports first, then the C).
int WriteOutputs(const oc::CliParser& cli, const oc::CompileOptions& o, const oc::CompileResult& result) {
  for (const auto& [dim, value] : result.defaulted_dims) {
    std::cerr << "note: the symbolic batch dimension '" << oc::PrintableLine(dim) << "' of the graph's inputs is set to "
              << value << " (--dim=" << oc::PrintableLine(dim) << "=N sets another value)\n";
  }
  for (const std::string& line : result.float_outputs) {
    std::cerr << "note: --quantized-io: " << oc::PrintableLine(line) << "\n";
  }
  if (cli.Has("print-arena-plan")) std::cout << oc::ArenaPicture(result);
  if (cli.Get("emit") != "c") {
    std::cout << oc::PrintPipelineState(result);
    return 0;
  }
  oc::OutputFiles files;
  for (const oc::GeneratedFile& f : result.files) files.emplace_back(f.name, f.contents);
  if (cli.Has("report")) {
    if (absl::Status st = oc::WriteFileAtomically(cli.Get("report"), oc::MakeReport(o, result)); !st.ok()) {
      return Fail(st);
    }
  }
  if (cli.Has("html-report")) {
    if (absl::Status st = oc::WriteFileAtomically(cli.Get("html-report"), oc::MakeHtmlReport(o, result));
        !st.ok()) {
      return Fail(st);
    }
  }
  if (absl::Status st = oc::WriteFilesAtomically(cli.Get("output-dir"), files); !st.ok()) {
    return Fail(st);
  }
  return 0;
}

int Verify(int argc, char** argv) {
  if (argc != 4) return Usage("usage: onnx-to-c verify REPORT.json MODEL.onnx");
  absl::Status st = oc::VerifyReport(argv[2], argv[3], std::cout);
  if (!st.ok()) return Fail(st);
  std::cout << "verify: ok\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "verify") return Verify(argc, argv);
  oc::CliParser cli(Options());
  if (absl::Status st = cli.Parse(argc, argv); !st.ok()) return Usage(std::string(st.message()));
  if (cli.Has("help")) {
    std::cout << cli.Help(kUsage);
    return 0;
  }
  if (cli.Has("version")) {
    std::cout << "onnx-to-c " << ONNX_TO_C_REVISION << "\n";
    return 0;
  }
  if (cli.positional().size() != 1) return Usage("expected exactly one model file");
  const std::string emit = cli.Get("emit");
  if (emit != "c" && emit != "ir" && emit != "scheduled" && emit != "planned") {
    return Usage("--emit must be c, ir, scheduled or planned");
  }
  if (emit == "c" && !cli.Has("output-dir")) return Usage("missing -o OUTDIR");
  if (emit != "c") {
    // The IR is printed right after the passes or stages: no C, no report.
    for (const char* opt : {"output-dir", "report", "html-report", "print-arena-plan", "max-arena",
                            "require-certified"}) {
      if (cli.Has(opt)) return Usage(absl::StrCat("--", opt, " needs --emit=c"));
    }
  }

  oc::CompileOptions o;
  for (auto read : {ReadModelOptions, ReadTargetOptions, ReadSearchOptions, ReadMemoryOptions}) {
    if (const std::string error = read(cli, o); !error.empty()) return Usage(error);
  }
  o.require_certified = cli.Has("require-certified");
  o.emit_harness = cli.Has("emit-harness");
  o.arena_guard = cli.Has("arena-guard");
  if (cli.Has("print-after-all")) o.print_after_all = &std::cerr;
  o.command_line = ProvenanceLine(cli);
  using Until = oc::CompileOptions::Until;
  o.until = emit == "ir" ? Until::kIr
            : emit == "scheduled" ? Until::kScheduled
            : emit == "planned"   ? Until::kPlanned
                                  : Until::kC;

  auto result = oc::CompileModel(o);
  if (!result.ok()) return Fail(result.status());
  return WriteOutputs(cli, o, *result);
}
