#include "agent/control/log.h"

#include <errno.h>
#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace prof {
namespace {

std::atomic<int> g_level{static_cast<int>(LogLevel::kWarn)};

constexpr char kPrefix[] = "libprof: ";
constexpr char kCut[] = "...";

// One line, whatever the text holds: line breaks inside it (a library's error text ends
// with its own) become single spaces, trailing ones go.
size_t FlattenLine(char* text, size_t length) {
  size_t kept = 0;
  bool added_space = false;  // the last kept character stands for a line break
  for (size_t i = 0; i < length; ++i) {
    if (text[i] != '\n' && text[i] != '\r') {
      text[kept++] = text[i];
      added_space = false;
    } else if (kept > 0 && !added_space) {
      text[kept++] = ' ';
      added_space = true;
    }
  }
  return added_space ? kept - 1 : kept;
}

// All of it, retrying short writes and EINTR: a line cut short would run into the next.
void WriteAll(const char* data, size_t length) {
  while (length > 0) {
    const ssize_t written = ::write(STDERR_FILENO, data, length);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    data += written;
    length -= static_cast<size_t>(written);
  }
}

}  // namespace

void SetLogLevel(LogLevel level) { g_level.store(static_cast<int>(level)); }

bool LogEnabled(LogLevel level) { return static_cast<int>(level) <= g_level.load(); }

void Log(LogLevel level, const char* format, ...) {
  if (!LogEnabled(level)) return;
  const int saved_errno = errno;  // the host's errno survives our logging
  char line[1024];
  constexpr size_t kPrefixLength = sizeof(kPrefix) - 1;
  std::memcpy(line, kPrefix, kPrefixLength);
  char* body = line + kPrefixLength;
  const size_t body_room = sizeof(line) - kPrefixLength - 1;  // 1 for the newline
  va_list arguments;
  va_start(arguments, format);
  const int wanted = std::vsnprintf(body, body_room, format, arguments);  // NUL-terminated
  va_end(arguments);
  if (wanted < 0) {
    errno = saved_errno;
    return;
  }
  size_t length =
      static_cast<size_t>(wanted) < body_room ? static_cast<size_t>(wanted) : body_room - 1;
  const bool cut = static_cast<size_t>(wanted) > length;
  length = FlattenLine(body, length);
  if (cut) {  // marked, so a reader knows the line goes on
    if (length > body_room - sizeof(kCut)) length = body_room - sizeof(kCut);
    std::memcpy(body + length, kCut, sizeof(kCut) - 1);
    length += sizeof(kCut) - 1;
  }
  body[length++] = '\n';
  WriteAll(line, kPrefixLength + length);
  errno = saved_errno;
}

}  // namespace prof
