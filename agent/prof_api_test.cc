// prof_config_get and prof_schedule_state (include/prof/prof.h, version 3): the agent's
// answers that the Python helper asks for instead of computing them again. The expected
// states are worked by hand from paddle.profiler's make_scheduler definition (closed steps
// off, ready steps warming up, record steps recorded, the last RECORD_AND_RETURN).
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "agent/control/config.h"
#include "agent/control/session.h"
#include "agent/include/prof/prof.h"

namespace {

std::vector<int> States(const char* schedule, int steps) {
  std::vector<int> states;
  for (int step = 0; step < steps; ++step) states.push_back(prof_schedule_state(schedule, step));
  return states;
}

}  // namespace

TEST_CASE("prof_schedule_state: paddle's and torch's schedules, by hand") {
  // closed=1, ready=1, record=2, repeat=1: C R(eady) REC R&R, then closed for good.
  CHECK(States("closed=1,ready=1,record=2,repeat=1", 6) == std::vector<int>{0, 1, 2, 3, 0, 0});
  // (2, 4) is paddle's make_scheduler(closed=1, ready=1, record=2, repeat=1).
  CHECK(States("2:4", 6) == std::vector<int>{0, 1, 2, 3, 0, 0});
  // skip_first=2 then record=1 forever: every recorded step is also the window's last.
  CHECK(States("skip_first=2,record=1", 5) == std::vector<int>{0, 0, 3, 3, 3});
  // torch's words: wait = closed, warmup = ready, active = record; repeat 0 is forever.
  CHECK(States("wait=1,warmup=1,active=2", 8) == std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3});
  CHECK(States("", 3) == std::vector<int>{2, 2, 2});  // no schedule: everything records
  CHECK(States("off", 3) == std::vector<int>{0, 0, 0});
  CHECK(prof_schedule_state("record=0", 0) == -1);  // refused text
  CHECK(prof_schedule_state("record=2", -1) == -1);
}

TEST_CASE(
    "prof_config_get and the applied schedule: -1 before the agent is configured, then "
    "the applied values") {
  char value[64];
  CHECK(prof_config_get("PROF_SHAPES", value, sizeof(value)) == -1);
  CHECK(prof_schedule_state(nullptr, 0) == -1);

  std::map<std::string, std::string> variables = {
      {"PROF_SHAPES", " Yes "}, {"PROF_PYTHON_OPS", "PYTHON"}, {"PROF_SCHEDULE", "1:3"}};
  std::vector<std::string> warnings;
  static const prof::Config config = prof::ParseConfig(
      [&variables](const char* name) -> const char* {
        auto found = variables.find(name);
        return found == variables.end() ? nullptr : found->second.c_str();
      },
      &warnings);
  prof::Session::Plan(&config, 0);

  CHECK(prof_config_get("PROF_SHAPES", value, sizeof(value)) == 1);
  CHECK(std::string(value) == "1");
  CHECK(prof_config_get("PROF_PYTHON_OPS", value, sizeof(value)) == 1);
  CHECK(std::string(value) == "python");
  CHECK(prof_config_get("PROF_ATEN_STACKS", value, sizeof(value)) == 1);
  CHECK(std::string(value) == "0");  // unset: the default
  CHECK(prof_config_get("PROF_NO_SUCH_FLAG", value, sizeof(value)) == 0);
  CHECK(prof_config_get("PROF_SHAPES", value, 1) == -2);  // "1" and its NUL need 2
  CHECK(prof_config_get("PROF_SHAPES", nullptr, 0) == -2);
  // "1:3": closed=0, ready=1, record=2, repeat=1.
  CHECK(States(nullptr, 5) == std::vector<int>{1, 2, 3, 0, 0});
  CHECK(prof::Session::Existing() == nullptr);  // asking started no session
}
