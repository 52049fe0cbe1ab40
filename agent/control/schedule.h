// The step schedule: which state each step is in, exactly as paddle.profiler's
// make_scheduler computes it (closed / ready / record / repeat / skip_first), plus the
// START:END form and torch.profiler.schedule's words (wait / warmup / active, the same
// arithmetic under other names). Pure functions, no state; tested against paddle's
// documented examples and hand-worked torch.profiler step states.
//
// Every field is bounded (kMaxScheduleSteps) when parsed, so the period
// (closed + ready + record <= 3e9) and every window bound (< 4e18 for the last window of
// the largest schedule) fit in int64. Window bounds of steps near INT64_MAX saturate
// instead of wrapping, and a Schedule built by hand with a field out of bounds (a period
// of 0) is CLOSED at every step: nothing here can divide by zero or overflow.
//
//   prof::ParsedSchedule parsed = prof::ParseSchedule("skip_first=10,ready=1,record=5");
//   prof::StepState state = parsed.schedule->StateOf(12);
#ifndef PROF_AGENT_CONTROL_SCHEDULE_H_
#define PROF_AGENT_CONTROL_SCHEDULE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace prof {

// The largest value of any schedule field, and of START and END: a billion steps.
constexpr int64_t kMaxScheduleSteps = 1000000000;

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
  // PROF_SCHEDULE=off, and a refused PROF_SCHEDULE (Nothing(): recording everything
  // instead could fill a disk with steps the user meant to skip): no step is recorded;
  // windows come only from prof_start/prof_stop and on-demand triggers (control/trigger.h).
  bool off = false;
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
  // First recorded step and one past the last of cycle `cycle` (INT64_MAX at most).
  int64_t WindowFirstStep(int64_t cycle) const;
  int64_t WindowEndStep(int64_t cycle) const;
  std::string ToString() const;

  // Every field within the bounds ParseSchedule enforces (record >= 1).
  bool InBounds() const;

  // The schedule that records no step (what a refused PROF_SCHEDULE means).
  static Schedule Nothing();
};

struct ParsedSchedule {
  std::optional<Schedule> schedule;  // empty when the text is refused
  std::string error;                 // then: what is wrong, naming the bad part
};

// Parses "skip_first=N,closed=N,ready=N,record=N,repeat=N" (any subset; record in
// 1..kMaxScheduleSteps, the others in 0..kMaxScheduleSteps), torch.profiler's
// "wait=N,warmup=N,active=N,repeat=N,skip_first=N" (wait = closed, warmup = ready,
// active = record; one vocabulary per schedule, a field named once) or "START:END" (records
// steps START..END-1; 0 <= START < END <= kMaxScheduleSteps). Spaces around names and
// numbers are ignored. Blank text is "no schedule" (record everything); "off" (or "none")
// records no step (windows only from prof_start or a trigger).
ParsedSchedule ParseSchedule(std::string_view text);

}  // namespace prof

#endif  // PROF_AGENT_CONTROL_SCHEDULE_H_
