// CUPTI's time base: CLOCK_MONOTONIC plus a fixed offset (SIM_CUPTI_CLOCK_OFFSET_NS), so a
// tracer has to align clocks with anchors as on real hardware. A registered timestamp
// callback replaces the offset by (callback() - monotonic) sampled at registration.
#ifndef PROF_TESTDATA_SIM_CUPTI_CUPTI_CLOCK_H_
#define PROF_TESTDATA_SIM_CUPTI_CUPTI_CLOCK_H_

#include <cstdint>

namespace simcupti {

uint64_t MonotonicNowNs();
uint64_t ToCuptiTime(uint64_t monotonic_ns);
uint64_t CuptiNowNs();
void UseTimestampCallback(uint64_t (*callback)());

}  // namespace simcupti

#endif  // PROF_TESTDATA_SIM_CUPTI_CUPTI_CLOCK_H_
