// Where a TraceFileReader gets its bytes: a file descriptor or a buffer in memory.
#ifndef PROF_PROTO_BYTE_SOURCE_H_
#define PROF_PROTO_BYTE_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace prof {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Copies up to `max_bytes` into `out`; 0 means the end. Errors are I/O errors.
  virtual absl::StatusOr<size_t> Read(uint8_t* out, size_t max_bytes) = 0;
  // The source's size in bytes when known up front (a regular file, a buffer), else
  // nullopt (a pipe). The reader uses it to reject, without reading, a frame header that
  // claims more bytes than the file holds.
  virtual std::optional<uint64_t> TotalSize() const { return std::nullopt; }
};

// Opens `path` for reading; the source owns and closes the descriptor.
absl::StatusOr<std::unique_ptr<ByteSource>> OpenFileSource(const std::string& path);

// Reads from `bytes`, which must outlive the source.
std::unique_ptr<ByteSource> MakeMemorySource(absl::string_view bytes);

}  // namespace prof

#endif  // PROF_PROTO_BYTE_SOURCE_H_
