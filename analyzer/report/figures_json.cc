#include "analyzer/report/figures_json.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "analyzer/render/json_writer.h"
#include "analyzer/report/job_json.h"

namespace prof::analyzer::report {
namespace {

uint64_t Origin(const RankFigures& rank) {
  uint64_t origin = std::numeric_limits<uint64_t>::max();
  if (!rank.steps.empty()) origin = rank.steps.front().start_ns;
  for (const auto& [name, flow] : rank.memory) {
    if (!flow.live.empty()) origin = std::min(origin, flow.live.front().time_ns);
    for (const MemoryBlock& block : flow.blocks) origin = std::min(origin, block.start_ns);
  }
  return origin == std::numeric_limits<uint64_t>::max() ? 0 : origin;
}

uint64_t Since(uint64_t time_ns, uint64_t origin) {
  return time_ns > origin ? time_ns - origin : 0;
}

void WriteUintArray(const char* key, const std::vector<uint64_t>& values, JsonWriter* json) {
  json->Key(key);
  json->BeginArray();
  for (uint64_t value : values) json->Uint(value);
  json->EndArray();
}

void WriteSteps(const RankFigures& rank, uint64_t origin, JsonWriter* json) {
  json->Key("steps");
  json->BeginArray();
  for (const StepFigures& step : rank.steps) {
    json->BeginObject();
    json->Key("number");
    json->Int(step.number);
    json->Key("start_ns");
    json->Uint(Since(step.start_ns, origin));
    json->Key("duration_ns");
    json->Uint(step.duration_ns);
    WriteUintArray("phase_ns", std::vector<uint64_t>(step.phase_ns.begin(), step.phase_ns.end()),
                   json);
    json->Key("gpu_busy_ns");
    json->Uint(step.gpu_busy_ns);
    json->EndObject();
  }
  json->EndArray();
}

// The kMaxNamedRows names with the most GPU time, most first.
void WriteNamed(const char* key, const std::map<std::string, NamedTime>& items, JsonWriter* json) {
  std::vector<std::pair<std::string, NamedTime>> sorted(items.begin(), items.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second.gpu_ns > b.second.gpu_ns; });
  if (sorted.size() > kMaxNamedRows) sorted.resize(kMaxNamedRows);
  json->Key(key);
  json->BeginArray();
  for (const auto& [name, item] : sorted) {
    json->BeginObject();
    json->Key("name");
    json->String(name);
    for (auto [field, value] : {std::pair{"calls", item.calls},
                                {"gpu_ns", item.gpu_ns},
                                {"cpu_ns", item.cpu_ns},
                                {"max_ns", item.max_ns},
                                {"min_ns", item.min_ns}}) {
      json->Key(field);
      json->Uint(value);
    }
    json->EndObject();
  }
  json->EndArray();
}

void WriteBlock(const MemoryBlock& block, uint64_t origin, JsonWriter* json) {
  json->BeginObject();
  json->Key("start_ns");
  json->Uint(Since(block.start_ns, origin));
  json->Key("end_ns");
  json->Uint(Since(block.end_ns, origin));
  json->Key("offset");
  json->Uint(block.offset);
  json->Key("bytes");
  json->Uint(block.bytes);
  json->Key("live_at_end");
  json->Bool(block.live_at_end);
  char address[32];
  std::snprintf(address, sizeof(address), "0x%llx", static_cast<unsigned long long>(block.address));
  json->Key("address");
  json->String(address);
  json->Key("stack");
  json->String(block.stack);
  json->EndObject();
}

void WriteMemory(const RankFigures& rank, uint64_t origin, JsonWriter* json) {
  json->Key("memory");
  json->BeginObject();
  for (const auto& [name, flow] : rank.memory) {
    json->Key(name);
    json->BeginObject();
    json->Key("peak_bytes");
    json->Uint(flow.peak_bytes);
    json->Key("allocations");
    json->Uint(flow.allocations);
    json->Key("live");  // [time_ns, bytes] pairs
    json->BeginArray();
    for (const MemoryPoint& point : flow.live) {
      json->BeginArray();
      json->Uint(Since(point.time_ns, origin));
      json->Uint(point.bytes);
      json->EndArray();
    }
    json->EndArray();
    json->Key("blocks");
    json->BeginArray();
    for (const MemoryBlock& block : flow.blocks) WriteBlock(block, origin, json);
    json->EndArray();
    WriteUintArray("step_peak_bytes", flow.step_peak_bytes, json);
    WriteUintArray("step_end_bytes", flow.step_end_bytes, json);
    json->EndObject();
  }
  json->EndObject();
}

// A step's figure, or null where the place had no sample in that step.
void WriteSampledArray(const char* key, const std::vector<SampledStep>& steps,
                       uint64_t SampledStep::*field, JsonWriter* json) {
  json->Key(key);
  json->BeginArray();
  for (const SampledStep& step : steps) {
    if (step.recorded) {
      json->Uint(step.*field);
    } else {
      json->Null();
    }
  }
  json->EndArray();
}

// "sampled_memory": {"GPU0": {"allocated": [...], "reserved": [...], "peak": [...]},
// "Host": {"rss": [...]}}, each array parallel to "steps".
void WriteSampledMemory(const RankFigures& rank, JsonWriter* json) {
  json->Key("sampled_memory");
  json->BeginObject();
  for (const auto& [name, steps] : rank.sampled_memory) {
    json->Key(name);
    json->BeginObject();
    if (name == "Host") {
      WriteSampledArray("rss", steps, &SampledStep::rss, json);
    } else {
      WriteSampledArray("allocated", steps, &SampledStep::allocated, json);
      WriteSampledArray("reserved", steps, &SampledStep::reserved, json);
      WriteSampledArray("peak", steps, &SampledStep::peak, json);
    }
    json->EndObject();
  }
  json->EndObject();
}

void WriteCounts(const char* key, const std::map<std::string, uint64_t>& counts, JsonWriter* json) {
  json->Key(key);
  json->BeginObject();
  for (const auto& [name, count] : counts) {
    json->Key(name);
    json->Uint(count);
  }
  json->EndObject();
}

void WriteQuality(const QualityFigures& quality, JsonWriter* json) {
  json->Key("quality");
  json->BeginObject();
  WriteCounts("losses", quality.losses, json);
  WriteCounts("unmatched_device_records", quality.unmatched_device_records, json);
  for (auto [field, value] : {std::pair{"chunks_missing", quality.chunks_missing},
                              {"bytes_skipped", quality.bytes_skipped},
                              {"files_without_last_chunk", quality.files_without_last_chunk},
                              {"malformed", quality.malformed},
                              {"frees_without_allocation", quality.frees_without_allocation}}) {
    json->Key(field);
    json->Uint(value);
  }
  json->Key("reader_issues");
  json->BeginArray();
  for (const std::string& issue : quality.reader_issues) json->String(issue);
  json->EndArray();
  json->EndObject();
}

void WriteSummaryFigures(const RankFigures& rank, JsonWriter* json) {
  json->Key("gpu_utilization");
  json->BeginObject();
  for (const auto& [device, fraction] : rank.gpu_utilization) {
    json->Key(device);
    json->Double(fraction, 6);
  }
  json->EndObject();
  for (auto [field, value] : {std::pair{"total_ns", rank.total_ns},
                              {"communication_ns", rank.communication_ns},
                              {"computation_ns", rank.computation_ns},
                              {"overlap_ns", rank.overlap_ns}}) {
    json->Key(field);
    json->Uint(value);
  }
}

void WriteRank(const RankFigures& rank, JsonWriter* json) {
  const uint64_t origin = Origin(rank);
  json->BeginObject();
  json->Key("rank");
  json->Int(rank.rank);
  json->Key("host");
  json->String(rank.host);
  json->Key("pid");
  json->Int(rank.pid);
  json->Key("files");
  json->BeginArray();
  for (const std::string& file : rank.files) json->String(file);
  json->EndArray();
  WriteSteps(rank, origin, json);
  WriteNamed("kernels", rank.kernels, json);
  WriteNamed("operators", rank.operators, json);
  WriteMemory(rank, origin, json);
  WriteSampledMemory(rank, json);
  WriteQuality(rank.quality, json);
  WriteSummaryFigures(rank, json);
  json->EndObject();
}

}  // namespace

std::string FiguresJson(const std::vector<RankFigures>& ranks,
                        const std::vector<std::string>& unreadable_files) {
  std::vector<const RankFigures*> all;
  for (const RankFigures& rank : ranks) all.push_back(&rank);
  return FiguresJson(all, unreadable_files, nullptr);
}

std::string FiguresJson(const std::vector<const RankFigures*>& ranks,
                        const std::vector<std::string>& unreadable_files, const JobLayout* job) {
  JsonWriter json;
  json.BeginObject();
  json.Key("schema");
  json.String("profanalyze.report");
  json.Key("version");
  json.Int(1);
  json.Key("unreadable_files");
  json.BeginArray();
  for (const std::string& file : unreadable_files) json.String(file);
  json.EndArray();
  json.Key("ranks");
  json.BeginArray();
  for (const RankFigures* rank : ranks) WriteRank(*rank, &json);
  json.EndArray();
  if (job != nullptr) {
    json.Key("job");
    WriteJobLayout(*job, &json);
  }
  json.EndObject();
  return json.text();
}

}  // namespace prof::analyzer::report
