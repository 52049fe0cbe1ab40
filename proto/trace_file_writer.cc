#include "proto/trace_file_writer.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <cstdio>

#include "proto/crc32c.h"
#include "proto/framing.h"

namespace prof {
namespace {

using Code = WriteStatus::Code;

WriteStatus ErrnoStatus(int error, const char* action, const std::string& path) {
  const std::string message = std::string(action) + " " + path + ": " + std::strerror(error);
  if (error == ENOSPC || error == EDQUOT) return WriteStatus(Code::kResourceExhausted, message);
  if (error == EACCES || error == EPERM || error == EROFS) {
    return WriteStatus(Code::kPermissionDenied, message);
  }
  if (error == ENOENT) return WriteStatus(Code::kNotFound, message);
  return WriteStatus(Code::kInternal, message);
}

}  // namespace

WriteResult<std::unique_ptr<TraceFileWriter>> TraceFileWriter::Create(
    const std::string& path, const FileHeaderValue& header) {
  FileHeaderValue versioned = header;
  versioned.format_version = kFormatVersion;
  return CreateWithSerializedHeader(path, EncodeFileHeader(versioned));
}

WriteResult<std::unique_ptr<TraceFileWriter>> TraceFileWriter::CreateWithSerializedHeader(
    const std::string& path, std::string_view header_payload) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoStatus(errno, "cannot create trace file", path);
  return CreateForDescriptor(fd, path, header_payload);
}

WriteResult<std::unique_ptr<TraceFileWriter>> TraceFileWriter::CreateForDescriptor(
    int fd, std::string path_for_messages, std::string_view header_payload) {
  std::unique_ptr<TraceFileWriter> writer(new TraceFileWriter(fd, std::move(path_for_messages)));
  uint8_t preamble[kPreambleSize];
  EncodePreamble(Preamble{kFormatVersion}, preamble);
  struct iovec part = {preamble, sizeof(preamble)};
  WriteStatus status = writer->WriteAll(&part, 1);
  if (!status.ok()) return status;
  status = writer->AppendFrame(static_cast<uint32_t>(FrameType::kFileHeader), header_payload);
  if (!status.ok()) return status;
  return writer;
}

TraceFileWriter::~TraceFileWriter() { Close().IgnoreError(); }

WriteStatus TraceFileWriter::AppendChunk(std::string_view payload) {
  WriteStatus status = AppendFrame(static_cast<uint32_t>(FrameType::kChunk), payload);
  if (status.ok()) ++chunks_written_;
  return status;
}

WriteStatus TraceFileWriter::AppendFrame(uint32_t frame_type, std::string_view payload) {
  if (fd_ < 0) return WriteStatus(Code::kFailedPrecondition, "trace file already closed: " + path_);
  if (payload.size() > kMaxFramePayloadSize) {
    char message[128];
    std::snprintf(message, sizeof(message), "frame of %zu bytes exceeds the %u-byte limit",
                  payload.size(), kMaxFramePayloadSize);
    return WriteStatus(Code::kInvalidArgument, message);
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
WriteStatus TraceFileWriter::WriteAll(const ::iovec* parts, int part_count) {
  struct iovec pending[2];  // frames have at most two parts: header and payload
  if (part_count > 2) return WriteStatus(Code::kInternal, "a frame has at most two parts");
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
  return WriteStatus();
}

WriteStatus TraceFileWriter::Close() {
  if (fd_ < 0) return WriteStatus();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && errno != EINTR) {
    return ErrnoStatus(errno, "cannot close trace file", path_);
  }
  return WriteStatus();
}

}  // namespace prof
