#include "testdata/sim/cudart/clock.h"

#include <cerrno>
#include <ctime>

namespace sim {

uint64_t MonotonicNowNs() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

void SleepUntilNs(uint64_t deadline_ns) {
  timespec deadline;
  deadline.tv_sec = static_cast<time_t>(deadline_ns / 1000000000ull);
  deadline.tv_nsec = static_cast<long>(deadline_ns % 1000000000ull);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr) == EINTR) {
  }
}

}  // namespace sim
