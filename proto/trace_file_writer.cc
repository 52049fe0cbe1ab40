#include "proto/trace_file_writer.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_format.h"
#include "proto/crc32c.h"
#include "proto/framing.h"

namespace prof {
namespace {

absl::Status ErrnoStatus(int error, absl::string_view action, absl::string_view path) {
  const std::string message = absl::StrFormat("%s %s: %s", action, path, std::strerror(error));
  if (error == ENOSPC || error == EDQUOT) return absl::ResourceExhaustedError(message);
  if (error == EACCES || error == EPERM || error == EROFS) {
    return absl::PermissionDeniedError(message);
  }
  if (error == ENOENT) return absl::NotFoundError(message);
  return absl::InternalError(message);
}

}  // namespace

absl::StatusOr<std::unique_ptr<TraceFileWriter>> TraceFileWriter::Create(
    const std::string& path, const trace::FileHeader& header) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoStatus(errno, "cannot create trace file", path);
  return CreateForDescriptor(fd, path, header);
}

absl::StatusOr<std::unique_ptr<TraceFileWriter>> TraceFileWriter::CreateForDescriptor(
    int fd, std::string path_for_messages, const trace::FileHeader& header) {
  std::unique_ptr<TraceFileWriter> writer(new TraceFileWriter(fd, std::move(path_for_messages)));
  uint8_t preamble[kPreambleSize];
  EncodePreamble(Preamble{kFormatVersion}, preamble);
  struct iovec part = {preamble, sizeof(preamble)};
  absl::Status status = writer->WriteAll(&part, 1);
  if (!status.ok()) return status;

  trace::FileHeader versioned = header;
  versioned.set_format_version(kFormatVersion);
  std::string payload;
  if (!versioned.SerializeToString(&payload)) {
    return absl::InternalError("cannot serialize the trace file header");
  }
  status = writer->AppendFrame(static_cast<uint32_t>(FrameType::kFileHeader), payload);
  if (!status.ok()) return status;
  return writer;
}

TraceFileWriter::~TraceFileWriter() { Close().IgnoreError(); }

absl::Status TraceFileWriter::AppendChunk(const trace::Chunk& chunk) {
  serialized_.clear();
  if (!chunk.SerializeToString(&serialized_)) {
    return absl::InternalError(absl::StrFormat("cannot serialize chunk %d", chunk.sequence()));
  }
  return AppendSerializedChunk(serialized_);
}

absl::Status TraceFileWriter::AppendSerializedChunk(absl::string_view payload) {
  absl::Status status = AppendFrame(static_cast<uint32_t>(FrameType::kChunk), payload);
  if (status.ok()) ++chunks_written_;
  return status;
}

absl::Status TraceFileWriter::AppendFrame(uint32_t frame_type, absl::string_view payload) {
  if (fd_ < 0) return absl::FailedPreconditionError("trace file already closed: " + path_);
  if (payload.size() > kMaxFramePayloadSize) {
    return absl::InvalidArgumentError(
        absl::StrFormat("frame of %d bytes exceeds the %d-byte limit", payload.size(),
                        kMaxFramePayloadSize));
  }
  FrameHeader header;
  header.type = static_cast<FrameType>(frame_type);
  header.payload_size = static_cast<uint32_t>(payload.size());
  header.payload_crc = Crc32c(payload.data(), payload.size());
  uint8_t encoded[kFrameHeaderSize];
  EncodeFrameHeader(header, encoded);
  struct iovec parts[2] = {{encoded, sizeof(encoded)},
                           {const_cast<char*>(payload.data()), payload.size()}};
  return WriteAll(parts, 2);
}

// One writev for the whole frame in the common case; loops on short writes and EINTR.
absl::Status TraceFileWriter::WriteAll(const ::iovec* parts, int part_count) {
  struct iovec pending[2];  // frames have at most two parts: header and payload
  if (part_count > 2) return absl::InternalError("a frame has at most two parts");
  int count = part_count;
  for (int i = 0; i < part_count; ++i) pending[i] = parts[i];
  struct iovec* next = pending;
  while (count > 0) {
    const ssize_t written = ::writev(fd_, next, count);
    if (written < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus(errno, "cannot write trace file", path_);
    }
    bytes_written_ += static_cast<uint64_t>(written);
    size_t left = static_cast<size_t>(written);
    while (count > 0 && left >= next->iov_len) {
      left -= next->iov_len;
      ++next;
      --count;
    }
    if (count > 0) {
      next->iov_base = static_cast<char*>(next->iov_base) + left;
      next->iov_len -= left;
    }
  }
  return absl::OkStatus();
}

absl::Status TraceFileWriter::Close() {
  if (fd_ < 0) return absl::OkStatus();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && errno != EINTR) {
    return ErrnoStatus(errno, "cannot close trace file", path_);
  }
  return absl::OkStatus();
}

}  // namespace prof
