// Appends frames to a trace file: the preamble and header when created, then one chunk
// per AppendChunk call. Each call hands the whole frame to the kernel before returning,
// so a program killed afterwards (SIGKILL, _exit) leaves every appended chunk readable.
//
// Not thread-safe: one writer per file, used by one thread (the agent's writer thread).
// Never throws; every failure is a WriteStatus that names the file and the cause. No
// libprotobuf and no Abseil: the header comes as values (encoded by header_encoder.h) or
// already serialized, chunks as ChunkEncoder's bytes.
//
//   auto writer = prof::TraceFileWriter::Create("/tmp/x.pb", header);
//   if (!writer.ok()) ...;
//   (*writer)->AppendChunk(encoder.Finish(true));
//   (*writer)->Close();
#ifndef PROF_PROTO_TRACE_FILE_WRITER_H_
#define PROF_PROTO_TRACE_FILE_WRITER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <sys/uio.h>

#include "proto/header_encoder.h"
#include "proto/write_status.h"

namespace prof {

class TraceFileWriter {
 public:
  // Creates (or truncates) `path` and writes the preamble and `header`. The header's
  // format_version is set to kFormatVersion.
  static WriteResult<std::unique_ptr<TraceFileWriter>> Create(const std::string& path,
                                                              const FileHeaderValue& header);

  // The same with a header already serialized (a trace::FileHeader whose format_version
  // the caller set), for tools that build it with libprotobuf.
  static WriteResult<std::unique_ptr<TraceFileWriter>> CreateWithSerializedHeader(
      const std::string& path, std::string_view header_payload);

  // Writes to an already open descriptor, which the writer then owns and closes.
  static WriteResult<std::unique_ptr<TraceFileWriter>> CreateForDescriptor(
      int fd, std::string path_for_messages, std::string_view header_payload);

  ~TraceFileWriter();
  TraceFileWriter(const TraceFileWriter&) = delete;
  TraceFileWriter& operator=(const TraceFileWriter&) = delete;

  // Appends a serialized Chunk (ChunkEncoder::Finish's bytes) as one frame.
  WriteStatus AppendChunk(std::string_view payload);

  // Closes the file; later appends fail. Called by the destructor if needed.
  WriteStatus Close();

  uint64_t bytes_written() const { return bytes_written_; }
  uint64_t chunks_written() const { return chunks_written_; }

 private:
  TraceFileWriter(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}

  WriteStatus AppendFrame(uint32_t frame_type, std::string_view payload);
  WriteStatus WriteAll(const ::iovec* parts, int part_count);

  int fd_;
  std::string path_;
  uint64_t bytes_written_ = 0;
  uint64_t chunks_written_ = 0;
};

}  // namespace prof

#endif  // PROF_PROTO_TRACE_FILE_WRITER_H_
