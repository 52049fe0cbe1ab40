// The session is planned by the library constructor and built at first use (session.h):
// planning builds nothing, the first Current() builds it once whichever threads ask, and
// a child forked before that builds its own from the plan, under a name of its own.
#include "agent/control/session.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

namespace prof {
namespace {

// In a forked child: 0 when its session is built from the plan under the child's name.
int ChildBuildsItsOwn(const std::string& expected_name) {
  Session::DeferForChild();  // what lifecycle.cc's atfork child handler does
  if (Session::Existing() != nullptr) return 1;
  Session* session = Session::Current();
  if (session == nullptr) return 2;
  if (session->config().worker_name != expected_name) return 3;
  if (!session->config().files_need_cuda_activity) return 4;
  return 0;
}

TEST_CASE("a planned session is built at its first use, once, and a child builds its own") {
  REQUIRE(Session::Current() == nullptr);  // nothing planned: the agent is off

  Config* config = new Config();  // kept, as the library constructor keeps its plan
  config->worker_name = "planned";
  config->timer_only = true;  // no CUPTI adapter: this test needs no device
  Session::Plan(config, 12345);
  CHECK(Session::Existing() == nullptr);  // planning built nothing
  CHECK(Session::ConfigForChildren() == config);

  const pid_t child = fork();
  if (child == 0) _exit(ChildBuildsItsOwn("planned_child_" + std::to_string(getpid())));
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(Session::Existing() == nullptr);  // the child's session is not the parent's

  std::vector<std::atomic<Session*>> seen(8);
  std::vector<std::thread> threads;
  for (auto& slot : seen) threads.emplace_back([&slot] { slot = Session::Current(); });
  for (std::thread& thread : threads) thread.join();
  Session* built = Session::Existing();
  REQUIRE(built != nullptr);
  for (auto& slot : seen) CHECK(slot.load() == built);
  CHECK(built->config().worker_name == "planned");
  CHECK(!built->config().files_need_cuda_activity);
  CHECK(Session::ConfigForChildren() == &built->config());
}

}  // namespace
}  // namespace prof
