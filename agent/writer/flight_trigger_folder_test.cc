// The shared trigger folder: a new file acts once, the agent's own announcement and files
// older than the agent never act, and the folder is looked at once a period.
#include "agent/writer/flight_trigger_folder.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

namespace prof {
namespace {

constexpr uint64_t kPeriod = FlightTriggerFolder::kPeriodNs;

std::string ScratchFolder() {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string folder = std::string(base ? base : "/tmp") + "/flight_trigger_XXXXXX";
  REQUIRE(mkdtemp(folder.data()) != nullptr);
  return folder;
}

uint64_t RealtimeNs() {
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + now.tv_nsec;
}

TEST_CASE("trigger folder: a new file acts once; our own and older files never") {
  const std::string folder = ScratchFolder();
  // A file left by an earlier job: a minute older than this agent.
  std::ofstream(folder + "/old") << "";
  const timespec old_times[2] = {{time(nullptr) - 60, 0}, {time(nullptr) - 60, 0}};
  REQUIRE(utimensat(AT_FDCWD, (folder + "/old").c_str(), old_times, 0) == 0);
  FlightTriggerFolder watcher(folder, "host_pid_rank_0", RealtimeNs() - 1000000000ull);
  std::string name;
  uint64_t mtime = 0;
  uint64_t now = kPeriod;
  CHECK_FALSE(watcher.Poll(now, &name, &mtime));

  std::ofstream(folder + "/dump-now") << "";
  CHECK_FALSE(watcher.Poll(now + kPeriod / 2, &name, &mtime));  // within the period: not looked
  now += kPeriod;
  REQUIRE(watcher.Poll(now, &name, &mtime));
  CHECK(name == "dump-now");
  CHECK(mtime + 60000000000ull > RealtimeNs());
  now += kPeriod;
  CHECK_FALSE(watcher.Poll(now, &name, &mtime));  // acted once

  REQUIRE(watcher.Announce("hang", "rank 0: hang"));
  std::ifstream announced(folder + "/host_pid_rank_0.hang");
  std::string line;
  std::getline(announced, line);
  CHECK(line == "rank 0: hang");
  now += kPeriod;
  CHECK_FALSE(watcher.Poll(now, &name, &mtime));  // our own file

  // Another agent's announcement acts.
  FlightTriggerFolder other(folder, "host_pid_rank_1", RealtimeNs() - 1000000000ull);
  REQUIRE(other.Announce("hang", "rank 1: hang"));
  now += kPeriod;
  REQUIRE(watcher.Poll(now, &name, &mtime));
  CHECK(name == "host_pid_rank_1.hang");
}

TEST_CASE("trigger folder: off, or a folder that does not exist yet, is quiet") {
  std::string name;
  uint64_t mtime = 0;
  FlightTriggerFolder off("", "me", 0);
  CHECK_FALSE(off.on());
  CHECK_FALSE(off.Poll(kPeriod, &name, &mtime));
  CHECK_FALSE(off.Announce("hang", "x"));
  FlightTriggerFolder missing(ScratchFolder() + "/not_yet", "me", 0);
  CHECK(missing.on());
  CHECK_FALSE(missing.Poll(kPeriod, &name, &mtime));
}

}  // namespace
}  // namespace prof
