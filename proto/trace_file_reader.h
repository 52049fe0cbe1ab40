// Streams the chunks of one trace file, holding at most one frame in memory, and
// recovers from damage: a corrupt or truncated region is skipped, reported in the
// ReadReport, and reading goes on at the next intact frame. It never loops and never
// crashes on any input (tests cut and flip every byte of a file).
//
// Not thread-safe; open one reader per file and thread.
//
//   auto reader = prof::TraceFileReader::Open(path);
//   if (!reader.ok()) { print reader.status().message(); }   // not a trace, newer, ...
//   prof::trace::Chunk chunk;
//   while ((*reader)->Next(&chunk)) { ... }
//   for (auto& line : (*reader)->report().Describe()) ...
#ifndef PROF_PROTO_TRACE_FILE_READER_H_
#define PROF_PROTO_TRACE_FILE_READER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "proto/byte_source.h"
#include "proto/framing.h"
#include "proto/read_report.h"
#include "proto/trace.pb.h"

namespace prof {

class TraceFileReader {
 public:
  // Errors: the file cannot be opened, is not a trace, or has a newer format version.
  static absl::StatusOr<std::unique_ptr<TraceFileReader>> Open(const std::string& path);
  static absl::StatusOr<std::unique_ptr<TraceFileReader>> OpenSource(
      std::unique_ptr<ByteSource> source, std::string name_for_messages);

  // The file header; default values when report().header_read is false.
  const trace::FileHeader& header() const { return header_; }
  uint32_t format_version() const { return format_version_; }

  // Reads the next intact chunk into `chunk`; false at the end of the file.
  bool Next(trace::Chunk* chunk);

  // Complete once Next has returned false.
  const ReadReport& report() const { return report_; }

  // Largest number of bytes held at once, for memory-bound tests and figures.
  size_t peak_buffer_bytes() const { return buffer_.capacity(); }

 private:
  TraceFileReader(std::unique_ptr<ByteSource> source, std::string name)
      : source_(std::move(source)), name_(std::move(name)) {}

  absl::Status ReadPreambleAndHeader();
  // Finds the next valid frame; false at the end. Skipped bytes go into the report.
  bool NextFrame(FrameHeader* frame, const uint8_t** payload);
  // Makes at least `size` bytes available from the read position; false at the end.
  bool Fill(size_t size);
  void Consume(size_t size);
  void Skip(size_t size);
  void SkipToNextCandidate();
  void CloseSkippedRegion();
  bool DecodeChunk(const FrameHeader& frame, const uint8_t* payload, trace::Chunk* chunk);
  void Finish();

  std::unique_ptr<ByteSource> source_;
  std::string name_;
  trace::FileHeader header_;
  uint32_t format_version_ = kFormatVersion;
  ReadReport report_;

  std::vector<uint8_t> buffer_;
  size_t begin_ = 0;          // read position in buffer_
  size_t end_ = 0;            // end of valid bytes in buffer_
  uint64_t file_offset_ = 0;  // file offset of buffer_[begin_]
  bool source_done_ = false;

  uint64_t skip_start_ = 0;  // start of the corrupt region being skipped
  uint64_t skip_length_ = 0;
  bool finished_ = false;
  bool have_pending_chunk_ = false;  // a chunk frame found while looking for the header
  trace::Chunk pending_chunk_;
  uint64_t next_sequence_ = 0;
};

}  // namespace prof

#endif  // PROF_PROTO_TRACE_FILE_READER_H_
