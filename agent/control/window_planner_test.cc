// The window planner alone: no CUDA, no clock, no writer. Each table is a sequence of
// (event, now) rows with the actions expected from it, worked out by hand from the schedule's
// step states (schedule_test.cc spells them out) and the rules in window_planner.h. A last
// case drives long random event sequences and checks that the actions always make sense to
// the writer (opens and closes alternate, the recording flag follows the window).
#include "agent/control/window_planner.h"

#include <catch2/catch.hpp>

#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace prof {
namespace {

constexpr uint64_t kStartNs = 1000;
constexpr int kApi = 1;                                       // schema::WINDOW_ORIGIN_API
constexpr int kTrigger = 2;                                   // schema::WINDOW_ORIGIN_TRIGGER
constexpr int kReady = 1, kRecord = 2, kRecordAndReturn = 3;  // StepState values

// "#index first..end oORIGIN @open_ns"
std::string FileText(const PlannedWindow& file) {
  std::ostringstream out;
  out << "#" << file.index << " " << file.first_step << ".." << file.end_step << " o" << file.origin
      << " @" << file.open_ns;
  return out.str();
}

std::string ActionText(const WindowAction& action) {
  std::ostringstream out;
  switch (action.kind) {
    case ActionKind::kStepEnded:
      out << "ended s" << action.step << " " << action.start_ns << ".." << action.ns
          << (action.flag ? " in" : "");
      break;
    case ActionKind::kStepBegan: out << "began s" << action.step; break;
    case ActionKind::kOpenWindow:
      out << "open " << FileText(action.window) << (action.flag ? " deferred" : "");
      break;
    case ActionKind::kCloseWindow:
      out << "close @" << action.ns << (action.flag ? " deferred" : "");
      break;
    case ActionKind::kSplitWindow: out << "split -> " << FileText(action.window); break;
    case ActionKind::kHandOverWindow: out << "hand_over " << FileText(action.window); break;
    case ActionKind::kDeviceOn: out << "device_on" << (action.flag ? " wait" : ""); break;
    case ActionKind::kDeviceOnNow: out << "device_on_now"; break;
    case ActionKind::kDeviceOff: out << "device_off"; break;
  }
  return out.str();
}

std::string PlanText(const WindowPlan& plan) {
  std::string text;
  for (int i = 0; i < plan.count; ++i) {
    if (i > 0) text += "; ";
    text += ActionText(plan.actions[i]);
  }
  return text;
}

struct Row {
  WindowEvent event;
  uint64_t now_ns;
  std::string actions;  // PlanText
  int64_t open_index;   // the window open after it, -1: none
};

WindowEvent Ev(EventKind kind) { return WindowEvent::Of(kind); }

void RunTable(WindowPlanner& planner, const std::vector<Row>& rows) {
  for (size_t i = 0; i < rows.size(); ++i) {
    INFO("row " << i << " at step " << planner.step());
    const WindowPlan plan = planner.On(rows[i].event, rows[i].now_ns);
    CHECK(PlanText(plan) == rows[i].actions);
    CHECK(plan.open_index == rows[i].open_index);
  }
}

Schedule Parse(const char* text) {
  ParsedSchedule parsed = ParseSchedule(text);
  REQUIRE(parsed.schedule.has_value());
  return *parsed.schedule;
}

TEST_CASE("schedule: READY subscribes before its boundary, the window is its RECORD steps") {
  // Steps: 0 CLOSED, 1 READY, 2 RECORD, 3 RECORD_AND_RETURN, then CLOSED (repeat=1).
  WindowPlanner planner(Parse("closed=1,ready=1,record=2,repeat=1"), 0, kStartNs);
  RunTable(planner,
           {
               {Ev(EventKind::kBegin), kStartNs, "", -1},
               {Ev(EventKind::kStart), 1500, "", -1},
               {WindowEvent::BeforeBoundary(-1, false), 2000, "device_on wait", -1},
               {WindowEvent::Boundary(), 2000, "ended s0 1000..2000; began s1", -1},
               {WindowEvent::BeforeBoundary(-1, false), 3000, "", -1},  // subscribed already
               {WindowEvent::Boundary(), 3000,
                "ended s1 2000..3000; began s2; open #0 2..4 o0 @3000", 0},
               {WindowEvent::Boundary(), 4000, "ended s2 3000..4000 in; began s3", 0},
               {WindowEvent::BeforeBoundary(-1, false), 5000, "", 0},  // step 4 is CLOSED
               {WindowEvent::Boundary(), 5000,
                "ended s3 4000..5000 in; began s4; close @5000; device_off", -1},
               {Ev(EventKind::kEnding), 6000, "", -1},
               {WindowEvent::Boundary(), 6000, "ended s4 5000..6000; began s5", -1},
               {Ev(EventKind::kEnd), 6100, "", -1},
               {WindowEvent::Boundary(), 7000, "", -1},  // after the end: nothing
           });
  CHECK(planner.step() == 5);
  CHECK(planner.ended());
}

TEST_CASE("schedule: a writer still busy subscribing is not asked again before the boundary") {
  WindowPlanner planner(Parse("closed=1,ready=1,record=1"), 0, kStartNs);
  RunTable(planner,
           {
               {Ev(EventKind::kBegin), kStartNs, "", -1},
               {WindowEvent::BeforeBoundary(-1, false), 1500, "", -1},  // before kStart: nothing
               {Ev(EventKind::kStart), 1500, "", -1},
               {WindowEvent::BeforeBoundary(-1, true), 2000, "", -1},
               // READY still wants the device: asked at the boundary, without a wait.
               {WindowEvent::Boundary(), 2000, "ended s0 1000..2000; began s1; device_on", -1},
               {Ev(EventKind::kCudaLoaded), 2500, "device_on", -1},  // a deferred subscription
           });
}

TEST_CASE("AsksDeviceBefore: only a boundary into READY or RECORD with the device off") {
  WindowPlanner planner(Parse("closed=2,record=1"), 0, kStartNs);  // 0, 1 CLOSED, 2 RECORD
  planner.On(Ev(EventKind::kBegin), kStartNs);
  CHECK_FALSE(planner.AsksDeviceBefore(-1));  // not started
  planner.On(Ev(EventKind::kStart), kStartNs);
  CHECK_FALSE(planner.AsksDeviceBefore(-1));  // step 1 is CLOSED
  CHECK(planner.AsksDeviceBefore(kReady));    // unless the program says otherwise
  planner.On(WindowEvent::Boundary(), 2000);
  CHECK(planner.AsksDeviceBefore(-1));  // step 2 is RECORD
  CHECK(PlanText(planner.On(WindowEvent::BeforeBoundary(-1, false), 3000)) == "device_on wait");
  CHECK_FALSE(planner.AsksDeviceBefore(-1));  // asked already
}

TEST_CASE("NextStepRecords: the schedule's state of the step after this one, then the program's") {
  // 0 CLOSED, 1 READY, 2 RECORD, 3 RECORD_AND_RETURN, then CLOSED.
  WindowPlanner planner(Parse("closed=1,ready=1,record=2,repeat=1"), 0, kStartNs);
  planner.On(Ev(EventKind::kBegin), kStartNs);
  planner.On(Ev(EventKind::kStart), kStartNs);
  std::vector<bool> answers{planner.NextStepRecords()};  // at step 0: step 1 READY
  for (uint64_t now = 2000; now <= 5000; now += 1000) {
    planner.On(WindowEvent::Boundary(), now);
    answers.push_back(planner.NextStepRecords());  // steps 1..4: 2 and 3 record, 4 and 5 not
  }
  CHECK(answers == std::vector<bool>{false, true, true, false, false});
  planner.On(WindowEvent::SetState(kRecord), 6000);
  CHECK(planner.NextStepRecords());  // a plain boundary keeps the program's RECORD
  planner.On(WindowEvent::Boundary(kRecordAndReturn), 7000);
  CHECK_FALSE(planner.NextStepRecords());  // CLOSED follows RECORD_AND_RETURN
}

TEST_CASE("record everything: the window opens before the session starts, handed over at it") {
  WindowPlanner planner(Schedule(), 0, kStartNs);
  RunTable(planner,
           {
               {Ev(EventKind::kBegin), kStartNs, "open #0 0..0 o0 @1000 deferred", 0},
               {Ev(EventKind::kStart), 1200, "device_on_now; hand_over #0 0..0 o0 @1000", 0},
               {Ev(EventKind::kStart), 1300, "", 0},  // once
               {WindowEvent::Boundary(), 2000, "ended s0 1000..2000 in; began s1", 0},
               {Ev(EventKind::kEnding), 3000, "", 0},
               {WindowEvent::Boundary(), 3000, "ended s1 2000..3000 in; began s2", 0},
               {Ev(EventKind::kEnd), 3100, "close @3100", -1},
           });
}

TEST_CASE("steps_per_file: the window goes on in a new file every 2 steps, not at exit") {
  WindowPlanner planner(Schedule(), 2, kStartNs);
  RunTable(planner,
           {
               {Ev(EventKind::kBegin), kStartNs, "open #0 0..2 o0 @1000 deferred", 0},
               {Ev(EventKind::kStart), 1000, "device_on_now; hand_over #0 0..2 o0 @1000", 0},
               {WindowEvent::Boundary(), 2000, "ended s0 1000..2000 in; began s1", 0},
               {WindowEvent::Boundary(), 3000,
                "ended s1 2000..3000 in; began s2; split -> #1 2..4 o0 @3000", 0},
               {WindowEvent::Boundary(), 4000, "ended s2 3000..4000 in; began s3", 0},
               {WindowEvent::Boundary(), 5000,
                "ended s3 4000..5000 in; began s4; split -> #2 4..6 o0 @5000", 0},
               {WindowEvent::Boundary(), 6000, "ended s4 5000..6000 in; began s5", 0},
               {Ev(EventKind::kEnding), 7000, "", 0},
               {WindowEvent::Boundary(), 7000, "ended s5 6000..7000 in; began s6",
                0},  // 2 steps: no split
               {Ev(EventKind::kEnd), 7100, "close @7100", -1},
           });
}

TEST_CASE("steps_per_file cuts a schedule window at its own end") {
  // record=3 from step 0: window [0, 3); files of 2 steps: [0, 2) and [2, 3).
  WindowPlanner planner(Parse("record=3,repeat=1"), 2, kStartNs);
  RunTable(planner,
           {
               {Ev(EventKind::kBegin), kStartNs, "open #0 0..2 o0 @1000 deferred", 0},
               {Ev(EventKind::kStart), 1000, "device_on_now; hand_over #0 0..2 o0 @1000", 0},
               {WindowEvent::Boundary(), 2000, "ended s0 1000..2000 in; began s1", 0},
               {WindowEvent::Boundary(), 3000,
                "ended s1 2000..3000 in; began s2; split -> #1 2..3 o0 @3000", 0},
               {WindowEvent::Boundary(), 4000,
                "ended s2 3000..4000 in; began s3; close @4000; device_off", -1},
           });
}

TEST_CASE("program-driven: its first state ends the schedule's window; then its own windows") {
  // The schedule: 0 CLOSED, 1 RECORD, 2 RECORD_AND_RETURN, 3 CLOSED, ...
  WindowPlanner planner(Parse("closed=1,record=2"), 0, kStartNs);
  RunTable(planner,
           {
               {Ev(EventKind::kBegin), kStartNs, "", -1},
               {Ev(EventKind::kStart), 1000, "", -1},
               {WindowEvent::BeforeBoundary(-1, false), 2000, "device_on wait", -1},
               {WindowEvent::Boundary(), 2000,
                "ended s0 1000..2000; began s1; open #0 1..3 o0 @2000", 0},
               // prof_step_to(READY): the schedule's window ends here, READY keeps the device.
               {WindowEvent::BeforeBoundary(kReady, false), 3000, "", 0},
               {WindowEvent::Boundary(kReady), 3000,
                "ended s1 2000..3000 in; began s2; close @3000", -1},
               {WindowEvent::Boundary(), 4000, "ended s2 3000..4000; began s3", -1},  // still READY
               {WindowEvent::Boundary(kRecord), 5000,
                "ended s3 4000..5000; began s4; open #1 4..0 o3 @5000", 1},
               {WindowEvent::SetState(kRecordAndReturn), 5500, "", 1},  // the window stays open
               {WindowEvent::Boundary(), 6000,
                "ended s4 5000..6000 in; began s5; close @6000; device_off", -1},
               {WindowEvent::SetState(kRecord), 6500, "open #2 5..0 o3 @6500; device_on wait", 2},
           });
  CHECK(planner.mode() == StateSource::kProgram);
  CHECK(planner.window() == WindowKind::kProgram);
}

TEST_CASE("WindowGoesOnPastBoundary: false where the next boundary closes or splits the window") {
  // closed=1,record=3: 0 CLOSED, 1-2 RECORD, 3 RECORD_AND_RETURN, 4 CLOSED; files of 2 steps.
  WindowPlanner planner(Parse("closed=1,record=3,repeat=1"), 2, kStartNs);
  planner.On(Ev(EventKind::kBegin), kStartNs);
  planner.On(Ev(EventKind::kStart), kStartNs);
  CHECK_FALSE(planner.WindowGoesOnPastBoundary(-1, 2000));  // none open (step 0)
  planner.On(WindowEvent::Boundary(), 2000);                // opens for steps 1..3
  CHECK(planner.WindowGoesOnPastBoundary(-1, 3000));        // 1 -> 2: the same file
  const std::string before = PlanText(planner.On(WindowEvent::Boundary(), 3000));
  CHECK(before == "ended s1 2000..3000 in; began s2");      // the question changed nothing
  CHECK_FALSE(planner.WindowGoesOnPastBoundary(-1, 4000));  // 2 -> 3: split into a new file
  planner.On(WindowEvent::Boundary(), 4000);
  CHECK_FALSE(planner.WindowGoesOnPastBoundary(-1, 5000));  // 3 -> 4: closes
  // The program's states: RECORD goes on, READY or CLOSED ends it.
  CHECK_FALSE(planner.WindowGoesOnPastBoundary(kRecord, 5000));  // the program's first state
  WindowPlanner program(Schedule::Nothing(), 0, kStartNs);
  program.On(Ev(EventKind::kBegin), kStartNs);
  program.On(Ev(EventKind::kStart), kStartNs);
  program.On(WindowEvent::SetState(kRecord), 1500);
  CHECK(program.WindowGoesOnPastBoundary(kRecord, 2000));
  CHECK(program.WindowGoesOnPastBoundary(kRecordAndReturn, 2000));
  CHECK_FALSE(program.WindowGoesOnPastBoundary(kReady, 2000));
  CHECK_FALSE(program.WindowGoesOnPastBoundary(0, 2000));  // CLOSED
  program.On(WindowEvent::Boundary(kRecordAndReturn), 2000);
  CHECK_FALSE(program.WindowGoesOnPastBoundary(-1, 3000));  // RECORD_AND_RETURN's end
  // A demand window: one with an end time may close at any tick; one without goes on.
  WindowPlanner demand(Schedule::Nothing(), 0, kStartNs);
  demand.On(Ev(EventKind::kBegin), kStartNs);
  demand.On(Ev(EventKind::kStart), kStartNs);
  demand.On(WindowEvent::OpenDemand(-1, 0, false, kApi), 2000);
  CHECK(demand.WindowGoesOnPastBoundary(-1, 3000));
  demand.On(Ev(EventKind::kCloseDemand), 3500);
  demand.On(WindowEvent::OpenDemand(-1, 90000, false, kApi), 4000);
  CHECK_FALSE(demand.WindowGoesOnPastBoundary(-1, 5000));
  demand.On(Ev(EventKind::kCloseDemand), 5500);
  demand.On(WindowEvent::OpenDemand(-1, 0, false, kApi), 5600);
  CHECK(demand.WindowGoesOnPastBoundary(-1, 5700));
  demand.On(Ev(EventKind::kEnding), 6000);  // at exit: the last boundary ends it
  CHECK_FALSE(demand.WindowGoesOnPastBoundary(-1, 6000));
}

TEST_CASE("program-driven: set_state's first state closes the schedule's window now") {
  WindowPlanner planner(Schedule(), 0, kStartNs);  // records everything until then
  RunTable(planner,
           {
               {Ev(EventKind::kBegin), kStartNs, "open #0 0..0 o0 @1000 deferred", 0},
               {Ev(EventKind::kStart), 1000, "device_on_now; hand_over #0 0..0 o0 @1000", 0},
               {WindowEvent::SetState(kRecord), 1500, "close @1500; open #1 0..0 o3 @1500", 1},
           });
}

TEST_CASE("on demand: prof_start / prof_stop with the schedule off") {
  WindowPlanner planner(Schedule::Nothing(), 0, kStartNs);
  RunTable(planner,
           {
               {Ev(EventKind::kBegin), kStartNs, "", -1},
               {Ev(EventKind::kStart), 1000, "", -1},
               {WindowEvent::OpenDemand(-1, 0, false, kApi), 2000,
                "open #0 0..0 o1 @2000; device_on wait", 0},
               {WindowEvent::Boundary(), 3000, "ended s0 1000..3000 in; began s1", 0},
               {WindowEvent::OpenDemand(-1, 0, false, kApi), 3500, "", 0},  // the one open stays
               {Ev(EventKind::kCloseDemand), 4000, "close @4000; device_off", -1},
               {Ev(EventKind::kCloseDemand), 4100, "", -1},
           });
}

TEST_CASE("on demand: triggers for seconds and for steps") {
  WindowPlanner planner(Schedule::Nothing(), 0, kStartNs);
  planner.On(Ev(EventKind::kBegin), kStartNs);
  planner.On(Ev(EventKind::kStart), kStartNs);
  const WindowPlan opened = planner.On(WindowEvent::OpenDemand(-1, 10000, true, kTrigger), 5000);
  CHECK(PlanText(opened) == "open #0 0..0 o2 @5000; device_on");  // a trigger does not wait
  CHECK(opened.accepted);
  const WindowPlan refused = planner.On(WindowEvent::OpenDemand(-1, 20000, true, kTrigger), 6000);
  CHECK_FALSE(refused.accepted);
  CHECK(PlanText(refused) == "");
  CHECK_FALSE(planner.On(WindowEvent::OpenAtNextStep(2), 6000).accepted);  // one is open
  CHECK_FALSE(planner.EndDue(9999));
  CHECK(planner.DeadlinePending());  // the writer keeps its regular period for the kTick
  CHECK(PlanText(planner.On(Ev(EventKind::kTick), 9999)) == "");
  CHECK(planner.EndDue(10000));
  CHECK(PlanText(planner.On(Ev(EventKind::kTick), 10000)) == "close @10000; device_off");
  CHECK_FALSE(planner.EndDue(20000));
  CHECK_FALSE(planner.DeadlinePending());
  // steps=2: subscribed now, the window opens at the next boundary for steps 1 and 2.
  const WindowPlan arranged = planner.On(WindowEvent::OpenAtNextStep(2), 10500);
  CHECK(arranged.accepted);
  CHECK(PlanText(arranged) == "device_on");
  CHECK_FALSE(planner.DeadlinePending());  // steps arranged, none open: no end time
  RunTable(planner, {
                        {WindowEvent::Boundary(), 11000,
                         "ended s0 1000..11000; began s1; open #1 1..3 o2 @11000", 1},
                        {WindowEvent::Boundary(), 12000, "ended s1 11000..12000 in; began s2", 1},
                        {WindowEvent::Boundary(), 13000,
                         "ended s2 12000..13000 in; began s3; close @13000; device_off", -1},
                    });
  CHECK_FALSE(planner.On(WindowEvent::OpenAtNextStep(0), 14000).accepted);
}

TEST_CASE("on demand over a schedule window: that window is skipped, the next one opens") {
  // 0 CLOSED, 1 RECORD, 2 RECORD_AND_RETURN, 3 CLOSED, 4 RECORD: windows [1, 3), [4, 6).
  WindowPlanner planner(Parse("closed=1,record=2"), 0, kStartNs);
  planner.On(Ev(EventKind::kBegin), kStartNs);
  planner.On(Ev(EventKind::kStart), kStartNs);
  planner.On(WindowEvent::BeforeBoundary(-1, false), 2000);
  RunTable(planner, {
                        {WindowEvent::Boundary(), 2000,
                         "ended s0 1000..2000; began s1; open #0 1..3 o0 @2000", 0},
                        {WindowEvent::OpenDemand(-1, 0, false, kApi), 2500,
                         "close @2500; open #1 1..0 o1 @2500", 1},
                        {WindowEvent::Boundary(), 3000, "ended s1 2000..3000 in; began s2", 1},
                        {Ev(EventKind::kCloseDemand), 3500, "close @3500; device_off", -1},
                        {WindowEvent::Boundary(), 4000, "ended s2 3000..4000; began s3",
                         -1},  // not reopened
                        {WindowEvent::BeforeBoundary(-1, false), 5000, "device_on wait", -1},
                        {WindowEvent::Boundary(), 5000,
                         "ended s3 4000..5000; began s4; open #2 4..6 o0 @5000", 2},
                    });
}

TEST_CASE("prof_stop in a schedule window: the rest of it is skipped") {
  // record=3: windows [0, 3), [3, 6), ...
  WindowPlanner planner(Parse("record=3"), 0, kStartNs);
  planner.On(Ev(EventKind::kBegin), kStartNs);
  planner.On(Ev(EventKind::kStart), kStartNs);
  const WindowPlan stopped = planner.On(Ev(EventKind::kCloseDemand), 1500);
  CHECK(PlanText(stopped) == "close @1500; device_off");
  CHECK(stopped.closed_index == 0);
  RunTable(planner, {
                        {WindowEvent::Boundary(), 2000, "ended s0 1000..2000; began s1", -1},
                        {WindowEvent::Boundary(), 3000, "ended s1 2000..3000; began s2", -1},
                        {WindowEvent::Boundary(), 4000,
                         "ended s2 3000..4000; began s3; open #1 3..6 o0 @4000; device_on", 1},
                    });
}

TEST_CASE("program-driven: its first state closes a demand window too, and opens its own") {
  WindowPlanner planner(Schedule::Nothing(), 0, kStartNs);
  RunTable(planner,
           {
               {Ev(EventKind::kBegin), kStartNs, "", -1},
               {Ev(EventKind::kStart), 1000, "", -1},
               {WindowEvent::OpenDemand(-1, 0, false, kApi), 2000,
                "open #0 0..0 o1 @2000; device_on wait", 0},
               {WindowEvent::SetState(kRecord), 2500, "close @2500; open #1 0..0 o3 @2500", 1},
           });
  CHECK(planner.window() == WindowKind::kProgram);
}

TEST_CASE("after exit nothing reaches the writer: not a demand window's end time") {
  WindowPlanner planner(Schedule::Nothing(), 0, kStartNs);
  RunTable(planner, {
                        {Ev(EventKind::kBegin), kStartNs, "", -1},
                        {Ev(EventKind::kStart), 1000, "", -1},
                        {WindowEvent::OpenDemand(-1, 10000, true, kTrigger), 2000,
                         "open #0 0..0 o2 @2000; device_on", 0},
                        {Ev(EventKind::kEnding), 3000, "", 0},
                        {WindowEvent::Boundary(), 3000, "ended s0 1000..3000 in; began s1", 0},
                        {Ev(EventKind::kEnd), 3100, "close @3100", -1},
                        {Ev(EventKind::kTick), 20000, "", -1},
                        {Ev(EventKind::kCloseDemand), 20000, "", -1},
                        {Ev(EventKind::kCudaLoaded), 20000, "", -1},
                    });
  CHECK_FALSE(planner.EndDue(20000));
}

TEST_CASE("a window closed before the session started never reaches the writer") {
  WindowPlanner planner(Schedule(), 0, kStartNs);
  RunTable(planner, {
                        {Ev(EventKind::kBegin), kStartNs, "open #0 0..0 o0 @1000 deferred", 0},
                        {Ev(EventKind::kCloseDemand), 1100, "close @1100 deferred", -1},
                        {Ev(EventKind::kStart), 1200, "", -1},
                    });
}

// Long random event sequences on several schedules: the writer's view of the actions stays
// consistent, and every plan fits its array.
TEST_CASE("random event sequences: opens and closes alternate, recording follows the window") {
  const Schedule schedules[] = {Schedule(), Schedule::Nothing(), Parse("closed=1,ready=1,record=2"),
                                Parse("skip_first=3,record=1,repeat=4"), Parse("record=3")};
  std::mt19937 random(26);
  for (const Schedule& schedule : schedules) {
    for (int64_t per_file : {0, 2}) {
      WindowPlanner planner(schedule, per_file, kStartNs);
      planner.On(Ev(EventKind::kBegin), kStartNs);
      planner.On(Ev(EventKind::kStart), kStartNs);
      bool open = planner.window_open(), recording = open, device = planner.device_wanted();
      uint32_t next_index = open ? 1 : 0;
      uint64_t now = kStartNs;
      for (int i = 0; i < 5000; ++i) {
        now += 1 + random() % 1000;
        const int state = static_cast<int>(random() % 6) - 2;  // -2..3: none or a state
        const WindowEvent events[] = {
            WindowEvent::Boundary(state < 0 ? -1 : state),
            WindowEvent::Boundary(),
            WindowEvent::BeforeBoundary(-1, random() % 2 == 0),
            WindowEvent::SetState(state),
            WindowEvent::OpenDemand(random() % 3 == 0 ? planner.step() + 2 : -1,
                                    random() % 2 ? now + 3000 : 0, random() % 2 == 0, 1 + i % 2),
            Ev(EventKind::kCloseDemand),
            WindowEvent::OpenAtNextStep(random() % 3),
            Ev(EventKind::kTick),
            Ev(EventKind::kCudaLoaded)};
        const WindowEvent& event = events[random() % 9];
        const WindowPlan plan = planner.On(event, now);
        if (event.kind == EventKind::kCudaLoaded) {
          // It repeats the subscription asked for while CUDA was absent, and nothing else.
          CHECK(PlanText(plan) == (device ? "device_on" : ""));
          continue;
        }
        INFO("event " << i << ": " << PlanText(plan));
        REQUIRE(plan.count < WindowPlan::kMaxActions);  // a full array may have lost one
        for (int a = 0; a < plan.count; ++a) {
          const WindowAction& action = plan.actions[a];
          switch (action.kind) {
            case ActionKind::kOpenWindow:
              REQUIRE_FALSE(open);
              CHECK(action.window.index == next_index++);
              open = recording = true;
              break;
            case ActionKind::kCloseWindow:
              REQUIRE(open);
              open = recording = false;
              break;
            case ActionKind::kSplitWindow:
              REQUIRE(open);
              CHECK(action.window.index == next_index++);
              break;
            case ActionKind::kDeviceOn:
              CHECK_FALSE(device);
              device = true;
              break;
            case ActionKind::kDeviceOff:
              CHECK(device);
              device = false;
              break;
            default: break;
          }
        }
        CHECK(recording == planner.window_open());
        CHECK(device == planner.device_wanted());
        CHECK((plan.open_index >= 0) == planner.window_open());
      }
    }
  }
}

}  // namespace
}  // namespace prof
