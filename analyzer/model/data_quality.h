// Everything that keeps an analysis from being exact, counted by the stage that noticed
// it and shown in the Data quality section whenever any count is non-zero.
//
// Plain data; merged with Add() when several files or windows form one process.
#ifndef PROF_ANALYZER_MODEL_DATA_QUALITY_H_
#define PROF_ANALYZER_MODEL_DATA_QUALITY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace prof::analyzer {

struct DataQuality {
  // Records the agent could not write, by LossKind name.
  std::map<std::string, uint64_t> losses;
  // The part of `losses` the agent attributed to a step: step number -> LossKind name ->
  // count. Those steps' events are incomplete (their boundaries are exact: steps are never
  // lost).
  std::map<int64_t, std::map<std::string, uint64_t>> losses_by_step;
  // Reader: per-file lines ("file: offset N: corrupt chunk ..."), and counts.
  std::vector<std::string> reader_issues;
  uint64_t chunks_missing = 0;
  uint64_t bytes_skipped = 0;
  uint64_t files_without_last_chunk = 0;
  uint64_t malformed_blocks = 0;
  uint64_t malformed_columns = 0;
  uint64_t unknown_dictionary_references = 0;
  uint64_t dropped_definitions = 0;  // string definitions with impossible ids
  // Values the schema does not define, by field ("synchronization kind"): shown as
  // UNKNOWN(n) (NCCL: OP_n), never fatal.
  std::map<std::string, uint64_t> unknown_enum_values;
  // Correlation: device records whose launching call is not in the trace, by kind name.
  std::map<std::string, uint64_t> unmatched_device_records;
  uint64_t duplicate_correlation_ids = 0;
  // Tree: ranges partially overlapping an enclosing range on their thread (re-parented),
  // and API calls that start inside a range but end after it.
  uint64_t reparented_ranges = 0;
  uint64_t straddling_api_calls = 0;
  uint64_t frees_without_allocation = 0;
  // A window too large to hold is analyzed in step-aligned slices (trace_file_loader.h):
  // records read after the slice holding their time had been analyzed, analyzed with the
  // next slice instead (an enclosing range, or a device record whose call was in the
  // closed slice and so counts as unmatched too).
  uint64_t late_slice_records = 0;
  // Clock alignment, one line per file, and whether any file had no CUPTI anchor.
  std::vector<std::string> clock_lines;
  bool cupti_clock_assumed_equal = false;

  void Add(const DataQuality& other);
  // True when nothing above needs to be shown (clock lines alone are not a problem).
  bool Perfect() const;
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MODEL_DATA_QUALITY_H_
