#include "agent/control/schedule.h"

#include <cstdint>
#include <limits>
#include <string>

#include <catch2/catch.hpp>

namespace prof {
namespace {

// One letter per step: C closed, Y ready, R record, E record-and-return.
std::string States(const Schedule& schedule, int steps) {
  std::string letters;
  for (int step = 0; step < steps; ++step) {
    letters += "CYRE"[static_cast<int>(schedule.StateOf(step))];
  }
  return letters;
}

Schedule Parse(const char* text) {
  ParsedSchedule parsed = ParseSchedule(text);
  INFO(text << ": " << parsed.error);
  REQUIRE(parsed.schedule.has_value());
  return *parsed.schedule;
}

TEST_CASE("make_scheduler: paddle's documented example") {
  // closed=1, ready=1, record=3, repeat=2, skip_first=1: steps 0-1 C, 2 READY, 3-4 RECORD,
  // 5 R&R, 6 C, 7 READY, 8-9 RECORD, 10 R&R, >= 11 C.
  const Schedule schedule = Parse("closed=1,ready=1,record=3,repeat=2,skip_first=1");
  CHECK(States(schedule, 14) == "CCYRRECYRRECCC");
  CHECK(schedule.WindowFirstStep(0) == 3);
  CHECK(schedule.WindowEndStep(0) == 6);
  CHECK(schedule.WindowFirstStep(1) == 8);
  CHECK(schedule.CycleOf(9) == 1);
  CHECK(schedule.HasRecordingAtOrAfter(10));
  CHECK_FALSE(schedule.HasRecordingAtOrAfter(11));
}

TEST_CASE("make_scheduler: the third window of repeat=3 is [12, 14], not the docstring's") {
  const Schedule schedule = Parse("closed=1,ready=1,record=3,repeat=3");
  CHECK(States(schedule, 16) == "CYRRECYRRECYRREC");  // windows [2,4], [7,9], [12,14]
  CHECK(schedule.WindowFirstStep(2) == 12);
}

TEST_CASE("make_scheduler: record=1 makes every recorded step the last of its window") {
  CHECK(States(Parse("closed=1,record=1"), 6) == "CECECE");
}

TEST_CASE("START:END records steps START..END-1 like paddle's tuple form") {
  // (3, 14) records 3..13: 11 steps, the docs' "Calls 11".
  const Schedule schedule = Parse("3:14");
  const std::string states = States(schedule, 16);
  CHECK(states == "CCYRRRRRRRRRRECC");
  CHECK(schedule.WindowFirstStep(0) == 3);
  CHECK(schedule.WindowEndStep(0) == 14);
  CHECK(States(Parse("0:2"), 4) == "RECC");
  CHECK(States(Parse("1:4"), 5) == "YRREC");
}

TEST_CASE("no schedule records every step, forever") {
  const Schedule schedule = Parse("");
  CHECK(schedule.record_everything);
  CHECK(States(schedule, 3) == "RRR");
  CHECK(schedule.HasRecordingAtOrAfter(1000000));
}

TEST_CASE("bad schedules are refused with the reason") {
  CHECK(ParseSchedule("record=0").error == "record is not in 1..1000000000");
  CHECK(ParseSchedule("recrod=3").error.find("unknown field 'recrod'") != std::string::npos);
  CHECK(ParseSchedule("5:3").error.find("START < END") != std::string::npos);
  CHECK_FALSE(ParseSchedule("closed=-1,record=2").schedule);
  CHECK_FALSE(ParseSchedule("1:2:3").schedule);
}

bool Refuses(const std::string& text) { return !ParseSchedule(text).schedule.has_value(); }

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

TEST_CASE("every field is bounded, so no sum or product of them can overflow") {
  const std::string max = std::to_string(kInt64Max);
  CHECK(Refuses("closed=" + max + ",ready=" + max + ",record=2"));  // the period was 0
  CHECK(Refuses("record=" + max));
  CHECK(Refuses("skip_first=" + max + ",record=1"));
  CHECK(Refuses("repeat=" + max + ",record=1"));
  CHECK(Refuses("record=1000000001"));
  CHECK(Refuses("closed=1000000001,record=1"));
  CHECK(Refuses("record=99999999999999999999999999"));
  CHECK(Refuses("0:" + max));
  CHECK(Refuses("0:1000000001"));
  CHECK(Refuses("-1:3"));
  CHECK(Refuses("record=+"));
  CHECK(Refuses("record=1 0"));
  CHECK(Refuses("record"));
}

TEST_CASE("the largest schedule: window bounds by hand, no overflow") {
  const Schedule schedule = Parse(
      "skip_first=1000000000,closed=1000000000,ready=1000000000,record=1000000000,repeat="
      "1000000000");
  // period 3e9; the last window (cycle 999999999) starts at 1e9 + 999999999 * 3e9 + 2e9.
  CHECK(schedule.WindowFirstStep(999999999) == 3000000000000000000);
  CHECK(schedule.WindowEndStep(999999999) == 3000000001000000000);
  CHECK(schedule.HasRecordingAtOrAfter(3000000001000000000 - 1));
  CHECK_FALSE(schedule.HasRecordingAtOrAfter(3000000001000000000));
  CHECK(schedule.StateOf(3000000001000000000 - 1) == StepState::kRecordAndReturn);
  CHECK(schedule.StateOf(kInt64Max) == StepState::kClosed);
  CHECK(schedule.StateOf(1999999999) == StepState::kClosed);
  CHECK(schedule.StateOf(2000000000) == StepState::kReady);
  CHECK(schedule.StateOf(3000000000) == StepState::kRecord);
  CHECK(schedule.StateOf(3999999999) == StepState::kRecordAndReturn);
  CHECK(schedule.StateOf(4000000000) == StepState::kClosed);
}

TEST_CASE("a repeating schedule at the last int64 step: bounds saturate instead of wrapping") {
  const Schedule schedule =
      Parse("skip_first=1000000000,closed=1000000000,ready=1000000000,record=1000000000");
  const int64_t cycle = schedule.CycleOf(kInt64Max);
  CHECK(cycle == (kInt64Max - 1000000000) / 3000000000);
  CHECK(schedule.WindowFirstStep(cycle) >= 0);
  CHECK(schedule.WindowEndStep(cycle) == kInt64Max);
  CHECK(schedule.WindowEndStep(kInt64Max) == kInt64Max);
  CHECK(schedule.HasRecordingAtOrAfter(kInt64Max));
}

TEST_CASE("a Schedule built by hand with no period never divides by zero") {
  Schedule schedule;
  schedule.record_everything = false;
  schedule.record = 0;
  CHECK(schedule.StateOf(5) == StepState::kClosed);
  CHECK(schedule.CycleOf(5) == 0);
  schedule.closed = -3;
  schedule.record = 3;
  CHECK(schedule.StateOf(5) == StepState::kClosed);
}

// torch.profiler.schedule's step states, worked by hand from its schedule_fn: steps before
// skip_first are NONE; then t = step - skip_first, period = wait + warmup + active; NONE
// once t // period >= repeat (repeat > 0); in a period NONE while t % period < wait,
// WARMUP below wait + warmup, RECORD below period - 1 and RECORD_AND_SAVE at period - 1.
TEST_CASE("torch.profiler.schedule: wait/warmup/active/repeat/skip_first, by hand") {
  // torch's docs example: wait=1, warmup=1, active=2, repeat=1: 0 NONE, 1 WARMUP,
  // 2 RECORD, 3 RECORD_AND_SAVE, then NONE.
  CHECK(States(Parse("wait=1,warmup=1,active=2,repeat=1"), 6) == "CYRECC");
  // skip_first=1, wait=1, warmup=1, active=3, repeat=2: t = step-1; t 0 NONE, 1 WARMUP,
  // 2-3 RECORD, 4 SAVE, 5 NONE, 6 WARMUP, 7-8 RECORD, 9 SAVE, t >= 10 (step >= 11) NONE.
  const Schedule schedule = Parse("wait=1,warmup=1,active=3,repeat=2,skip_first=1");
  CHECK(States(schedule, 14) == "CCYRRECYRRECCC");
  CHECK(schedule.WindowFirstStep(1) == 8);
  CHECK(schedule.WindowEndStep(1) == 11);
  CHECK_FALSE(schedule.HasRecordingAtOrAfter(11));
  // warmup=0 (torch warns, still valid) and repeat=0 (forever): period 3, SAVE at t%3 == 2.
  CHECK(States(Parse("wait=2,warmup=0,active=1"), 9) == "CCECCECCE");
  // skip_first=3, wait=0, warmup=2, active=2: 0-2 NONE, 3-4 WARMUP, 5 RECORD, 6 SAVE, ...
  CHECK(States(Parse(" skip_first = 3 , wait=0, warmup=2, active=2 "), 11) == "CCCYYREYYRE");
}

TEST_CASE("torch.profiler's words and paddle's are the same fields under other names") {
  const Schedule torch = Parse("wait=4,warmup=2,active=3,repeat=5,skip_first=7");
  const Schedule paddle = Parse("closed=4,ready=2,record=3,repeat=5,skip_first=7");
  CHECK(torch.ToString() == paddle.ToString());
  CHECK(States(torch, 60) == States(paddle, 60));
}

TEST_CASE("torch.profiler's words: bad values, mixed vocabularies and repeats are refused") {
  CHECK(ParseSchedule("wait=1,warmup=1,active=0").error == "active is not in 1..1000000000");
  CHECK(ParseSchedule("wait=-1,active=2").error == "wait is not in 0..1000000000");
  CHECK(ParseSchedule("closed=1,active=2").error.find("mixes") != std::string::npos);
  CHECK(ParseSchedule("wait=1,record=2").error.find("mixes") != std::string::npos);
  CHECK(ParseSchedule("active=2,active=3").error == "active is given twice");
  CHECK(ParseSchedule("wiat=1,active=2").error.find("unknown field 'wiat'") != std::string::npos);
  CHECK(Refuses("wait=1,warmup=1,active=2,repeat=1,skip_first=x"));
}

TEST_CASE("the refused schedule records no step at all") {
  const Schedule nothing = Schedule::Nothing();
  CHECK_FALSE(nothing.record_everything);
  CHECK(States(nothing, 5) == "CCCCC");
  CHECK_FALSE(nothing.HasRecordingAtOrAfter(0));
  CHECK(nothing.WindowFirstStep(0) == 0);
  CHECK(nothing.WindowEndStep(0) == 0);
  CHECK(nothing.off);  // as PROF_SCHEDULE=off: prof_start and triggers still open windows
  CHECK(nothing.ToString() == "off (windows from prof_start or a trigger only)");
}

TEST_CASE("off: no step is recorded, for ever") {
  for (const char* text : {"off", " none "}) {
    const Schedule schedule = Parse(text);
    CHECK_FALSE(schedule.record_everything);
    CHECK(States(schedule, 12) == "CCCCCCCCCCCC");
    CHECK(schedule.StateOf(std::numeric_limits<int64_t>::max()) == StepState::kClosed);
    CHECK_FALSE(schedule.HasRecordingAtOrAfter(0));
  }
  CHECK_FALSE(ParseSchedule("offf").schedule.has_value());
}

}  // namespace
}  // namespace prof
