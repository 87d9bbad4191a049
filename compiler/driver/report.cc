// The JSON report: every key from report_fields.def (docs/report.md is
// generated from it).
#include <algorithm>
#include <filesystem>

#include "compiler/driver/compile.h"
#include "compiler/driver/report_fields.h"
#include "compiler/support/json_writer.h"
#include "compiler/target/kernel_facts.h"
#include "passes/transforms/quantized_io.h"

namespace oc {
namespace {

using F = ReportField;

// A JsonWriter whose keys are described fields; only the entries of a map
// field (dimension names, pass counters) take their keys from the data.
class ReportWriter {
 public:
  void BeginObject() { j_.BeginObject(); }
  void BeginObject(F field) { Key(field); j_.BeginObject(); }
  void EndObject() { j_.EndObject(); }
  void BeginArray(F field) { Key(field); j_.BeginArray(); }
  void EndArray() { j_.EndArray(); }
  void Int(int64_t v) { j_.Int(v); }
  void Int(F field, int64_t v) { Key(field); j_.Int(v); }
  void Double(F field, double v) { Key(field); j_.Double(v); }
  void Bool(F field, bool v) { Key(field); j_.Bool(v); }
  void String(F field, absl::string_view s) { Key(field); j_.String(s); }
  // An array of integers (ids, bytes, counts).
  template <typename Values>
  void Ints(F field, const Values& values) {
    BeginArray(field);
    for (const auto& v : values) j_.Int(v);
    j_.EndArray();
  }
  template <typename Map>
  void IntMap(F field, const Map& entries) {
    BeginObject(field);
    for (const auto& [key, value] : entries) {
      j_.Key(key);
      j_.Int(value);
    }
    j_.EndObject();
  }
  const std::string& str() const { return j_.str(); }

 private:
  void Key(F field) { j_.Key(ReportKey(field)); }
  JsonWriter j_;
};

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
void WriteRecompute(ReportWriter& w, const CompileOptions& o, const CompileResult& r) {
  const RecomputeResult& rc = r.recompute.result;
  // Patches' halos are recomputed MACs too; the model's cost is the one before them.
  const int64_t extra = rc.extra_cost + r.patches.extra_macs();
  w.Int(F::kRecomputeExtraMacs, extra);
  const int64_t model_cost = r.patches.applied ? r.patches.model_macs : ProgramCost(r.program);
  w.Double(F::kRecomputeMacOverheadPercent, Percent(extra, model_cost));
  w.BeginObject(F::kRecompute);
  w.String(F::kRecomputeMode, r.recompute.enabled ? "on" : "off");
  w.Int(F::kRecomputeCap, o.recompute_cap);
  w.Double(F::kRecomputeMacBudgetPercent, o.recompute_mac_budget_percent);
  w.Int(F::kRecomputeModelMacs, model_cost);
  // A stage that changed nothing reports the final figures: the planning
  // search may have refined the program after the stage measured it.
  const bool recomputed = r.recompute.enabled && !rc.clones.empty();
  w.Int(F::kRecomputePeakBeforeBytes, recomputed ? rc.peak_before : r.schedule.peak);
  w.Int(F::kRecomputeArenaBeforeBytes, recomputed ? rc.arena_before : r.plan.arena_bytes);
  w.Int(F::kRecomputePeakAfterBytes, r.schedule.peak);
  w.Int(F::kRecomputeArenaAfterBytes, r.plan.arena_bytes);
  w.Int(F::kRecomputeCandidatesTried, rc.candidates_tried);
  w.BeginArray(F::kRecomputeClones);
  for (const RecomputeClone& c : rc.clones) {
    w.BeginObject();
    w.Int(F::kCloneStatement, c.statement);
    w.Int(F::kCloneCloneOf, c.clone_of);
    w.Int(F::kCloneOriginal, c.original);
    w.Int(F::kCloneValue, c.value);
    w.Ints(F::kCloneReaders, c.readers);
    w.EndObject();
  }
  w.EndArray();
  const ExactRecomputeResult& e = r.recompute.exact;
  w.BeginObject(F::kRecomputeExactSearch);
  w.Bool(F::kExactRan, e.ran);
  w.Bool(F::kExactFinished, e.finished);
  w.Int(F::kExactPeakBytes, e.peak);
  w.Int(F::kExactExtraMacs, e.extra_cost);
  w.Int(F::kExactPrograms, e.programs);
  w.EndObject();
  w.Bool(F::kRecomputeProvenOptimal, RecomputeProvenOptimal(r));
  w.Double(F::kRecomputeMs, r.recompute.ms);
  w.EndObject();
}

// Patch-based execution: the region, the grid and what they cost and saved.
void WritePatches(ReportWriter& w, const CompileResult& r) {
  const PatchSummary& ps = r.patches;
  w.BeginObject(F::kPatches);
  w.String(F::kPatchesMode,
           r.memory.patches == MemoryOptions::Patches::kOff      ? "off"
           : r.memory.patches == MemoryOptions::Patches::kAlways ? "always"
                                                                 : "auto");
  w.Bool(F::kPatchesApplied, ps.applied);
  w.BeginObject(F::kPatchesRegion);
  w.Int(F::kRegionInputValue, ps.region.input);
  w.Int(F::kRegionOutputValue, ps.region.output);
  w.String(F::kRegionInput, ps.input_name);
  w.String(F::kRegionOutput, ps.output_name);
  w.Ints(F::kRegionStatements, ps.region.statements);
  w.EndObject();
  w.Ints(F::kPatchesGrid, std::vector<int64_t>{ps.applied ? ps.grid.rows : 0, ps.applied ? ps.grid.cols : 0});
  w.Ints(F::kPatchesPatchStatements, ps.rewrite.statements);
  w.Int(F::kPatchesRegionMacs, ps.rewrite.region_macs);
  w.Int(F::kPatchesPatchedMacs, ps.rewrite.patched_macs);
  w.Int(F::kPatchesExtraMacs, ps.rewrite.patched_macs - ps.rewrite.region_macs);
  w.Int(F::kPatchesMacBudget, ps.budget_macs);
  w.Int(F::kPatchesPeakBeforeBytes, ps.applied ? ps.peak_before : r.schedule.peak);
  w.Int(F::kPatchesArenaBeforeBytes, ps.applied ? ps.arena_before : r.plan.arena_bytes);
  w.Int(F::kPatchesPeakAfterBytes, ps.applied ? ps.peak_after : r.schedule.peak);
  w.Int(F::kPatchesArenaAfterBytes, ps.applied ? ps.arena_after : r.plan.arena_bytes);
  w.Int(F::kPatchesCandidatesTried, ps.candidates_tried);
  w.Bool(F::kPatchesFitFirst, ps.fit_first);
  w.Int(F::kPatchesFittingCandidates, ps.fitting_candidates);
  w.BeginArray(F::kPatchesFitTries);
  for (const PatchSummary::FitTry& t : ps.fit_tries) {
    w.BeginObject();
    w.Ints(F::kFitTryGrid, std::vector<int64_t>{t.grid.rows, t.grid.cols});
    w.String(F::kFitTryOutput, t.output_name);
    w.Int(F::kFitTryExtraMacs, t.extra_macs);
    w.Int(F::kFitTryPeakBytes, t.peak);
    w.Int(F::kFitTryArenaBytes, t.arena);
    w.Bool(F::kFitTryFits, t.fits);
    w.EndObject();
  }
  w.EndArray();
  w.BeginArray(F::kPatchesRegions);
  for (const PatchSummary::Applied& a : ps.regions) {
    w.BeginObject();
    w.Int(F::kPatchedInputValue, a.region.input);
    w.Int(F::kPatchedOutputValue, a.region.output);
    w.String(F::kPatchedOutput, a.output_name);
    w.Ints(F::kPatchedStatements, a.region.statements);
    w.Ints(F::kPatchedGrid, std::vector<int64_t>{a.grid.rows, a.grid.cols});
    w.Bool(F::kPatchedReuse, a.grid.reuse);
    w.Bool(F::kPatchedReuseAll, a.grid.reuse_all);
    w.Ints(F::kPatchedPatchStatements, a.rewrite.statements);
    w.Int(F::kPatchedExtraMacs, a.rewrite.patched_macs - a.rewrite.region_macs);
    w.Int(F::kPatchedArenaAfterBytes, a.arena_after);
    w.EndObject();
  }
  w.EndArray();
  w.Double(F::kPatchesMs, ps.ms);
  w.EndObject();
}

// Memory regions: each region's size, arena, bound, traffic and buffers,
// and the access costs (none without a map).
void WriteMemoryMap(ReportWriter& w, const CompileOptions& o, const CompileResult& r) {
  w.BeginObject(F::kMemoryMap);
  w.BeginArray(F::kMemoryMapRegions);
  for (size_t k = 0; o.memory_map && k < r.regions.regions.size(); ++k) {
    const MemoryRegion& region = o.memory_map->regions[k];
    const RegionUse& use = r.regions.regions[k];
    std::vector<int64_t> values;
    for (int b : use.buffers) values.push_back(r.model.buffers[b].root);
    w.BeginObject();
    w.String(F::kMemoryRegionName, region.name);
    w.Int(F::kMemoryRegionSizeBytes, region.size);
    w.Double(F::kMemoryRegionCost, region.cost);
    w.Int(F::kMemoryRegionArenaBytes, use.arena_bytes);
    w.Int(F::kMemoryRegionArenaLowerBoundBytes, use.lower_bound_bytes);
    w.Int(F::kMemoryRegionTrafficBytes, use.traffic_bytes);
    w.Ints(F::kMemoryRegionBuffers, values);
    w.EndObject();
  }
  w.EndArray();
  w.Double(F::kMemoryMapAccessCost, r.regions.access_cost);
  w.Double(F::kMemoryMapAccessCostLowerBound, r.regions.access_cost_lower_bound);
  w.Double(F::kMemoryMapAccessCostGapPercent, AccessCostGapPercent(r.regions.access_cost, r.regions.access_cost_lower_bound));
  w.Double(F::kMemoryMapAccessCostBaseline, r.regions.access_cost_baseline);
  w.EndObject();
}

// Enough for an independent checker to redo the bound: the node (or pair)
// and, per minimum cut, the ideal of statements run before it.
void WriteWitness(ReportWriter& w, const ScheduleReport& s) {
  w.BeginObject(F::kWitness);
  w.String(F::kWitnessKind, s.bound.kind);
  w.Ints(F::kWitnessStatements, s.bound.nodes);
  w.BeginArray(F::kWitnessCuts);
  for (const NodeCut& c : s.bound.cuts) {
    w.BeginObject();
    w.Int(F::kCutBytes, c.bytes);
    w.Ints(F::kCutIdeal, c.ideal);
    w.EndObject();
  }
  w.EndArray();
  w.Int(F::kWitnessCutsComputed, s.bound.cuts_computed);
  w.Bool(F::kWitnessComplete, s.bound.complete);
  w.EndObject();
}

void WriteCertificate(ReportWriter& w, const CompileResult& r) {
  const ScheduleReport& s = r.schedule;
  w.Int(F::kPeakBytes, s.peak);
  w.Int(F::kLowerBoundBytes, s.bound.bytes);
  // A recompute program is never certified by the order bound: that bound
  // covers orders of this program, not other choices of what to recompute.
  const bool recomputed = !r.recompute.result.clones.empty();
  w.Bool(F::kCertifiedOptimal, s.certified_optimal && !recomputed);
  // Optimal by the bound, or by an exact search that ran out of candidates
  // (the latter has no witness a checker can redo cheaply); with recompute,
  // only by the exact recompute search.
  w.Bool(F::kProvenOptimal, recomputed ? RecomputeProvenOptimal(r)
                                       : s.certified_optimal || s.exact_search_finished);
  w.Int(F::kGapBytes, s.peak - s.bound.bytes);
  w.Double(F::kGapPercent,
           s.peak ? 100.0 * static_cast<double>(s.peak - s.bound.bytes) / static_cast<double>(s.peak)
                  : 0.0);
  w.String(F::kTightBound, s.certified_optimal ? s.bound.kind : "");
  w.BeginObject(F::kBaselines);
  w.Int(F::kBaselinesFileOrderPeakBytes, s.file_order_peak);
  w.Int(F::kBaselinesRpoPeakBytes, s.rpo_peak);
  w.Int(F::kBaselinesHeuristicPeakBytes, s.heuristic_peak);
  w.EndObject();
  w.BeginObject(F::kSchedule);
  w.String(F::kScheduleMode, s.mode);
  w.String(F::kScheduleChosenBy, s.chosen_by);
  w.Bool(F::kScheduleExactSearchFinished, s.exact_search_finished);
  w.Int(F::kScheduleExactSearchStates, s.exact_search_states);
  w.EndObject();
  w.Double(F::kScheduleMs, s.schedule_ms);
  w.Double(F::kBoundMs, s.bound_ms);
  WriteWitness(w, s);
  w.Ints(F::kOrder, s.order);
}

// Where every value's bytes are (for checkers and the HTML report): the
// space (arena, input k, output k), the byte offset in it and the size.
void WriteValues(ReportWriter& w, const CompileResult& r) {
  const Program& p = r.program;
  w.BeginArray(F::kValues);
  for (const Value& v : p.values()) {
    if (v.IsConstant()) continue;
    const Buffer& b = r.model.buffers[r.model.buffer_of_value[v.id]];
    w.BeginObject();
    w.Int(F::kValueId, v.id);
    w.String(F::kValueSpace, b.location == BufferLocation::kArena      ? "arena"
                             : b.location == BufferLocation::kInput    ? "input"
                             : b.location == BufferLocation::kStreamed ? "streamed"
                                                                       : "output");
    w.Int(F::kValueIndex, b.location == BufferLocation::kArena ? 0 : b.io_index);
    w.Int(F::kValueOffset, (b.location == BufferLocation::kArena ? r.plan.buffer_offset[b.id] : 0) +
                               r.model.offset_in_buffer[v.id]);
    w.Int(F::kValueBytes, v.ByteSize());
    w.EndObject();
  }
  w.EndArray();
  std::vector<int32_t> elided;
  for (size_t s = 0; s < p.statements().size(); ++s) {
    if (r.model.elided[s]) elided.push_back(p.statements()[s].id);
  }
  w.Ints(F::kElidedStatements, elided);
}

// The key of an overlap contract's count: planes, elements or rows (rows_up
// too) count those; pixels: the block.
F OverlapCountField(OverlapContract::Kind kind) {
  switch (kind) {
    case OverlapContract::Kind::kPlanes: return F::kOverlapPlanes;
    case OverlapContract::Kind::kPixels: return F::kOverlapBlock;
    case OverlapContract::Kind::kElements: return F::kOverlapElements;
    case OverlapContract::Kind::kRows:
    case OverlapContract::Kind::kRowsUp: return F::kOverlapRows;
  }
  return F::kOverlapPlanes;
}

void WriteOverlaps(ReportWriter& w, const CompileResult& r) {
  const Program& p = r.program;
  w.BeginArray(F::kOverlaps);
  for (const OverlapContract& c : r.model.overlaps) {
    const bool pixels = c.kind == OverlapContract::Kind::kPixels;
    w.BeginObject();
    w.Int(F::kOverlapStatement, p.statements()[c.statement].id);
    w.String(F::kOverlapKind, OverlapKindName(c.kind));
    w.Int(F::kOverlapInputValue, p.statements()[c.statement].operands[0]);
    w.Int(F::kOverlapOutputValue, p.statements()[c.statement].results[0]);
    w.Int(OverlapCountField(c.kind), pixels ? c.block : c.planes);
    w.Int(F::kOverlapDisplacement, c.displacement);
    w.Int(F::kOverlapScratchBytes, c.scratch);
    w.Int(F::kOverlapCreditBytes, c.credit);
    w.EndObject();
  }
  w.EndArray();
}

// One entry of "buffers": a whole buffer, or one part of a buffer with parts
// (the values touching its bytes; the concat's result, spanning every part,
// is in each).
void WriteBufferEntry(ReportWriter& w, const CompileResult& r, const Buffer& b, const BufferPart& part) {
  const Program& p = r.program;
  std::vector<ValueId> holds;
  ValueId root = b.root;
  for (ValueId v : b.values) {
    const int64_t lo = r.model.offset_in_buffer[v], hi = lo + p.value(v).ByteSize();
    if (lo < part.offset + part.bytes && part.offset < hi) holds.push_back(v);
    if (part.offset > 0 && lo == part.offset && root == b.root) root = v;
  }
  w.BeginObject();
  w.Int(F::kBufferValue, root);
  w.String(F::kBufferName, p.value(root).name);
  w.Int(F::kBufferBytes, part.bytes);
  w.Int(F::kBufferOffset, r.plan.buffer_offset[b.id] + part.offset);
  w.Int(F::kBufferFirstStep, part.first_step);
  w.Int(F::kBufferLastStep, part.last_step);
  w.Ints(F::kBufferHolds, holds);
  // Buffers it may share bytes with under an overlap contract (roots).
  std::vector<ValueId> overlaps;
  for (const OverlapContract& c : r.model.overlaps) {
    if (c.input_buffer == b.id) overlaps.push_back(r.model.buffers[c.output_buffer].root);
    if (c.output_buffer == b.id) overlaps.push_back(r.model.buffers[c.input_buffer].root);
  }
  w.Ints(F::kBufferOverlaps, overlaps);
  w.EndObject();
}

void WriteBuffers(ReportWriter& w, const CompileResult& r) {
  w.BeginArray(F::kBuffers);
  for (const Buffer& b : r.model.buffers) {
    if (b.location != BufferLocation::kArena) continue;
    if (b.parts.empty()) {
      WriteBufferEntry(w, r, b, {0, b.aligned_bytes, b.first_step, b.last_step});
    } else {
      for (const BufferPart& part : b.parts) WriteBufferEntry(w, r, b, part);
    }
  }
  w.EndArray();
  WriteOverlaps(w, r);
  WriteValues(w, r);
}

// What was compiled: the tool, the model, the dimensions it was imported with.
void WriteIdentity(ReportWriter& w, const CompileOptions& o, const CompileResult& r) {
  w.Int(F::kSchemaVersion, 1);
  w.String(F::kTool, std::string("onnx-to-c ") + ONNX_TO_C_VERSION);
  w.String(F::kModel, std::filesystem::path(o.model_path).filename().string());
  w.String(F::kName, r.program.name);
  // --dim: verify imports the model with the same dimensions.
  w.IntMap(F::kDimValues, o.dim_values);
  // Symbolic batch dimensions set to 1 (verify's import sets them again).
  w.IntMap(F::kDefaultedDims, r.defaulted_dims);
}

// --quantized-io: the 8-bit inputs, then the 8-bit outputs.
void WriteQuantizedIo(ReportWriter& w, const Program& p) {
  w.BeginArray(F::kQuantizedIo);
  for (const bool input : {true, false}) {
    const std::vector<ValueId>& values = input ? p.inputs() : p.outputs();
    for (size_t i = 0; i < values.size(); ++i) {
      const Value& v = p.value(values[i]);
      if (!IsQuantizedIo(v)) continue;
      w.BeginObject();
      w.String(F::kQioKind, input ? "input" : "output");
      w.Int(F::kQioIndex, static_cast<int64_t>(i));
      w.String(F::kQioName, v.name);
      w.String(F::kQioType, v.dtype == DType::kI8 ? "int8" : "uint8");
      w.Double(F::kQioScale, v.quant->scales[0]);
      w.Int(F::kQioZeroPoint, v.quant->zero_points[0]);
      w.EndObject();
    }
  }
  w.EndArray();
}

// What the firmware pays for activations: the arena plus the caller's
// input and output buffers (none with --io=arena).
void WriteRam(ReportWriter& w, const CompileResult& r) {
  w.Int(F::kArenaBytes, r.plan.arena_bytes);
  w.Int(F::kArenaLowerBoundBytes, r.arena_claims.bound.bytes);
  w.String(F::kArenaBoundKind, r.arena_claims.bound.groups ? "group_extent" : "peak");
  w.Bool(F::kArenaCertified, r.arena_claims.certified);
  w.Bool(F::kArenaProvenOptimal, r.arena_claims.proven_optimal);
  w.BeginArray(F::kConcatCopies);
  for (const ConcatCopy& c : r.concat_copies) {
    w.BeginObject();
    w.Int(F::kCopyConcat, c.concat);
    w.Int(F::kCopyOperand, c.operand);
    w.Int(F::kCopyStatement, c.statement);
    w.Int(F::kCopyValue, c.value);
    w.EndObject();
  }
  w.EndArray();
  w.Bool(F::kIoInArena, r.memory.aliases.io_in_arena);
  w.Int(F::kStreamInput, r.memory.aliases.streamed_input);
  WriteQuantizedIo(w, r.program);
  w.String(F::kLayout, r.channels_last ? "nhwc" : "nchw");
  w.Bool(F::kPartsOverContracts, r.memory.aliases.parts_over_contracts);
  w.Ints(F::kCutContracts, r.memory.aliases.cut_contracts);
  w.Int(F::kCallerIoBytes, CallerIoBytes(r.model));
  w.Int(F::kTotalRamBytes, TotalRamBytes(r.plan, r.model));
}

// The baselines' arenas, and the fast kernels' scratch.
void WriteArenaBaselines(ReportWriter& w, const CompileResult& r) {
  w.Int(F::kLinearArenaBytes, r.linear_arena_bytes);
  w.Int(F::kTfliteStyleArenaBytes, r.tflite_style_arena_bytes);
  w.Int(F::kTfliteStyleIoArenaBytes, r.tflite_style_io_arena_bytes);
  w.Int(F::kViewsOnlyArenaBytes, r.views_only_arena_bytes);
  w.Int(F::kNoOverlapArenaBytes, r.no_overlap_arena_bytes);
}

void WriteKernelScratch(ReportWriter& w, const CompileResult& r) {
  const auto& with_scratch = r.kernel_scratch.statements;
  w.String(F::kKernelScratchPolicy, r.kernel_scratch.free_bytes_only ? "free-bytes" : "budget");
  w.Int(F::kKernelScratchBudgetBytes, r.kernel_scratch.budget_bytes);
  w.Int(F::kArenaBytesWithoutKernelScratch, r.kernel_scratch.arena_without_bytes);
  w.Int(F::kKernelScratchStatements, static_cast<int64_t>(with_scratch.size()));
  w.BeginArray(F::kKernelScratch);
  for (size_t i = 0; i < r.program.statements().size(); ++i) {
    const Statement& s = r.program.statements()[i];
    if (std::find(with_scratch.begin(), with_scratch.end(), s.id) == with_scratch.end()) continue;
    w.BeginObject();
    w.Int(F::kScratchStatement, s.id);
    w.String(F::kScratchKernel, FastKernelWithScratch(r.program, s).name);
    w.Int(F::kScratchBytes, s.scratch_bytes);
    w.Int(F::kScratchOffset, r.plan.scratch_offset[i]);
    w.EndObject();
  }
  w.EndArray();
}

// The target, the model's size, and the time each stage took and could take.
void WriteTargetAndCosts(ReportWriter& w, const CompileOptions& o, const CompileResult& r) {
  const Program& p = r.program;
  int64_t macs = 0, weight_bytes = 0;
  for (const Statement& s : p.statements()) {
    if (s.recompute_of < 0) macs += s.macs;  // the model's; recompute_extra_macs counts the rest
  }
  macs -= r.patches.extra_macs();
  std::vector<bool> four_bit(p.num_values(), false);  // counted packed, by their statements
  for (const Statement& s : p.statements()) {
    if (!HasFourBitWeights(s) || four_bit[s.operands[3]]) continue;
    four_bit[s.operands[3]] = four_bit[s.operands[5]] = true;
    weight_bytes += FourBitWeightBytes(p, s);
  }
  for (const Value& v : p.values()) {
    if (v.IsConstant() && !four_bit[v.id]) weight_bytes += v.ByteSize();
  }
  w.Int(F::kAlignment, r.model.alignment);
  w.String(F::kTarget, o.target->name);
  w.String(F::kArenaSection, o.arena_section);
  w.String(F::kWeightsSection, o.weights_section);
  w.Int(F::kMacs, macs);
  w.Int(F::kWeightsBytes, weight_bytes);
  w.Int(F::kStatements, static_cast<int64_t>(p.statements().size()));
  w.BeginObject(F::kTimingMs);
  w.Double(F::kTimingImport, r.import_ms);
  w.Double(F::kTimingPasses, r.passes_ms);
  w.Double(F::kTimingSchedule, r.schedule_ms);
  w.Double(F::kTimingPlan, r.plan_ms);
  w.Double(F::kTimingEmit, r.emit_ms);
  w.EndObject();
  const SearchBudgets& budgets = r.memory.budgets;
  w.BeginObject(F::kSearchBudgets);
  w.Double(F::kBudgetEffort, o.search_effort);
  w.Int(F::kBudgetTimeLimit, o.time_limit_ms);
  w.Bool(F::kBudgetCutShort, budgets.stop && budgets.stop->fired());
  w.Int(F::kBudgetSchedule, budgets.schedule);
  w.Int(F::kBudgetPlan, budgets.plan);
  w.Int(F::kBudgetBaselinePlans, budgets.baseline_plan);
  w.Int(F::kBudgetJointPlans, budgets.joint_plan);
  w.Int(F::kBudgetRecompute, budgets.recompute);
  w.EndObject();
}

}  // namespace

std::string MakeReport(const CompileOptions& o, const CompileResult& r) {
  ReportWriter w;
  w.BeginObject();
  WriteIdentity(w, o, r);
  WriteRam(w, r);
  WriteCertificate(w, r);
  w.Int(F::kPeakStep, r.model.peak_step);
  w.String(F::kPlanner, r.plan.planner);
  w.Double(F::kArenaEfficiency,
           r.plan.arena_bytes ? static_cast<double>(r.model.peak_bytes) / r.plan.arena_bytes : 1.0);
  WriteRecompute(w, o, r);
  WritePatches(w, r);
  WriteMemoryMap(w, o, r);
  WriteArenaBaselines(w, r);
  WriteKernelScratch(w, r);
  WriteTargetAndCosts(w, o, r);
  w.IntMap(F::kPassCounters, r.stats.counters);
  w.Ints(F::kLiveBytes, r.model.live_bytes);
  w.Ints(F::kFileOrderLiveBytes, r.file_order_live_bytes);
  WriteBuffers(w, r);
  w.EndObject();
  return w.str();
}

}  // namespace oc
