// One-line messages on stderr, prefixed "libprof: ", filtered by PROF_LOG_LEVEL. Each
// message is exactly one line whatever its text: line breaks inside it become spaces, one
// too long for the 1024-byte line is cut and ends with "...", and the newline is always
// written (short writes and EINTR are retried), so a line never runs into the next. Each
// line is one write(2) in practice, so lines from several processes or threads do not
// interleave. errno is preserved. Not async-signal-safe (vsnprintf into a stack buffer).
#ifndef PROF_AGENT_CONTROL_LOG_H_
#define PROF_AGENT_CONTROL_LOG_H_

namespace prof {

enum class LogLevel : int { kError = 0, kWarn = 1, kInfo = 2, kDebug = 3 };

void SetLogLevel(LogLevel level);
bool LogEnabled(LogLevel level);
void Log(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace prof

#endif  // PROF_AGENT_CONTROL_LOG_H_
