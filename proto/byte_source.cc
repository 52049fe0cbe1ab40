#include "proto/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace prof {
namespace {

class FileSource : public ByteSource {
 public:
  FileSource(int fd, std::string path, std::optional<uint64_t> size)
      : fd_(fd), path_(std::move(path)), size_(size) {}
  ~FileSource() override { ::close(fd_); }

  // The size at open; a file still being written may have grown since (its newer frames
  // were not complete when reading reached them, or are found at the next open).
  std::optional<uint64_t> TotalSize() const override { return size_; }

  absl::StatusOr<size_t> Read(uint8_t* out, size_t max_bytes) override {
    while (true) {
      const ssize_t got = ::read(fd_, out, max_bytes);
      if (got >= 0) return static_cast<size_t>(got);
      if (errno == EINTR) continue;
      return absl::InternalError(
          absl::StrFormat("cannot read %s: %s", path_, std::strerror(errno)));
    }
  }

 private:
  int fd_;
  std::string path_;
  std::optional<uint64_t> size_;
};

class MemorySource : public ByteSource {
 public:
  explicit MemorySource(absl::string_view bytes) : bytes_(bytes) {}

  absl::StatusOr<size_t> Read(uint8_t* out, size_t max_bytes) override {
    const size_t count = std::min(max_bytes, bytes_.size() - position_);
    std::memcpy(out, bytes_.data() + position_, count);
    position_ += count;
    return count;
  }

  std::optional<uint64_t> TotalSize() const override { return bytes_.size(); }

 private:
  absl::string_view bytes_;
  size_t position_ = 0;
};

}  // namespace

absl::StatusOr<std::unique_ptr<ByteSource>> OpenFileSource(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const std::string message = absl::StrFormat("cannot open %s: %s", path, std::strerror(errno));
    return errno == ENOENT ? absl::NotFoundError(message) : absl::InvalidArgumentError(message);
  }
  struct stat info;
  const bool have_info = ::fstat(fd, &info) == 0;
  if (have_info && S_ISDIR(info.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(absl::StrFormat("%s is a folder, not a trace file", path));
  }
  std::optional<uint64_t> size;
  if (have_info && S_ISREG(info.st_mode)) size = static_cast<uint64_t>(info.st_size);
  return std::unique_ptr<ByteSource>(new FileSource(fd, path, size));
}

std::unique_ptr<ByteSource> MakeMemorySource(absl::string_view bytes) {
  return std::make_unique<MemorySource>(bytes);
}

}  // namespace prof
