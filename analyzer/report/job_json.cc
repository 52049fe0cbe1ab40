#include "analyzer/report/job_json.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/render/text_renderer.h"

namespace prof::analyzer::report {
namespace {

void WriteStrings(const std::vector<std::string>& lines, JsonWriter* json) {
  json->BeginArray();
  for (const std::string& line : lines) json->String(line);
  json->EndArray();
}

void WriteLines(const char* key, const std::vector<std::string>& lines, JsonWriter* json) {
  json->Key(key);
  WriteStrings(lines, json);
}

// {"rank": 11, "label": "rank 11", "host": "node1"}, or null.
void WriteWho(const char* key, const JobAnalysis& job, const uint32_t* index, JsonWriter* json) {
  json->Key(key);
  if (index == nullptr) {
    json->Null();
    return;
  }
  const RankInfo& rank = job.ranks[*index];
  json->BeginObject();
  json->Key("rank");
  json->Int(rank.rank);
  json->Key("label");
  json->String(rank.Label());
  json->Key("host");
  json->String(rank.host);
  json->EndObject();
}

// Cells as the text view formats them, so the page and `--views job` show the same text.
void WriteTable(const SummaryTable& table, JsonWriter* json) {
  json->BeginObject();
  json->Key("key");
  json->String(table.key);
  json->Key("title");
  json->String(table.title);
  WriteLines("preamble", table.preamble, json);
  std::vector<std::string> headers;
  for (const Column& column : table.columns) headers.push_back(column.header);
  WriteLines("columns", headers, json);
  json->Key("rows");
  json->BeginArray();
  for (const Row& row : table.rows) {
    if (row.kind != Row::Kind::kData) continue;
    json->BeginArray();
    for (const Cell& cell : row.cells) json->String(FormatCell(cell, TimeUnit::kMilliseconds));
    json->EndArray();
  }
  json->EndArray();
  WriteLines("note", table.note, json);
  WriteLines("epilogue", table.epilogue, json);
  json->EndObject();
}

void WriteQuality(const JobAnalysis& job, JsonWriter* json) {
  json->Key("quality");
  json->BeginArray();
  for (const QualityGroup& group : job.quality) {
    json->BeginObject();
    json->Key("state");
    json->String(group.state);
    json->Key("ranks");
    json->Uint(group.rank_indices.size());
    std::vector<std::string> named;
    for (size_t i = 0; i < std::min(group.rank_indices.size(), kNamedQualityMembers); ++i) {
      named.push_back(job.ranks[group.rank_indices[i]].Label());
    }
    WriteLines("named", named, json);
    json->EndObject();
  }
  json->EndArray();
}

std::string BucketLabel(const JobAnalysis& job, const HeatMapRow& row) {
  const RankInfo& first = job.ranks[row.first];
  const RankInfo& last = job.ranks[row.last];
  if (row.first == row.last) return first.Label();
  if (first.rank >= 0 && last.rank >= 0) return absl::StrCat("ranks ", first.rank, "-", last.rank);
  return absl::StrCat(first.Label(), " to ", last.Label());
}

std::string ColumnLabel(const HeatMapColumn& column) {
  if (column.first_step == column.last_step) return absl::StrCat(column.first_step);
  return absl::StrCat(column.first_step, "-", column.last_step);
}

// "cells": [column, row, max compute ns, the rank's label, its step, (rank, step) records].
void WriteHeatMap(const JobAnalysis& job, const RankHeatMap& map, JsonWriter* json) {
  json->Key("heat_map");
  json->BeginObject();
  json->Key("ranks");
  json->Uint(job.ranks.size());
  json->Key("bucket_size");
  json->Uint(map.bucket_size);
  json->Key("steps_per_column");
  json->Uint(map.steps_per_column);
  std::vector<std::string> labels;
  for (const HeatMapColumn& column : map.columns) labels.push_back(ColumnLabel(column));
  WriteLines("columns", labels, json);
  labels.clear();
  for (const HeatMapRow& row : map.rows) labels.push_back(BucketLabel(job, row));
  WriteLines("rows", labels, json);
  json->Key("cells");
  json->BeginArray();
  for (size_t r = 0; r < map.rows.size(); ++r) {
    for (size_t c = 0; c < map.rows[r].cells.size(); ++c) {
      const HeatMapCell& cell = map.rows[r].cells[c];
      if (!cell.present) continue;
      json->BeginArray();
      json->Uint(c);
      json->Uint(r);
      json->Double(cell.max_ns, 0);
      json->String(job.ranks[cell.rank_index].Label());
      json->Int(cell.step);
      json->Uint(cell.steps);
      json->EndArray();
    }
  }
  json->EndArray();
  json->EndObject();
}

}  // namespace

void WriteJobLayout(const JobLayout& layout, JsonWriter* json) {
  const JobAnalysis& job = layout.job;
  json->BeginObject();
  json->Key("processes");
  json->Uint(layout.processes);
  json->Key("charted");  // parallel to the document's "ranks"
  json->BeginArray();
  for (const ChartedRank& rank : layout.charted) WriteStrings(rank.reasons, json);
  json->EndArray();
  const auto& stragglers = job.stragglers;
  WriteWho("straggler", job,
           stragglers.stragglers.empty() ? nullptr : &stragglers.stragglers[0].rank_index, json);
  WriteWho("last_arrival", job,
           stragglers.last_arrivals.empty() ? nullptr : &stragglers.last_arrivals[0].rank_index,
           json);
  WriteQuality(job, json);
  json->Key("tables");
  json->BeginArray();
  for (const SummaryTable& table : layout.tables) WriteTable(table, json);
  json->EndArray();
  WriteHeatMap(job, layout.heat_map, json);
  json->EndObject();
}

}  // namespace prof::analyzer::report
