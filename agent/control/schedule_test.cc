#include "agent/control/schedule.h"

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
  auto schedule = ParseSchedule(text);
  REQUIRE(schedule.ok());
  return *schedule;
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
  CHECK(ParseSchedule("record=0").status().message() == "record must be > 0");
  CHECK(std::string(ParseSchedule("recrod=3").status().message()).find("unknown field") !=
        std::string::npos);
  CHECK(std::string(ParseSchedule("5:3").status().message()).find("greater") != std::string::npos);
  CHECK_FALSE(ParseSchedule("closed=-1,record=2").ok());
  CHECK_FALSE(ParseSchedule("1:2:3").ok());
}

}  // namespace
}  // namespace prof
