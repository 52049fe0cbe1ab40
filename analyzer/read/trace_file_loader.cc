#include "analyzer/read/trace_file_loader.h"

#include <sys/stat.h>

#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "analyzer/model/model_builder.h"
#include "analyzer/read/window_slicer.h"
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

// Adds one chunk's definitions and events to `builder`; returns the events decoded.
uint64_t DecodeInto(const std::string& path, const trace::Chunk& chunk, FileDictionary* dictionary,
                    ModelBuilder* builder, std::atomic<uint64_t>* events_read) {
  dictionary->AddDefinitions(chunk);
  const ChunkDecodeStats stats = DecodeChunk(chunk, builder);
  builder->quality().malformed_blocks += stats.malformed_blocks;
  builder->quality().malformed_columns += stats.malformed_columns;
  if (!stats.first_problem.empty()) {
    builder->quality().reader_issues.push_back(absl::StrCat(path, ": ", stats.first_problem));
  }
  if (events_read) events_read->fetch_add(stats.events, std::memory_order_relaxed);
  return stats.events;
}

absl::Status NothingReadable(const std::string& path, const ReadReport& report) {
  if (report.header_read || report.chunks_read > 0) return absl::OkStatus();
  return absl::DataLossError(absl::StrCat(path, ": no readable header or chunk"));
}

// The clock anchors and CPU readings of every chunk, read ahead of the events: a segment
// converts its CUPTI times with all of the file's anchors, as a whole read does.
struct FileClock {
  std::vector<trace::ClockAnchor> anchors;
  std::vector<trace::CpuUsage> cpu_usage;
  bool device_records = false;  // a chunk holds a stream block (window_slicer.h's cut rule)
};
FileClock ScanClock(const std::string& path) {
  FileClock clock;
  absl::StatusOr<std::unique_ptr<TraceFileReader>> reader = TraceFileReader::Open(path);
  if (!reader.ok()) return clock;
  trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) {
    clock.anchors.insert(clock.anchors.end(), chunk.clock_anchors().begin(),
                         chunk.clock_anchors().end());
    clock.cpu_usage.insert(clock.cpu_usage.end(), chunk.cpu_usage().begin(),
                           chunk.cpu_usage().end());
    clock.device_records |= chunk.streams_size() > 0;
  }
  return clock;
}

// A builder for the next segment, knowing the whole file's clock. Repeated anchors and
// readings change nothing (the clock keeps one point per CUPTI time; the CPU window is the
// earliest and latest reading).
std::unique_ptr<ModelBuilder> SegmentBuilder(FileDictionary* dictionary,
                                             const trace::FileHeader& header,
                                             const FileClock& clock, TraceModel earlier = {}) {
  auto builder = std::make_unique<ModelBuilder>(dictionary, header, std::move(earlier));
  for (const trace::ClockAnchor& anchor : clock.anchors) builder->OnClockAnchor(anchor);
  for (const trace::CpuUsage& usage : clock.cpu_usage) builder->OnCpuUsage(usage);
  builder->FixClock();  // the chunks' anchors, decoded with their events, repeat these
  return builder;
}

uint64_t FileBytes(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 ? static_cast<uint64_t>(info.st_size) : 0;
}

}  // namespace

absl::StatusOr<TraceModel> LoadTraceFile(const std::string& path,
                                         std::atomic<uint64_t>* events_read) {
  absl::StatusOr<std::unique_ptr<TraceFileReader>> reader = TraceFileReader::Open(path);
  if (!reader.ok()) return absl::Status(reader.status().code(), reader.status().message());
  FileDictionary dictionary;
  ModelBuilder builder(&dictionary, (*reader)->header());
  trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) DecodeInto(path, chunk, &dictionary, &builder, events_read);
  const ReadReport& report = (*reader)->report();
  RecordReadReport(path, report, &builder.quality());
  if (absl::Status status = NothingReadable(path, report); !status.ok()) return status;
  return builder.Finish(path);
}

absl::Status ReadTraceFileInSlices(const std::string& path, const SliceOptions& options,
                                   std::atomic<uint64_t>* events_read,
                                   const std::function<void(TraceModel slice)>& on_slice) {
  if (options.whole_file_bytes > 0 && FileBytes(path) <= options.whole_file_bytes) {
    absl::StatusOr<TraceModel> model = LoadTraceFile(path, events_read);
    if (!model.ok()) return model.status();
    on_slice(*std::move(model));
    return absl::OkStatus();
  }
  absl::StatusOr<std::unique_ptr<TraceFileReader>> reader = TraceFileReader::Open(path);
  if (!reader.ok()) return absl::Status(reader.status().code(), reader.status().message());
  const trace::FileHeader& header = (*reader)->header();
  const FileClock clock = ScanClock(path);
  FileDictionary dictionary;  // definitions accumulate over the whole file
  std::unique_ptr<ModelBuilder> builder = SegmentBuilder(&dictionary, header, clock);
  // Past options.force_events held, a cut is forced (window_slicer.h).
  WindowSlicer slicer(path, header, options.force_events, clock.device_records, on_slice);
  uint64_t segment_events = 0;
  trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) {
    segment_events += DecodeInto(path, chunk, &dictionary, builder.get(), events_read);
    if (segment_events < options.segment_events) continue;
    slicer.AddSegment(builder->Finish(path, /*correlate=*/false));  // the slicer links
    // The next segment continues what the slicer still holds, in place.
    builder = SegmentBuilder(&dictionary, header, clock, slicer.TakeHeld());
    segment_events = 0;
  }
  const ReadReport& report = (*reader)->report();
  RecordReadReport(path, report, &builder->quality());
  if (absl::Status status = NothingReadable(path, report); !status.ok()) return status;
  slicer.Finish(builder->Finish(path, /*correlate=*/false));
  return absl::OkStatus();
}

}  // namespace prof::analyzer
