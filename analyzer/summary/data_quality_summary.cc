#include "analyzer/summary/data_quality_summary.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/match.h"

namespace prof::analyzer {
namespace {

constexpr size_t kMaxIssueLines = 20;
constexpr size_t kMaxStepRows = 20;

void AddCount(const std::string& item, uint64_t count, const std::string& detail,
              SummaryTable* table) {
  if (count == 0) return;
  table->AddRow({Cell::Text(item), Cell::Count(count), Cell::Text(detail)});
}

// One row per step whose events are incomplete (the agent dropped records in it), in step
// order; the first kMaxStepRows, then a line for the rest.
constexpr char kIncompleteStep[] = "incomplete step ";

void AddIncompleteSteps(const DataQuality& quality, SummaryTable* table) {
  size_t shown = 0;
  for (const auto& [step, counts] : quality.losses_by_step) {
    uint64_t total = 0;
    std::string kinds;
    for (const auto& [kind, count] : counts) {
      total += count;
      absl::StrAppend(&kinds, kinds.empty() ? "" : ", ", kind, " ", count);
    }
    if (total == 0) continue;
    if (shown++ == kMaxStepRows) {
      table->epilogue.push_back(absl::StrFormat("... %d more incomplete steps",
                                                quality.losses_by_step.size() - kMaxStepRows));
      break;
    }
    AddCount(absl::StrCat(kIncompleteStep, step), total,
             absl::StrCat("records lost in it (", kinds, "); its boundaries are exact"), table);
  }
}

// Losses whose words say more than their kind's name: the flight recorder's (flight dumps
// only) and ranges cut at a file's end.
struct LossText {
  const char* kind;
  const char* item;
  const char* detail;
};
constexpr LossText kLossTexts[] = {
    {"LOSS_KIND_FLIGHT_OVERWRITTEN", "NCCL calls overwritten in the flight ring",
     "older than the ring's PROF_FLIGHT_ENTRIES calls; not in this dump"},
    {"LOSS_KIND_FLIGHT_TORN", "NCCL calls torn in the flight ring",
     "being rewritten while the dump copied them; not in this dump"},
    {"LOSS_KIND_FLIGHT_HOST_OVERWRITTEN", "CUDA calls and ranges overwritten in the flight rings",
     "older than a thread's PROF_FLIGHT_HOST_ENTRIES; not in this dump"},
    {"LOSS_KIND_FLIGHT_HOST_TORN", "CUDA calls and ranges torn in the flight rings",
     "being rewritten while the dump copied them; not in this dump"},
    {"LOSS_KIND_FLIGHT_HOST_THREAD_REFUSED", "threads without a flight ring",
     "every ring was taken: none of their CUDA calls or ranges is in this dump"},
    {"LOSS_KIND_RANGE_OPEN_AT_END", "ranges open at the file's end",
     "ended at the window's close (a flight dump: at the dump); they ran longer"},
};

const LossText* LossTextOf(const std::string& kind) {
  for (const LossText& text : kLossTexts) {
    if (kind == text.kind) return &text;
  }
  return nullptr;
}

}  // namespace

bool QualityPerfect(const DataQuality& quality, const LaunchCoverage& launches) {
  return quality.Perfect() && launches.without_device == 0;
}

std::optional<SummaryTable> DataQualitySummary(const DataQuality& quality,
                                               const LaunchCoverage& launches) {
  if (QualityPerfect(quality, launches)) return std::nullopt;
  SummaryTable table;
  table.key = "data_quality";
  table.title = "Data Quality";
  table.time_unit_line = false;
  table.columns = {{"Item", "item", 36}, {"Count", "count", 8}, {"Detail", "detail", 10}};
  for (const auto& [kind, count] : quality.losses) {
    if (kind == "LOSS_KIND_DEVICE_TRACING_PAUSED") {
      AddCount("device activity paused: another CUPTI client held CUPTI", count,
               "torch.profiler or the program's own CUPTI code; kernels, copies and memsets "
               "of that time are missing",
               &table);
      continue;
    }
    if (const LossText* text = LossTextOf(kind)) {
      AddCount(text->item, count, text->detail, &table);
      continue;
    }
    AddCount(absl::StrCat("records lost by the agent: ", kind), count,
             "counted by the agent, never written", &table);
  }
  AddIncompleteSteps(quality, &table);
  AddCount("chunks missing or corrupt", quality.chunks_missing, "their events are not in any table",
           &table);
  AddCount("bytes skipped by the reader", quality.bytes_skipped, "damaged or truncated regions",
           &table);
  AddCount("files without the final chunk", quality.files_without_last_chunk,
           "the program ended before the window closed (crash, kill)", &table);
  AddCount("malformed blocks skipped", quality.malformed_blocks, "columns of different lengths",
           &table);
  AddCount("malformed columns ignored", quality.malformed_columns, "rows lose an optional value",
           &table);
  AddCount("references to undefined names", quality.unknown_dictionary_references,
           "shown as <unknown string N>", &table);
  AddCount("names defined with impossible ids", quality.dropped_definitions,
           "id 0 or past 2^32-1: no event can name them; dropped", &table);
  for (const auto& [field, count] : quality.unknown_enum_values) {
    AddCount(absl::StrCat("unknown enum values: ", field), count,
             "not in this build's schema: shown as UNKNOWN(n) (NCCL: OP_n)", &table);
  }
  for (const auto& [kind, count] : quality.unmatched_device_records) {
    AddCount(absl::StrCat("unmatched correlation ids: ", kind), count,
             "launching call not recorded: in Kernel/Overview/Device, not under any range", &table);
  }
  AddCount("kernel launches without a device record", launches.without_device,
           absl::StrCat("of ", launches.launches,
                        " launches; no device times (CUPTI absent, disabled or its records "
                        "lost): see the Kernel Launch Summary (host side)"),
           &table);
  AddCount("duplicate correlation ids", quality.duplicate_correlation_ids, "the later call wins",
           &table);
  AddCount("re-parented ranges", quality.reparented_ranges,
           "overlapped their enclosing range; moved to the innermost range holding them", &table);
  AddCount("API calls ending after their range", quality.straddling_api_calls,
           "attributed to the range holding their start", &table);
  AddCount("frees without allocation", quality.frees_without_allocation,
           "ignored by the Memory Summary", &table);
  AddCount("records after their slice", quality.late_slice_records,
           "read after the slice of the window holding their time; analyzed with the next slice",
           &table);
  if (quality.cupti_clock_assumed_equal) {
    table.AddRow({Cell::Text("CUPTI clock not anchored"), Cell::Count(1),
                  Cell::Text("no CUPTI anchor: CUPTI and host clocks assumed equal")});
  }
  for (size_t i = 0; i < quality.reader_issues.size() && i < kMaxIssueLines; ++i) {
    table.epilogue.push_back(absl::StrCat("reader: ", quality.reader_issues[i]));
  }
  if (quality.reader_issues.size() > kMaxIssueLines) {
    table.epilogue.push_back(
        absl::StrFormat("reader: ... %d more", quality.reader_issues.size() - kMaxIssueLines));
  }
  for (const std::string& line : quality.clock_lines)
    table.epilogue.push_back(absl::StrCat("clock: ", line));
  table.ending = TableEnding::kBlank;
  return table;
}

QualityCounts QualityCountsOf(const DataQuality& quality, const LaunchCoverage& launches) {
  QualityCounts counts;
  const std::optional<SummaryTable> table = DataQualitySummary(quality, launches);
  if (!table) return counts;
  for (const Row& row : table->rows) {
    if (row.kind != Row::Kind::kData || row.cells.size() < 2) continue;
    if (absl::StartsWith(row.cells[0].text, kIncompleteStep)) continue;
    counts.emplace_back(row.cells[0].text, static_cast<uint64_t>(row.cells[1].value));
  }
  return counts;
}

}  // namespace prof::analyzer
