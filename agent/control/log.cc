#include "agent/control/log.h"

#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>

namespace prof {
namespace {

std::atomic<int> g_level{static_cast<int>(LogLevel::kWarn)};

}  // namespace

void SetLogLevel(LogLevel level) { g_level.store(static_cast<int>(level)); }

bool LogEnabled(LogLevel level) { return static_cast<int>(level) <= g_level.load(); }

void Log(LogLevel level, const char* format, ...) {
  if (!LogEnabled(level)) return;
  char line[1024];
  int length = std::snprintf(line, sizeof(line), "libprof: ");
  va_list arguments;
  va_start(arguments, format);
  const int body = std::vsnprintf(line + length, sizeof(line) - length - 1, format, arguments);
  va_end(arguments);
  if (body < 0) return;
  length += body;
  if (length > static_cast<int>(sizeof(line)) - 2) length = sizeof(line) - 2;
  line[length++] = '\n';
  ssize_t ignored = ::write(STDERR_FILENO, line, length);
  (void)ignored;
}

}  // namespace prof
