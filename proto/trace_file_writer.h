// Appends frames to a trace file: the preamble and header when created, then one chunk
// per AppendChunk call. Each call hands the whole frame to the kernel before returning,
// so a program killed afterwards (SIGKILL, _exit) leaves every appended chunk readable.
//
// Not thread-safe: one writer per file, used by one thread (the agent's writer thread).
// Never throws; every failure is a Status that names the file and the cause.
//
//   auto writer = prof::TraceFileWriter::Create("/tmp/x.pb", header);
//   if (!writer.ok()) ...;
//   (*writer)->AppendChunk(chunk);
//   (*writer)->Close();
#ifndef PROF_PROTO_TRACE_FILE_WRITER_H_
#define PROF_PROTO_TRACE_FILE_WRITER_H_

#include <cstdint>
#include <memory>
#include <string>

#include <sys/uio.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "proto/trace.pb.h"

namespace prof {

class TraceFileWriter {
 public:
  // Creates (or truncates) `path` and writes the preamble and `header`. The header's
  // format_version is set to kFormatVersion.
  static absl::StatusOr<std::unique_ptr<TraceFileWriter>> Create(
      const std::string& path, const trace::FileHeader& header);

  // Writes to an already open descriptor, which the writer then owns and closes.
  static absl::StatusOr<std::unique_ptr<TraceFileWriter>> CreateForDescriptor(
      int fd, std::string path_for_messages, const trace::FileHeader& header);

  ~TraceFileWriter();
  TraceFileWriter(const TraceFileWriter&) = delete;
  TraceFileWriter& operator=(const TraceFileWriter&) = delete;

  absl::Status AppendChunk(const trace::Chunk& chunk);

  // Appends an already serialized Chunk (for callers that serialize on their own).
  absl::Status AppendSerializedChunk(absl::string_view payload);

  // Closes the file; later appends fail. Called by the destructor if needed.
  absl::Status Close();

  uint64_t bytes_written() const { return bytes_written_; }
  uint64_t chunks_written() const { return chunks_written_; }

 private:
  TraceFileWriter(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}

  absl::Status AppendFrame(uint32_t frame_type, absl::string_view payload);
  absl::Status WriteAll(const ::iovec* parts, int part_count);

  int fd_;
  std::string path_;
  std::string serialized_;  // reused between chunks to avoid reallocation
  uint64_t bytes_written_ = 0;
  uint64_t chunks_written_ = 0;
};

}  // namespace prof

#endif  // PROF_PROTO_TRACE_FILE_WRITER_H_
