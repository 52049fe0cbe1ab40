#include "analyzer/render/json_renderer.h"

namespace prof::analyzer {
namespace {

void WriteStats(const TimeStats& stats, JsonWriter* json) {
  json->BeginObject();
  json->Key("total_ns");
  json->Double(stats.total_ns, 1);
  for (auto [key, value] :
       {std::pair{"avg_ns", stats.avg_ns}, {"max_ns", stats.max_ns}, {"min_ns", stats.min_ns}}) {
    json->Key(key);
    if (stats.only_total) {
      json->Null();
    } else {
      json->Double(value, 1);
    }
  }
  json->Key("ratio_pct");
  json->Double(stats.ratio * 100, 4);
  json->EndObject();
}

void WriteCell(const Cell& cell, JsonWriter* json) {
  switch (cell.kind) {
    case Cell::Kind::kText: json->String(cell.text); break;
    case Cell::Kind::kCount:
    case Cell::Kind::kBytes: json->Double(cell.value, 0); break;
    case Cell::Kind::kTime: json->Double(cell.value, 1); break;
    case Cell::Kind::kRatio: json->Double(cell.value * 100, 4); break;
    case Cell::Kind::kStats: WriteStats(cell.stats, json); break;
    case Cell::Kind::kNumber: json->Double(cell.value, cell.decimals + 2); break;
    case Cell::Kind::kDashStats:
    case Cell::Kind::kDash: json->Null(); break;
  }
}

void WriteLines(const char* key, const std::vector<std::string>& lines, JsonWriter* json) {
  json->Key(key);
  json->BeginArray();
  for (const std::string& line : lines) json->String(line);
  json->EndArray();
}

void WriteRows(const SummaryTable& table, JsonWriter* json) {
  json->Key("rows");
  WriteRowsArray(table, json);
}

}  // namespace

void WriteRowsArray(const SummaryTable& table, JsonWriter* json) {
  json->BeginArray();
  std::string group;
  for (const Row& row : table.rows) {
    if (row.kind == Row::Kind::kTitle) group = row.title;
    if (row.kind != Row::Kind::kData) continue;
    json->BeginObject();
    for (size_t i = 0; i < row.cells.size() && i < table.columns.size(); ++i) {
      json->Key(table.columns[i].key);
      WriteCell(row.cells[i], json);
    }
    json->Key("depth");
    json->Int(row.indent / 2);
    const std::string& row_group = row.group.empty() ? group : row.group;
    if (!row_group.empty()) {
      json->Key("group");
      json->String(row_group);
    }
    json->EndObject();
  }
  json->EndArray();
}

namespace {

void WriteIdentity(const ProcessReport& report, JsonWriter* json) {
  json->Key("rank");
  json->Int(report.identity.rank);
  json->Key("world_size");
  json->Int(report.identity.world_size);
  json->Key("host");
  json->String(report.identity.host);
  json->Key("pid");
  json->Int(report.identity.pid);
  json->Key("events");
  json->Uint(report.event_count);
  WriteLines("files", report.files, json);
}

}  // namespace

void WriteTableJson(const SummaryTable& table, JsonWriter* json) {
  json->BeginObject();
  json->Key("title");
  json->String(table.title);
  WriteLines("preamble", table.preamble, json);
  WriteRows(table, json);
  WriteLines("note", table.note, json);
  WriteLines("epilogue", table.epilogue, json);
  json->EndObject();
}

namespace {

// The job view: its headline lines, then each table's rows under the table's key.
void WriteJobJson(const std::vector<SummaryTable>& job, JsonWriter* json) {
  json->BeginObject();
  if (!job.empty()) WriteLines("headline", job.front().preamble, json);
  for (const SummaryTable& table : job) {
    json->Key(table.key);
    WriteRowsArray(table, json);
  }
  json->EndObject();
}

}  // namespace

std::string RenderReportsJson(const std::vector<ProcessReport>& reports,
                              const std::optional<SummaryTable>& ranks,
                              const std::vector<std::string>& unreadable_files,
                              const std::vector<SummaryTable>& job) {
  JsonWriter json;
  json.BeginObject();
  json.Key("schema");
  json.String("profanalyze.summary");
  json.Key("version");
  json.Int(kJsonSchemaVersion);
  json.Key("time_unit");
  json.String("ns");
  WriteLines("unreadable_files", unreadable_files, &json);
  json.Key("processes");
  json.BeginArray();
  for (const ProcessReport& report : reports) {
    json.BeginObject();
    WriteIdentity(report, &json);
    json.Key("tables");
    json.BeginObject();
    for (const SummaryTable& table : report.tables) {
      json.Key(table.key);
      WriteTableJson(table, &json);
    }
    json.EndObject();
    json.EndObject();
  }
  json.EndArray();
  if (ranks) {
    json.Key("ranks");
    WriteTableJson(*ranks, &json);
  }
  if (!job.empty()) {
    json.Key("job");
    WriteJobJson(job, &json);
  }
  json.EndObject();
  return json.text() + "\n";
}

}  // namespace prof::analyzer
