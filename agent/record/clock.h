// The agent's timestamps: CLOCK_MONOTONIC in nanoseconds, read through the vDSO (about
// 20 ns, no system call). Every host event uses this clock; the trace header's clock
// anchors relate it to CLOCK_REALTIME and to CUPTI's clock.
#ifndef PROF_AGENT_RECORD_CLOCK_H_
#define PROF_AGENT_RECORD_CLOCK_H_

#include <time.h>

#include <cstdint>

namespace prof {

inline uint64_t MonotonicNs() {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

inline uint64_t RealtimeNs() {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

}  // namespace prof

#endif  // PROF_AGENT_RECORD_CLOCK_H_
