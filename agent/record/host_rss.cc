#include "agent/record/host_rss.h"

#include <fcntl.h>
#include <unistd.h>

namespace prof {
namespace {

// Read once when the library loads: sysconf is not on the async-signal-safe list, and the
// reading may be taken on the way out of a terminating signal (emergency_flush.h).
const long g_page_size = sysconf(_SC_PAGESIZE);

// Reads one unsigned decimal at text[*at], skipping leading spaces; false when none.
bool ReadNumber(const char* text, size_t length, size_t* at, uint64_t* value) {
  while (*at < length && text[*at] == ' ') ++*at;
  const size_t first = *at;
  uint64_t number = 0;
  while (*at < length && text[*at] >= '0' && text[*at] <= '9') {
    if (number > (UINT64_MAX - 9) / 10) return false;  // more digits than any RSS has
    number = number * 10 + static_cast<uint64_t>(text[*at] - '0');
    ++*at;
  }
  *value = number;
  return *at > first;
}

}  // namespace

bool ParseStatmResidentPages(const char* text, size_t length, uint64_t* resident_pages) {
  size_t at = 0;
  uint64_t size_pages = 0;
  if (!ReadNumber(text, length, &at, &size_pages)) return false;
  return ReadNumber(text, length, &at, resident_pages);
}

uint64_t ReadHostRssBytes() {
  const int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[128];
  const ssize_t got = read(fd, text, sizeof(text));
  close(fd);
  uint64_t pages = 0;
  if (got <= 0 || !ParseStatmResidentPages(text, static_cast<size_t>(got), &pages)) return 0;
  return g_page_size > 0 ? pages * static_cast<uint64_t>(g_page_size) : 0;
}

}  // namespace prof
