// Maps CUPTI timestamps onto the host monotonic clock from ClockAnchor pairs: linear
// interpolation between the two anchors around a timestamp, the nearest anchor's offset
// outside them, and the identity (reported) when the file has no CUPTI anchor.
//
// Immutable after construction; safe to share between threads.
//
//   CuptiToHostClock clock(anchors);
//   uint64_t host_ns = clock.ToHost(cupti_ns);
#ifndef PROF_ANALYZER_MODEL_CLOCK_ALIGNMENT_H_
#define PROF_ANALYZER_MODEL_CLOCK_ALIGNMENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "proto/trace.pb.h"

namespace prof::analyzer {

class CuptiToHostClock {
 public:
  // Anchors without a CUPTI reading (cupti_ns == 0) are ignored.
  explicit CuptiToHostClock(const std::vector<trace::ClockAnchor>& anchors);

  // Inline for the usual case, a timestamp outside the anchors' span (with one anchor,
  // every timestamp): the builder converts every device record.
  uint64_t ToHost(uint64_t cupti_ns) const {
    if (cupti_ns <= first_cupti_ns_) return cupti_ns + first_offset_;
    if (cupti_ns >= last_cupti_ns_) return cupti_ns + last_offset_;
    return Interpolate(cupti_ns);
  }

  // False when there was no usable anchor and the clocks are assumed equal.
  bool aligned() const { return !points_.empty(); }
  size_t anchor_count() const { return points_.size(); }
  // One line for the Data quality section, e.g. "2 anchors, offset -3000000000000 ns".
  std::string Describe() const;

 private:
  struct Point {
    uint64_t cupti_ns;
    uint64_t host_ns;
    uint64_t uncertainty_ns;
  };
  // Between the first and the last anchor (exclusive).
  uint64_t Interpolate(uint64_t cupti_ns) const;

  std::vector<Point> points_;  // sorted by cupti_ns, distinct cupti_ns
  // The first and last anchors' CUPTI times and host - cupti offsets (two's complement, so
  // adding one wraps like the signed sum). No anchor: every time is "before the first" and
  // its offset is 0, the identity.
  uint64_t first_cupti_ns_ = UINT64_MAX;
  uint64_t last_cupti_ns_ = UINT64_MAX;
  uint64_t first_offset_ = 0;
  uint64_t last_offset_ = 0;
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MODEL_CLOCK_ALIGNMENT_H_
