// The JSON report (docs/report.md describes every field).
#include <algorithm>
#include <filesystem>

#include "compiler/driver/compile.h"
#include "compiler/support/json_writer.h"
#include "compiler/target/kernel_facts.h"

namespace oc {
namespace {

void WriteIds(JsonWriter& j, const std::vector<int>& ids) {
  j.BeginArray();
  for (int v : ids) j.Int(v);
  j.EndArray();
}

// The exact recompute search covered every program within the caps and
// reached this peak.
bool RecomputeProvenOptimal(const CompileResult& r) {
  const ExactRecomputeResult& e = r.recompute.exact;
  return e.ran && e.finished && e.peak == r.schedule.peak;
}

double Percent(int64_t part, int64_t whole) {
  return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// Selective recompute: what it kept and what it cost (docs/report.md).
void WriteRecompute(JsonWriter& j, const CompileOptions& o, const CompileResult& r) {
  const RecomputeResult& rc = r.recompute.result;
  // Patches' halos are recomputed MACs too; the model's cost is the one before them.
  const int64_t extra = rc.extra_cost + r.patches.extra_macs();
  j.Key("recompute_extra_macs");
  j.Int(extra);
  j.Key("recompute_mac_overhead_percent");
  const int64_t model_cost = r.patches.applied ? r.patches.model_macs : ProgramCost(r.program);
  j.Double(Percent(extra, model_cost));
  j.Key("recompute");
  j.BeginObject();
  j.Key("mode");
  j.String(r.recompute.enabled ? "on" : "off");
  j.Key("cap");
  j.Int(o.recompute_cap);
  j.Key("mac_budget_percent");
  j.Double(o.recompute_mac_budget_percent);
  j.Key("model_macs");
  j.Int(model_cost);
  j.Key("peak_before_bytes");
  j.Int(r.recompute.enabled ? rc.peak_before : r.schedule.peak);
  j.Key("arena_before_bytes");
  j.Int(r.recompute.enabled ? rc.arena_before : r.plan.arena_bytes);
  j.Key("peak_after_bytes");
  j.Int(r.schedule.peak);
  j.Key("arena_after_bytes");
  j.Int(r.plan.arena_bytes);
  j.Key("candidates_tried");
  j.Int(rc.candidates_tried);
  j.Key("clones");
  j.BeginArray();
  for (const RecomputeClone& c : rc.clones) {
    j.BeginObject();
    j.Key("statement");
    j.Int(c.statement);
    j.Key("clone_of");
    j.Int(c.clone_of);
    j.Key("original");
    j.Int(c.original);
    j.Key("value");
    j.Int(c.value);
    j.Key("readers");
    WriteIds(j, std::vector<int>(c.readers.begin(), c.readers.end()));
    j.EndObject();
  }
  j.EndArray();
  const ExactRecomputeResult& e = r.recompute.exact;
  j.Key("exact_search");
  j.BeginObject();
  j.Key("ran");
  j.Bool(e.ran);
  j.Key("finished");
  j.Bool(e.finished);
  j.Key("peak_bytes");
  j.Int(e.peak);
  j.Key("extra_macs");
  j.Int(e.extra_cost);
  j.Key("programs");
  j.Int(e.programs);
  j.EndObject();
  j.Key("proven_optimal");
  j.Bool(RecomputeProvenOptimal(r));
  j.Key("ms");
  j.Double(r.recompute.ms);
  j.EndObject();
}

// Patch-based execution: the region, the grid and what they cost and saved.
void WritePatches(JsonWriter& j, const CompileResult& r) {
  const PatchSummary& ps = r.patches;
  j.Key("patches");
  j.BeginObject();
  j.Key("mode");
  j.String(!ps.enabled ? "off" : r.memory.patches == MemoryOptions::Patches::kAlways ? "always" : "auto");
  j.Key("applied");
  j.Bool(ps.applied);
  j.Key("region");
  j.BeginObject();
  j.Key("input_value");
  j.Int(ps.region.input);
  j.Key("output_value");
  j.Int(ps.region.output);
  j.Key("input");
  j.String(ps.input_name);
  j.Key("output");
  j.String(ps.output_name);
  j.Key("statements");
  WriteIds(j, std::vector<int>(ps.region.statements.begin(), ps.region.statements.end()));
  j.EndObject();
  j.Key("grid");
  j.BeginArray();
  j.Int(ps.applied ? ps.grid.rows : 0);
  j.Int(ps.applied ? ps.grid.cols : 0);
  j.EndArray();
  j.Key("patch_statements");
  WriteIds(j, std::vector<int>(ps.rewrite.statements.begin(), ps.rewrite.statements.end()));
  j.Key("region_macs");
  j.Int(ps.rewrite.region_macs);
  j.Key("patched_macs");
  j.Int(ps.rewrite.patched_macs);
  j.Key("extra_macs");
  j.Int(ps.extra_macs());
  j.Key("mac_budget");
  j.Int(ps.budget_macs);
  j.Key("peak_before_bytes");
  j.Int(ps.enabled ? ps.peak_before : r.schedule.peak);
  j.Key("arena_before_bytes");
  j.Int(ps.enabled ? ps.arena_before : r.plan.arena_bytes);
  j.Key("peak_after_bytes");
  j.Int(ps.enabled ? ps.peak_after : r.schedule.peak);
  j.Key("arena_after_bytes");
  j.Int(ps.enabled ? ps.arena_after : r.plan.arena_bytes);
  j.Key("candidates_tried");
  j.Int(ps.candidates_tried);
  j.Key("ms");
  j.Double(ps.ms);
  j.EndObject();
}

void WriteCertificate(JsonWriter& j, const CompileResult& r) {
  const ScheduleReport& s = r.schedule;
  j.Key("peak_bytes");
  j.Int(s.peak);
  j.Key("lower_bound_bytes");
  j.Int(s.bound.bytes);
  // A recompute program is never certified by the order bound: that bound
  // covers orders of this program, not other choices of what to recompute.
  const bool recomputed = !r.recompute.result.clones.empty();
  j.Key("certified_optimal");
  j.Bool(s.certified_optimal && !recomputed);
  // Optimal by the bound, or by an exact search that ran out of candidates
  // (the latter has no witness a checker can redo cheaply); with recompute,
  // only by the exact recompute search.
  j.Key("proven_optimal");
  j.Bool(recomputed ? RecomputeProvenOptimal(r)
                    : s.certified_optimal || s.exact_search_finished);
  j.Key("gap_bytes");
  j.Int(s.peak - s.bound.bytes);
  j.Key("gap_percent");
  j.Double(s.peak ? 100.0 * static_cast<double>(s.peak - s.bound.bytes) / static_cast<double>(s.peak)
                  : 0.0);
  j.Key("tight_bound");
  j.String(s.certified_optimal ? s.bound.kind : "");
  j.Key("baselines");
  j.BeginObject();
  j.Key("file_order_peak_bytes");
  j.Int(s.file_order_peak);
  j.Key("rpo_peak_bytes");
  j.Int(s.rpo_peak);
  j.Key("heuristic_peak_bytes");
  j.Int(s.heuristic_peak);
  j.EndObject();
  j.Key("schedule");
  j.BeginObject();
  j.Key("mode");
  j.String(s.mode);
  j.Key("chosen_by");
  j.String(s.chosen_by);
  j.Key("exact_search_finished");
  j.Bool(s.exact_search_finished);
  j.Key("exact_search_states");
  j.Int(s.exact_search_states);
  j.EndObject();
  j.Key("schedule_ms");
  j.Double(s.schedule_ms);
  j.Key("bound_ms");
  j.Double(s.bound_ms);
  // Enough for an independent checker to redo the bound: the node (or pair)
  // and, per minimum cut, the ideal of statements run before it.
  j.Key("witness");
  j.BeginObject();
  j.Key("kind");
  j.String(s.bound.kind);
  j.Key("statements");
  WriteIds(j, s.bound.nodes);
  j.Key("cuts");
  j.BeginArray();
  for (const NodeCut& c : s.bound.cuts) {
    j.BeginObject();
    j.Key("bytes");
    j.Int(c.bytes);
    j.Key("ideal");
    WriteIds(j, c.ideal);
    j.EndObject();
  }
  j.EndArray();
  j.Key("cuts_computed");
  j.Int(s.bound.cuts_computed);
  j.Key("complete");
  j.Bool(s.bound.complete);
  j.EndObject();
  j.Key("order");
  WriteIds(j, std::vector<int>(s.order.begin(), s.order.end()));
}

// Where every value's bytes are (for checkers and the HTML report): the
// space (arena, input k, output k), the byte offset in it and the size.
void WriteValues(JsonWriter& j, const CompileResult& r) {
  const Program& p = r.program;
  j.Key("values");
  j.BeginArray();
  for (const Value& v : p.values()) {
    if (v.IsConstant()) continue;
    const Buffer& b = r.model.buffers[r.model.buffer_of_value[v.id]];
    j.BeginObject();
    j.Key("value");
    j.Int(v.id);
    j.Key("space");
    j.String(b.location == BufferLocation::kArena   ? "arena"
             : b.location == BufferLocation::kInput ? "input"
                                                    : "output");
    j.Key("index");
    j.Int(b.location == BufferLocation::kArena ? 0 : b.io_index);
    j.Key("offset");
    j.Int((b.location == BufferLocation::kArena ? r.plan.buffer_offset[b.id] : 0) +
          r.model.offset_in_buffer[v.id]);
    j.Key("bytes");
    j.Int(v.ByteSize());
    j.EndObject();
  }
  j.EndArray();
  j.Key("elided_statements");
  j.BeginArray();
  for (size_t s = 0; s < p.statements().size(); ++s) {
    if (r.model.elided[s]) j.Int(p.statements()[s].id);
  }
  j.EndArray();
}

void WriteOverlaps(JsonWriter& j, const CompileResult& r) {
  const Program& p = r.program;
  j.Key("overlaps");
  j.BeginArray();
  for (const OverlapContract& c : r.model.overlaps) {
    const bool pixels = c.kind == OverlapContract::Kind::kPixels;
    j.BeginObject();
    j.Key("statement");
    j.Int(p.statements()[c.statement].id);
    j.Key("kind");
    j.String(OverlapKindName(c.kind));
    j.Key("input_value");
    j.Int(p.statements()[c.statement].operands[0]);
    j.Key("output_value");
    j.Int(p.statements()[c.statement].results[0]);
    // planes, elements or rows (rows_up too): the count; pixels: the block.
    j.Key(pixels ? "block" : c.kind == OverlapContract::Kind::kRowsUp ? "rows" : OverlapKindName(c.kind));
    j.Int(pixels ? c.block : c.planes);
    j.Key("displacement");
    j.Int(c.displacement);
    j.Key("scratch_bytes");
    j.Int(c.scratch);
    j.Key("credit_bytes");
    j.Int(c.credit);
    j.EndObject();
  }
  j.EndArray();
}

// One entry of "buffers": a whole buffer, or one part of a buffer with parts
// (the values touching its bytes; the concat's result, spanning every part,
// is in each).
void WriteBufferEntry(JsonWriter& j, const CompileResult& r, const Buffer& b, const BufferPart& part) {
  const Program& p = r.program;
  std::vector<ValueId> holds;
  ValueId root = b.root;
  for (ValueId v : b.values) {
    const int64_t lo = r.model.offset_in_buffer[v], hi = lo + p.value(v).ByteSize();
    if (lo < part.offset + part.bytes && part.offset < hi) holds.push_back(v);
    if (part.offset > 0 && lo == part.offset && root == b.root) root = v;
  }
  j.BeginObject();
  j.Key("value");
  j.Int(root);
  j.Key("name");
  j.String(p.value(root).name);
  j.Key("bytes");
  j.Int(part.bytes);
  j.Key("offset");
  j.Int(r.plan.buffer_offset[b.id] + part.offset);
  j.Key("first_step");
  j.Int(part.first_step);
  j.Key("last_step");
  j.Int(part.last_step);
  j.Key("holds");
  j.BeginArray();
  for (ValueId v : holds) j.Int(v);
  j.EndArray();
  // Buffers it may share bytes with under an overlap contract (roots).
  j.Key("overlaps");
  j.BeginArray();
  for (const OverlapContract& c : r.model.overlaps) {
    if (c.input_buffer == b.id) j.Int(r.model.buffers[c.output_buffer].root);
    if (c.output_buffer == b.id) j.Int(r.model.buffers[c.input_buffer].root);
  }
  j.EndArray();
  j.EndObject();
}

void WriteBuffers(JsonWriter& j, const CompileResult& r) {
  j.Key("buffers");
  j.BeginArray();
  for (const Buffer& b : r.model.buffers) {
    if (b.location != BufferLocation::kArena) continue;
    if (b.parts.empty()) {
      WriteBufferEntry(j, r, b, {0, b.aligned_bytes, b.first_step, b.last_step});
    } else {
      for (const BufferPart& part : b.parts) WriteBufferEntry(j, r, b, part);
    }
  }
  j.EndArray();
  WriteOverlaps(j, r);
  WriteValues(j, r);
}

}  // namespace

std::string MakeReport(const CompileOptions& o, const CompileResult& r) {
  const Program& p = r.program;
  int64_t macs = 0, weight_bytes = 0;
  for (const Statement& s : p.statements()) {
    if (s.recompute_of < 0) macs += s.macs;  // the model's; recompute_extra_macs counts the rest
  }
  macs -= r.patches.extra_macs();
  for (const Value& v : p.values()) {
    if (v.IsConstant()) weight_bytes += v.ByteSize();
  }
  JsonWriter j;
  j.BeginObject();
  j.Key("schema_version");
  j.Int(1);
  j.Key("tool");
  j.String(std::string("onnx-to-c ") + ONNX_TO_C_VERSION);
  j.Key("model");
  j.String(std::filesystem::path(o.model_path).filename().string());
  j.Key("name");
  j.String(p.name);
  // --dim: verify imports the model with the same dimensions.
  j.Key("dim_values");
  j.BeginObject();
  for (const auto& [dim, value] : o.dim_values) {
    j.Key(dim);
    j.Int(value);
  }
  j.EndObject();
  // Symbolic batch dimensions set to 1 (verify's import sets them again).
  j.Key("defaulted_dims");
  j.BeginObject();
  for (const auto& [dim, value] : r.defaulted_dims) {
    j.Key(dim);
    j.Int(value);
  }
  j.EndObject();
  j.Key("arena_bytes");
  j.Int(r.plan.arena_bytes);
  // What the firmware pays for activations: the arena plus the caller's
  // input and output buffers (none with --io=arena).
  j.Key("io_in_arena");
  j.Bool(r.memory.aliases.io_in_arena);
  j.Key("layout");
  j.String(r.channels_last ? "nhwc" : "nchw");
  j.Key("parts_over_contracts");
  j.Bool(r.memory.aliases.parts_over_contracts);
  j.Key("cut_contracts");
  j.BeginArray();
  for (int32_t id : r.memory.aliases.cut_contracts) j.Int(id);
  j.EndArray();
  j.Key("caller_io_bytes");
  j.Int(CallerIoBytes(r.model));
  j.Key("total_ram_bytes");
  j.Int(TotalRamBytes(r.plan, r.model));
  WriteCertificate(j, r);
  j.Key("peak_step");
  j.Int(r.model.peak_step);
  j.Key("planner");
  j.String(r.plan.planner);
  j.Key("arena_efficiency");
  j.Double(r.plan.arena_bytes ? static_cast<double>(r.model.peak_bytes) / r.plan.arena_bytes : 1.0);
  WriteRecompute(j, o, r);
  WritePatches(j, r);
  j.Key("linear_arena_bytes");
  j.Int(r.linear_arena_bytes);
  j.Key("tflite_style_arena_bytes");
  j.Int(r.tflite_style_arena_bytes);
  j.Key("tflite_style_io_arena_bytes");
  j.Int(r.tflite_style_io_arena_bytes);
  j.Key("views_only_arena_bytes");
  j.Int(r.views_only_arena_bytes);
  j.Key("no_overlap_arena_bytes");
  j.Int(r.no_overlap_arena_bytes);
  j.Key("kernel_scratch_policy");
  j.String(r.kernel_scratch.free_bytes_only ? "free-bytes" : "budget");
  j.Key("kernel_scratch_budget_bytes");
  j.Int(r.kernel_scratch.budget_bytes);
  j.Key("arena_bytes_without_kernel_scratch");
  j.Int(r.kernel_scratch.arena_without_bytes);
  j.Key("kernel_scratch_statements");
  j.Int(static_cast<int64_t>(r.kernel_scratch.statements.size()));
  j.Key("kernel_scratch");
  j.BeginArray();
  for (size_t i = 0; i < r.program.statements().size(); ++i) {
    const Statement& s = r.program.statements()[i];
    if (std::find(r.kernel_scratch.statements.begin(), r.kernel_scratch.statements.end(), s.id) ==
        r.kernel_scratch.statements.end()) {
      continue;
    }
    j.BeginObject();
    j.Key("statement");
    j.Int(s.id);
    j.Key("kernel");
    j.String(FastKernelWithScratch(r.program, s).name);
    j.Key("scratch_bytes");
    j.Int(s.scratch_bytes);
    j.Key("offset");
    j.Int(r.plan.scratch_offset[i]);
    j.EndObject();
  }
  j.EndArray();
  j.Key("alignment");
  j.Int(r.model.alignment);
  j.Key("target");
  j.String(o.target->name);
  j.Key("arena_section");
  j.String(o.arena_section);
  j.Key("weights_section");
  j.String(o.weights_section);
  j.Key("macs");
  j.Int(macs);
  j.Key("weights_bytes");
  j.Int(weight_bytes);
  j.Key("statements");
  j.Int(static_cast<int64_t>(p.statements().size()));
  j.Key("timing_ms");
  j.BeginObject();
  j.Key("import");
  j.Double(r.import_ms);
  j.Key("passes");
  j.Double(r.passes_ms);
  j.Key("schedule");
  j.Double(r.schedule_ms);
  j.Key("plan");
  j.Double(r.plan_ms);
  j.Key("emit");
  j.Double(r.emit_ms);
  j.EndObject();
  // What --time-limit left each search (SearchBudgetsWithinLimit).
  const SearchBudgets budgets = SearchBudgetsWithinLimit(o);
  j.Key("search_budgets_ms");
  j.BeginObject();
  j.Key("time_limit");
  j.Int(o.time_limit_ms);
  j.Key("schedule");
  j.Int(budgets.schedule_ms);
  j.Key("plan");
  j.Int(budgets.plan_ms);
  j.Key("baseline_plans");
  j.Int(budgets.baseline_plan_ms);
  j.Key("joint_plans");
  j.Int(budgets.joint_plan_ms);
  j.Key("recompute");
  j.Int(budgets.recompute_ms);
  j.EndObject();
  j.Key("pass_counters");
  j.BeginObject();
  for (const auto& [k, v] : r.stats.counters) {
    j.Key(k);
    j.Int(v);
  }
  j.EndObject();
  j.Key("live_bytes");
  j.BeginArray();
  for (int64_t b : r.model.live_bytes) j.Int(b);
  j.EndArray();
  j.Key("file_order_live_bytes");
  j.BeginArray();
  for (int64_t b : r.file_order_live_bytes) j.Int(b);
  j.EndArray();
  WriteBuffers(j, r);
  j.EndObject();
  return j.str();
}

}  // namespace oc
