#include "agent/control/schedule.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace prof {

const char* StepStateName(StepState state) {
  switch (state) {
    case StepState::kClosed: return "CLOSED";
    case StepState::kReady: return "READY";
    case StepState::kRecord: return "RECORD";
    case StepState::kRecordAndReturn: return "RECORD_AND_RETURN";
  }
  return "?";
}

StepState Schedule::StateOf(int64_t step) const {
  if (record_everything) return StepState::kRecord;
  if (step < skip_first) return StepState::kClosed;
  const int64_t t = step - skip_first;
  const int64_t period = closed + ready + record;
  if (repeat > 0 && t / period >= repeat) return StepState::kClosed;
  const int64_t m = t % period;
  if (m < closed) return StepState::kClosed;
  if (m < closed + ready) return StepState::kReady;
  if (m < period - 1) return StepState::kRecord;
  return StepState::kRecordAndReturn;
}

int64_t Schedule::CycleOf(int64_t step) const {
  if (record_everything || step < skip_first) return 0;
  return (step - skip_first) / (closed + ready + record);
}

bool Schedule::HasRecordingAtOrAfter(int64_t step) const {
  if (record_everything || repeat == 0) return true;
  return step < WindowEndStep(repeat - 1);
}

int64_t Schedule::WindowFirstStep(int64_t cycle) const {
  if (record_everything) return 0;
  return skip_first + cycle * (closed + ready + record) + closed + ready;
}

int64_t Schedule::WindowEndStep(int64_t cycle) const {
  if (record_everything) return 0;
  return WindowFirstStep(cycle) + record;
}

std::string Schedule::ToString() const {
  if (record_everything) return "every step";
  return absl::StrFormat("skip_first=%d,closed=%d,ready=%d,record=%d,repeat=%d", skip_first,
                         closed, ready, record, repeat);
}

namespace {

absl::StatusOr<Schedule> ParseStartEnd(absl::string_view text) {
  std::vector<absl::string_view> parts = absl::StrSplit(text, ':');
  int64_t start = 0;
  int64_t end = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &start) ||
      !absl::SimpleAtoi(parts[1], &end)) {
    return absl::InvalidArgumentError("expected START:END with two integers");
  }
  if (start < 0) start = 0;
  if (end <= start) return absl::InvalidArgumentError("END must be greater than START");
  // paddle's tuple form: (start, end) == make_scheduler(closed=start-1, ready=1,
  // record=end-start, repeat=1), or ready=0 when start is 0.
  Schedule schedule;
  schedule.record_everything = false;
  schedule.closed = start >= 1 ? start - 1 : 0;
  schedule.ready = start >= 1 ? 1 : 0;
  schedule.record = end - start;
  schedule.repeat = 1;
  return schedule;
}

}  // namespace

absl::StatusOr<Schedule> ParseSchedule(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  if (text.empty()) return Schedule();
  if (text.find(':') != absl::string_view::npos) return ParseStartEnd(text);
  Schedule schedule;
  schedule.record_everything = false;
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipWhitespace())) {
    std::vector<absl::string_view> pair = absl::StrSplit(item, '=');
    int64_t value = 0;
    if (pair.size() != 2 || !absl::SimpleAtoi(pair[1], &value) || value < 0) {
      return absl::InvalidArgumentError(
          absl::StrFormat("'%s' is not NAME=N with N >= 0", item));
    }
    const absl::string_view name = absl::StripAsciiWhitespace(pair[0]);
    if (name == "skip_first") schedule.skip_first = value;
    else if (name == "closed") schedule.closed = value;
    else if (name == "ready") schedule.ready = value;
    else if (name == "record") schedule.record = value;
    else if (name == "repeat") schedule.repeat = value;
    else return absl::InvalidArgumentError(absl::StrFormat("unknown field '%s'", name));
  }
  if (schedule.record <= 0) return absl::InvalidArgumentError("record must be > 0");
  return schedule;
}

}  // namespace prof
