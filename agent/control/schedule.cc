#include "agent/control/schedule.h"

#include <cstdio>
#include <limits>

#include "agent/control/config_values.h"

namespace prof {
namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? kInt64Max : sum;
}

int64_t SaturatingMultiply(int64_t a, int64_t b) {
  int64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? kInt64Max : product;
}

bool InSteps(int64_t value, int64_t minimum) {
  return value >= minimum && value <= kMaxScheduleSteps;
}

}  // namespace

const char* StepStateName(StepState state) {
  switch (state) {
    case StepState::kClosed: return "CLOSED";
    case StepState::kReady: return "READY";
    case StepState::kRecord: return "RECORD";
    case StepState::kRecordAndReturn: return "RECORD_AND_RETURN";
  }
  return "?";
}

bool Schedule::InBounds() const {
  return InSteps(skip_first, 0) && InSteps(closed, 0) && InSteps(ready, 0) && InSteps(record, 1) &&
         InSteps(repeat, 0);
}

Schedule Schedule::Nothing() {
  Schedule schedule;
  schedule.record_everything = false;
  schedule.off = true;
  return schedule;
}

StepState Schedule::StateOf(int64_t step) const {
  if (record_everything) return StepState::kRecord;
  if (off || !InBounds() || step < skip_first) return StepState::kClosed;
  const int64_t t = step - skip_first;             // >= 0, no overflow
  const int64_t period = closed + ready + record;  // 1..3e9 (InBounds)
  if (repeat > 0 && t / period >= repeat) return StepState::kClosed;
  const int64_t m = t % period;
  if (m < closed) return StepState::kClosed;
  if (m < closed + ready) return StepState::kReady;
  if (m < period - 1) return StepState::kRecord;
  return StepState::kRecordAndReturn;
}

int64_t Schedule::CycleOf(int64_t step) const {
  if (record_everything || off || !InBounds() || step < skip_first) return 0;
  return (step - skip_first) / (closed + ready + record);
}

bool Schedule::HasRecordingAtOrAfter(int64_t step) const {
  if (record_everything) return true;
  if (off || !InBounds()) return false;
  if (repeat == 0) return true;
  return step < WindowEndStep(repeat - 1);
}

int64_t Schedule::WindowFirstStep(int64_t cycle) const {
  if (record_everything || off || !InBounds()) return 0;
  if (cycle < 0) cycle = 0;
  const int64_t cycles_before = SaturatingMultiply(cycle, closed + ready + record);
  return SaturatingAdd(SaturatingAdd(skip_first, cycles_before), closed + ready);
}

int64_t Schedule::WindowEndStep(int64_t cycle) const {
  if (record_everything || off || !InBounds()) return 0;
  return SaturatingAdd(WindowFirstStep(cycle), record);
}

std::string Schedule::ToString() const {
  if (record_everything) return "every step";
  if (off) return "off (windows from prof_start or a trigger only)";
  char text[160];
  std::snprintf(text, sizeof(text),
                "skip_first=%lld,closed=%lld,ready=%lld,record=%lld,repeat=%lld",
                static_cast<long long>(skip_first), static_cast<long long>(closed),
                static_cast<long long>(ready), static_cast<long long>(record),
                static_cast<long long>(repeat));
  return text;
}

namespace {

ParsedSchedule Refused(std::string error) { return {std::nullopt, std::move(error)}; }

ParsedSchedule ParseStartEnd(std::string_view text) {
  const size_t colon = text.find(':');
  int64_t start = 0;
  int64_t end = 0;
  if (text.find(':', colon + 1) != std::string_view::npos ||
      !ParseBoundedInteger(text.substr(0, colon), 0, kMaxScheduleSteps, &start) ||
      !ParseBoundedInteger(text.substr(colon + 1), 0, kMaxScheduleSteps, &end) || end <= start) {
    return Refused("is not START:END with 0 <= START < END <= 1000000000");
  }
  // paddle's tuple form: (start, end) == make_scheduler(closed=start-1, ready=1,
  // record=end-start, repeat=1), or ready=0 when start is 0.
  Schedule schedule;
  schedule.record_everything = false;
  schedule.closed = start >= 1 ? start - 1 : 0;
  schedule.ready = start >= 1 ? 1 : 0;
  schedule.record = end - start;
  schedule.repeat = 1;
  return {schedule, ""};
}

// A field's name in paddle's words and in torch.profiler.schedule's (wait, warmup, active
// are closed, ready, record by another name; skip_first and repeat are shared).
struct FieldName {
  const char* paddle;
  const char* torch;
  int64_t Schedule::*field;
};
constexpr FieldName kFieldNames[] = {
    {"skip_first", "skip_first", &Schedule::skip_first},
    {"closed", "wait", &Schedule::closed},
    {"ready", "warmup", &Schedule::ready},
    {"record", "active", &Schedule::record},
    {"repeat", "repeat", &Schedule::repeat},
};

// Which vocabulary the items seen so far used, and which fields they set: a schedule that
// mixes them ("closed=1,active=2") or names a field twice ("wait=1,closed=2") is refused
// rather than guessed at.
struct ParseState {
  bool paddle_words = false;
  bool torch_words = false;
  unsigned fields_set = 0;  // bit i: kFieldNames[i]
};

// One "NAME=N" item into `schedule`; an error, or "" when it is good.
std::string ParseField(std::string_view item, Schedule* schedule, ParseState* state) {
  const size_t equals = item.find('=');
  if (equals == std::string_view::npos) {
    return "'" + std::string(item) + "' is not NAME=N";
  }
  const std::string_view name = TrimAscii(item.substr(0, equals));
  for (size_t i = 0; i < sizeof(kFieldNames) / sizeof(kFieldNames[0]); ++i) {
    const FieldName& entry = kFieldNames[i];
    const bool paddle = name == entry.paddle;
    const bool torch = name == entry.torch;
    if (!paddle && !torch) continue;
    if (paddle != torch) {  // a word only one vocabulary has
      (paddle ? state->paddle_words : state->torch_words) = true;
      if (state->paddle_words && state->torch_words) {
        return "mixes torch.profiler's wait/warmup/active with paddle's closed/ready/record";
      }
    }
    if (state->fields_set & (1u << i)) return std::string(name) + " is given twice";
    state->fields_set |= 1u << i;
    const int64_t minimum = entry.field == &Schedule::record ? 1 : 0;
    if (!ParseBoundedInteger(item.substr(equals + 1), minimum, kMaxScheduleSteps,
                             &(schedule->*entry.field))) {
      return std::string(name) + " is not in " + (minimum ? "1" : "0") + "..1000000000";
    }
    return "";
  }
  return "unknown field '" + std::string(name) +
         "' (skip_first, closed/wait, ready/warmup, record/active, repeat)";
}

}  // namespace

ParsedSchedule ParseSchedule(std::string_view text) {
  text = TrimAscii(text);
  if (text.empty()) return {Schedule(), ""};
  if (text == "off" || text == "none") {
    Schedule schedule;
    schedule.record_everything = false;
    schedule.off = true;
    return {schedule, ""};
  }
  if (text.find(':') != std::string_view::npos) return ParseStartEnd(text);
  Schedule schedule;
  schedule.record_everything = false;
  ParseState state;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string_view item = TrimAscii(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (item.empty()) continue;  // "record=2," and ",," are fine
    std::string error = ParseField(item, &schedule, &state);
    if (!error.empty()) return Refused(std::move(error));
  }
  return {schedule, ""};
}

}  // namespace prof
