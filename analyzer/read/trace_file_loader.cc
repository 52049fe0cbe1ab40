#include "analyzer/read/trace_file_loader.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "analyzer/model/model_builder.h"
#include "proto/chunk_decoder.h"
#include "proto/file_dictionary.h"
#include "proto/trace_file_reader.h"

namespace prof::analyzer {
namespace {

void RecordReadReport(const std::string& path, const ReadReport& report, DataQuality* quality) {
  for (const std::string& line : report.Describe()) {
    quality->reader_issues.push_back(absl::StrCat(path, ": ", line));
  }
  if (report.issue_count > report.issues.size()) {
    quality->reader_issues.push_back(absl::StrCat(
        path, ": ", report.issue_count - report.issues.size(), " more issue(s) not listed"));
  }
  quality->chunks_missing += report.chunks_missing;
  quality->bytes_skipped += report.bytes_skipped;
  if (!report.saw_last_chunk) ++quality->files_without_last_chunk;
}

}  // namespace

absl::StatusOr<TraceModel> LoadTraceFile(const std::string& path,
                                         std::atomic<uint64_t>* events_read) {
  absl::StatusOr<std::unique_ptr<TraceFileReader>> reader = TraceFileReader::Open(path);
  if (!reader.ok()) return absl::Status(reader.status().code(), reader.status().message());
  FileDictionary dictionary;
  ModelBuilder builder(&dictionary, (*reader)->header());
  trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) {
    dictionary.AddDefinitions(chunk);
    const ChunkDecodeStats stats = DecodeChunk(chunk, &builder);
    builder.quality().malformed_blocks += stats.malformed_blocks;
    builder.quality().malformed_columns += stats.malformed_columns;
    if (!stats.first_problem.empty()) {
      builder.quality().reader_issues.push_back(absl::StrCat(path, ": ", stats.first_problem));
    }
    if (events_read) events_read->fetch_add(stats.events, std::memory_order_relaxed);
  }
  const ReadReport& report = (*reader)->report();
  RecordReadReport(path, report, &builder.quality());
  if (!report.header_read && report.chunks_read == 0) {
    return absl::DataLossError(absl::StrCat(path, ": no readable header or chunk"));
  }
  return builder.Finish(path);
}

}  // namespace prof::analyzer
