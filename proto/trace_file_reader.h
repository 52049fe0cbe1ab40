// Streams the chunks of one trace file, holding at most one frame in memory, and
// recovers from damage: a corrupt or truncated region is skipped, reported in the
// ReadReport, and reading goes on at the next intact frame. It never loops and never
// crashes on any input (tests cut and flip every byte of a file; fuzz/ fuzzes it).
//
// Hostile input (issue 16): resynchronization is linear in the file size. A frame header
// that claims more payload than the file has left is rejected without reading (the size is
// known for files and buffers), the buffer is compacted only when a frame does not fit in
// what is left of it and is refilled whole, and nothing is moved once the source is at its
// end; so every byte is copied and checksummed a bounded number of times (work() counts
// them). Memory: the buffer is at most the largest frame plus half of it, never more than
// the file holds plus a read block; a parsed chunk is bounded by chunk_guard.h. Next()
// parses into the caller's chunk keeping its column arrays (reusable_chunk.h); what it keeps
// is freed first when over the 3 x ParsedBytesLimit bound of the frame being read, so while
// parsing the chunk term of chunk_guard.h's stated bound can at most double.
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
#include <optional>
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

  // The work reading has done so far, for the tests that check it is linear.
  struct Work {
    uint64_t bytes_moved = 0;            // memmove'd while compacting the buffer
    uint64_t headers_examined = 0;       // candidate frame headers decoded
    uint64_t payload_bytes_checked = 0;  // payload bytes checksummed or scanned
  };
  const Work& work() const { return work_; }

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
  // False (and reported) when parsing the payload would take more memory than chunk_guard.h
  // allows.
  bool WithinParseBound(const google::protobuf::Descriptor* type, const FrameHeader& frame,
                        const uint8_t* payload);
  // False when the file is known to end before this frame would.
  bool FitsInFile(const FrameHeader& frame) const;
  void Finish();

  std::unique_ptr<ByteSource> source_;
  std::string name_;
  trace::FileHeader header_;
  uint32_t format_version_ = kFormatVersion;
  ReadReport report_;
  Work work_;
  std::optional<uint64_t> total_size_;  // the source's size, when known

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
