// The JSON report (see docs/report.md for the fields).
#include <filesystem>

#include "compiler/driver/compile.h"
#include "compiler/support/json_writer.h"

namespace oc {

std::string MakeReport(const CompileOptions& o, const CompileResult& r) {
  const Program& p = r.program;
  int64_t macs = 0, weight_bytes = 0;
  for (const Statement& s : p.statements()) macs += s.macs;
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
  j.Key("arena_bytes");
  j.Int(r.plan.arena_bytes);
  j.Key("peak_bytes");
  j.Int(r.model.peak_bytes);
  j.Key("peak_step");
  j.Int(r.model.peak_step);
  j.Key("planner");
  j.String(r.plan.planner);
  j.Key("arena_efficiency");
  j.Double(r.plan.arena_bytes ? static_cast<double>(r.model.peak_bytes) / r.plan.arena_bytes : 1.0);
  j.Key("linear_arena_bytes");
  j.Int(r.linear_arena_bytes);
  j.Key("alignment");
  j.Int(r.model.alignment);
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
  j.Key("plan");
  j.Double(r.plan_ms);
  j.Key("emit");
  j.Double(r.emit_ms);
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
  j.EndObject();
  return j.str();
}

}  // namespace oc
