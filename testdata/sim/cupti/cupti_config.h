// Settings of the simulated CUPTI, read once from SIM_CUPTI_* variables (see README.md).
#ifndef PROF_TESTDATA_SIM_CUPTI_CUPTI_CONFIG_H_
#define PROF_TESTDATA_SIM_CUPTI_CUPTI_CONFIG_H_

#include <cstdint>

namespace simcupti {

struct CuptiConfig {
  uint64_t drop_every = 0;                  // SIM_CUPTI_DROP_EVERY: drop every N-th record
  bool late_buffers = false;                // SIM_CUPTI_LATE_BUFFERS: deliver only at flush
  bool partial_buffers = false;             // SIM_CUPTI_PARTIAL_BUFFERS: few records per buffer
  bool hold_after_flush = false;            // SIM_CUPTI_HOLD_AFTER_FLUSH: a new buffer at once
  bool other_subscriber = false;            // SIM_CUPTI_OTHER_SUBSCRIBER: cuptiSubscribe fails
  int64_t clock_offset_ns = 5000000000000;  // SIM_CUPTI_CLOCK_OFFSET_NS: CUPTI - monotonic
  uint64_t flush_period_ms = 20;            // SIM_CUPTI_FLUSH_PERIOD_MS: background delivery
  // SIM_CUPTI_ENABLE_MS: what turning kernel records on costs the caller (real CUPTI
  // instruments the loaded kernels then: 12-15 ms on an H200 with PyTorch loaded).
  uint64_t enable_ms = 15;
};

const CuptiConfig& Config();

// Records per buffer when SIM_CUPTI_PARTIAL_BUFFERS=1.
constexpr uint32_t kPartialBufferRecords = 3;

}  // namespace simcupti

#endif  // PROF_TESTDATA_SIM_CUPTI_CUPTI_CONFIG_H_
