#include "analyzer/model/data_quality.h"

namespace prof::analyzer {
namespace {

void AddCounts(const std::map<std::string, uint64_t>& from, std::map<std::string, uint64_t>* to) {
  for (const auto& [name, count] : from) (*to)[name] += count;
}

uint64_t Total(const std::map<std::string, uint64_t>& counts) {
  uint64_t total = 0;
  for (const auto& entry : counts) total += entry.second;
  return total;
}

}  // namespace

void DataQuality::Add(const DataQuality& other) {
  AddCounts(other.losses, &losses);
  for (const auto& [step, counts] : other.losses_by_step) AddCounts(counts, &losses_by_step[step]);
  reader_issues.insert(reader_issues.end(), other.reader_issues.begin(), other.reader_issues.end());
  chunks_missing += other.chunks_missing;
  bytes_skipped += other.bytes_skipped;
  files_without_last_chunk += other.files_without_last_chunk;
  malformed_blocks += other.malformed_blocks;
  malformed_columns += other.malformed_columns;
  unknown_dictionary_references += other.unknown_dictionary_references;
  dropped_definitions += other.dropped_definitions;
  AddCounts(other.unknown_enum_values, &unknown_enum_values);
  AddCounts(other.unmatched_device_records, &unmatched_device_records);
  duplicate_correlation_ids += other.duplicate_correlation_ids;
  reparented_ranges += other.reparented_ranges;
  straddling_api_calls += other.straddling_api_calls;
  frees_without_allocation += other.frees_without_allocation;
  late_slice_records += other.late_slice_records;
  clock_lines.insert(clock_lines.end(), other.clock_lines.begin(), other.clock_lines.end());
  cupti_clock_assumed_equal = cupti_clock_assumed_equal || other.cupti_clock_assumed_equal;
}

bool DataQuality::Perfect() const {
  return Total(losses) == 0 && reader_issues.empty() && chunks_missing == 0 && bytes_skipped == 0 &&
         files_without_last_chunk == 0 && malformed_blocks == 0 && malformed_columns == 0 &&
         unknown_dictionary_references == 0 && dropped_definitions == 0 &&
         Total(unknown_enum_values) == 0 && Total(unmatched_device_records) == 0 &&
         duplicate_correlation_ids == 0 && reparented_ranges == 0 && straddling_api_calls == 0 &&
         frees_without_allocation == 0 && late_slice_records == 0 && !cupti_clock_assumed_equal;
}

}  // namespace prof::analyzer
