// The agent's side of on-demand triggers: request parsing, and which request files it
// takes (only in a 0700 folder of this user; removed once read).
#include "agent/control/trigger.h"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <string>

namespace prof {
namespace {

std::string Folder(const char* name, mode_t mode) {
  const char* root = std::getenv("TEST_TMPDIR");
  const std::string folder = std::string(root ? root : "/tmp") + "/" + name;
  mkdir(folder.c_str(), 0700);
  chmod(folder.c_str(), mode);
  return folder;
}

void WriteRequest(const std::string& folder, const std::string& text) {
  std::ofstream(folder + "/" + std::to_string(getpid()) + ".trigger") << text;
}

bool Exists(const std::string& path) {
  struct stat info;
  return lstat(path.c_str(), &info) == 0;
}

TEST_CASE("trigger requests: steps=N and seconds=S, bounded") {
  TriggerRequest request;
  REQUIRE(ParseTriggerRequest("steps=3\n", &request));
  CHECK(request.steps == 3);
  CHECK(request.duration_ns == 0);
  REQUIRE(ParseTriggerRequest(" seconds = 0.25 ", &request));
  CHECK(request.steps == 0);
  CHECK(request.duration_ns == 250000000);
  CHECK_FALSE(request.flight);
  REQUIRE(ParseTriggerRequest("flight=1\n", &request));
  CHECK(request.flight);
  CHECK(request.steps == 0);
  CHECK(request.duration_ns == 0);
  for (const char* bad :
       {"", "steps", "steps=0", "steps=-1", "steps=1000000001", "seconds=0", "seconds=nan",
        "seconds=90000", "seconds=1x", "minutes=1", "flight=0", "flight=yes"}) {
    INFO(bad);
    CHECK_FALSE(ParseTriggerRequest(bad, &request));
  }
}

TEST_CASE("a request in a private folder is taken once") {
  const std::string folder = Folder("private", 0700);
  std::string refusal;
  TriggerRequest request;
  CHECK_FALSE(TakeTriggerRequest(folder, getpid(), &request, &refusal));  // none yet
  CHECK(refusal.empty());
  WriteRequest(folder, "steps=5\n");
  REQUIRE(TakeTriggerRequest(folder, getpid(), &request, &refusal));
  CHECK(request.steps == 5);
  CHECK_FALSE(Exists(folder + "/" + std::to_string(getpid()) + ".trigger"));
  CHECK_FALSE(TakeTriggerRequest(folder, getpid(), &request, &refusal));
}

TEST_CASE("a request in a folder others can enter is refused, and a malformed one too") {
  const std::string open = Folder("open", 0755);
  WriteRequest(open, "steps=5\n");
  std::string refusal;
  TriggerRequest request;
  CHECK_FALSE(TakeTriggerRequest(open, getpid(), &request, &refusal));
  CHECK(refusal.find("0700") != std::string::npos);
  const std::string folder = Folder("malformed", 0700);
  WriteRequest(folder, "steps=many\n");
  refusal.clear();
  CHECK_FALSE(TakeTriggerRequest(folder, getpid(), &request, &refusal));
  CHECK(refusal.find("steps=many") != std::string::npos);
}

TEST_CASE("the default folder is per user") {
  CHECK(ControlFolder("/somewhere") == "/somewhere");
  CHECK(ControlFolder("") == "/tmp/libprof-" + std::to_string(geteuid()));
}

}  // namespace
}  // namespace prof
