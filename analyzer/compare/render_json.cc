// JSON output of `profanalyze compare` (schema "profanalyze.compare", version 1; README).
// Times in ns, relative changes as fractions, gpu_util in percent, busbw in GB/s.
#include "analyzer/compare/compare_renderers.h"
#include "analyzer/render/json_writer.h"

namespace prof::analyzer::compare {
namespace {

void WriteRun(const RunInfo& run, JsonWriter* json) {
  json->BeginObject();
  json->Key("paths");
  json->BeginArray();
  for (const std::string& path : run.paths) json->String(path);
  json->EndArray();
  json->Key("processes");
  json->Int(run.processes);
  json->Key("steps");
  json->Uint(run.steps);
  json->Key("events");
  json->Uint(run.events);
  json->EndObject();
}

void WriteSide(const SampleSummary& side, JsonWriter* json) {
  json->BeginObject();
  json->Key("median");
  json->Double(side.median);
  json->Key("noise");
  json->Double(side.noise);
  json->Key("steps");
  json->Uint(side.count);
  json->EndObject();
}

const char* PresenceName(Presence presence) {
  switch (presence) {
    case Presence::kBoth: return "both";
    case Presence::kOnlyBase: return "base only";
    case Presence::kOnlyCandidate: return "new only";
  }
  return "both";
}

void WriteMetric(const MetricDiff& diff, JsonWriter* json) {
  json->BeginObject();
  json->Key("metric");
  json->String(DisplayName(diff.key));
  json->Key("family");
  json->String(FamilyName(diff.key.family));
  json->Key("name");
  json->String(diff.key.name);
  json->Key("presence");
  json->String(PresenceName(diff.presence));
  json->Key("base");
  WriteSide(diff.shift.base, json);
  json->Key("new");
  WriteSide(diff.shift.candidate, json);
  json->Key("delta");
  json->Double(diff.shift.delta);
  json->Key("relative");
  json->Double(diff.relative, 6);  // null when the base median is 0
  json->Key("ci");
  json->BeginArray();
  json->Double(diff.shift.ci_low);
  json->Double(diff.shift.ci_high);
  json->EndArray();
  json->Key("confidence");
  json->Double(diff.shift.confidence, 4);
  json->Key("decided");
  json->Bool(diff.shift.decided);
  json->EndObject();
}

void WriteRule(const RuleResult& result, JsonWriter* json) {
  json->BeginObject();
  json->Key("rule");
  json->String(result.rule.text);
  json->Key("verdict");
  json->String(VerdictName(result.verdict));
  json->Key("threshold");
  json->String(ThresholdText(result.rule));
  json->Key("items");
  json->BeginArray();
  for (const ItemResult& item : result.items) {
    json->BeginObject();
    json->Key("metric");
    json->String(DisplayName(item.diff.key));
    json->Key("change");
    json->Double(item.change, 6);
    json->Key("beyond_threshold");
    json->Bool(item.beyond_threshold);
    json->Key("beyond_noise");
    json->Bool(item.beyond_noise);
    json->Key("verdict");
    json->String(VerdictName(item.verdict));
    json->Key("reason");
    json->String(item.reason);
    json->EndObject();
  }
  json->EndArray();
  json->EndObject();
}

}  // namespace

std::string RenderCompareJson(const CompareReport& report) {
  JsonWriter json;
  json.BeginObject();
  json.Key("schema");
  json.String("profanalyze.compare");
  json.Key("version");
  json.Int(1);
  json.Key("result");
  json.String(report.Failed() ? "fail" : "pass");
  json.Key("confidence");
  json.Double(report.confidence, 4);
  json.Key("minimum_steps_per_side");
  json.Uint(report.minimum_steps);
  json.Key("base");
  WriteRun(report.base, &json);
  json.Key("new");
  WriteRun(report.candidate, &json);
  json.Key("rules");
  json.BeginArray();
  for (const RuleResult& result : report.rules) WriteRule(result, &json);
  json.EndArray();
  json.Key("metrics");
  json.BeginArray();
  for (const MetricDiff& diff : report.metrics) {
    json.Newline();
    WriteMetric(diff, &json);
  }
  json.EndArray();
  json.Key("warnings");
  json.BeginArray();
  for (const std::string& warning : report.warnings) json.String(warning);
  json.EndArray();
  json.EndObject();
  return json.text() + "\n";
}

}  // namespace prof::analyzer::compare
