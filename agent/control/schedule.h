// The step schedule: which state each step is in, exactly as paddle.profiler's
// make_scheduler computes it (closed / ready / record / repeat / skip_first), plus the
// START:END form. Pure functions, no state; tested against paddle's documented examples.
//
//   auto schedule = prof::ParseSchedule("skip_first=10,ready=1,record=5");
//   prof::StepState state = schedule->StateOf(12);
#ifndef PROF_AGENT_CONTROL_SCHEDULE_H_
#define PROF_AGENT_CONTROL_SCHEDULE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace prof {

enum class StepState : uint8_t {
  kClosed = 0,
  kReady = 1,
  kRecord = 2,
  kRecordAndReturn = 3,  // the last recorded step of a window
};

const char* StepStateName(StepState state);

struct Schedule {
  // No schedule: every step is recorded into one window that ends at exit.
  bool record_everything = true;
  int64_t skip_first = 0;
  int64_t closed = 0;
  int64_t ready = 0;
  int64_t record = 1;
  int64_t repeat = 0;  // 0: forever

  StepState StateOf(int64_t step) const;
  // The cycle (window index) a recorded step belongs to.
  int64_t CycleOf(int64_t step) const;
  // False when every step from `step` on is CLOSED (a finite schedule that has ended).
  bool HasRecordingAtOrAfter(int64_t step) const;
  // First recorded step and one past the last of cycle `cycle`.
  int64_t WindowFirstStep(int64_t cycle) const;
  int64_t WindowEndStep(int64_t cycle) const;
  std::string ToString() const;
};

// Parses "skip_first=N,closed=N,ready=N,record=N,repeat=N" (any subset, record > 0) or
// "START:END" (records steps START..END-1). Errors name the bad part.
absl::StatusOr<Schedule> ParseSchedule(absl::string_view text);

}  // namespace prof

#endif  // PROF_AGENT_CONTROL_SCHEDULE_H_
