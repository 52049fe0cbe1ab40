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
  FileSource(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~FileSource() override { ::close(fd_); }

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
  if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(absl::StrFormat("%s is a folder, not a trace file", path));
  }
  return std::unique_ptr<ByteSource>(new FileSource(fd, path));
}

std::unique_ptr<ByteSource> MakeMemorySource(absl::string_view bytes) {
  return std::make_unique<MemorySource>(bytes);
}

}  // namespace prof
