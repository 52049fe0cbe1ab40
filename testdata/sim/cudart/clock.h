// The simulator's only clock. Virtual device time is the host's CLOCK_MONOTONIC, so host
// and device timelines need no conversion inside the runtime.
#ifndef PROF_TESTDATA_SIM_CUDART_CLOCK_H_
#define PROF_TESTDATA_SIM_CUDART_CLOCK_H_

#include <cstdint>

namespace sim {

uint64_t MonotonicNowNs();

// Blocks the calling thread until CLOCK_MONOTONIC reaches deadline_ns (absolute sleep, so
// early wake-ups by signals are retried and the wait never ends early).
void SleepUntilNs(uint64_t deadline_ns);

}  // namespace sim

#endif  // PROF_TESTDATA_SIM_CUDART_CLOCK_H_
