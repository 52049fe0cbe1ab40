// One-line messages on stderr, prefixed "libprof: ", filtered by PROF_LOG_LEVEL. Each line
// is one write(2), so lines from several processes or threads do not interleave.
// Not async-signal-safe (formats into a stack buffer with vsnprintf).
#ifndef PROF_AGENT_CONTROL_LOG_H_
#define PROF_AGENT_CONTROL_LOG_H_

namespace prof {

enum class LogLevel : int { kError = 0, kWarn = 1, kInfo = 2, kDebug = 3 };

void SetLogLevel(LogLevel level);
bool LogEnabled(LogLevel level);
void Log(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace prof

#endif  // PROF_AGENT_CONTROL_LOG_H_
