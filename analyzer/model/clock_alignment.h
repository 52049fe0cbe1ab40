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

  uint64_t ToHost(uint64_t cupti_ns) const;

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
  std::vector<Point> points_;  // sorted by cupti_ns, distinct cupti_ns
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MODEL_CLOCK_ALIGNMENT_H_
