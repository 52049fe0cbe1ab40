// Pairs the host clocks (CLOCK_MONOTONIC, CLOCK_REALTIME) with CUPTI's clock: the
// analyzer maps device records onto the host timeline with these anchors. Each try
// brackets one cuptiGetTimestamp between two monotonic reads; the tightest bracket of a
// few tries wins and its half-width is the stated uncertainty.
//
// Thread safety: stateless; call from the writer thread (it calls CUPTI).
#ifndef PROF_AGENT_CUPTI_CLOCK_ANCHOR_H_
#define PROF_AGENT_CUPTI_CLOCK_ANCHOR_H_

#include <cupti.h>

#include "proto/header_encoder.h"

namespace prof {

using GetTimestampFunction = decltype(&::cuptiGetTimestamp);

// cupti_ns stays 0 when `get_timestamp` is null or fails every try.
ClockAnchorValue MeasureCuptiAnchor(GetTimestampFunction get_timestamp, const char* reason);

// CUPTI time minus host monotonic time at `anchor` (0 without a CUPTI reading).
int64_t CuptiMinusHostNs(const ClockAnchorValue& anchor);

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_CLOCK_ANCHOR_H_
