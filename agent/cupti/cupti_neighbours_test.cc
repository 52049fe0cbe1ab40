// The Activity API hand-over between libprof's writer and the program's profiler
// (cupti_neighbours.h, rules 2 and 3), with this test playing both: the program's calls on
// a thread of their own, the writer's answers here. Each case leaves the state neutral.
#include "agent/cupti/cupti_neighbours.h"

#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "agent/cupti/fork_guard.h"
#include "agent/record/clock.h"

namespace prof {
namespace {

void CUPTIAPI Requested(uint8_t**, size_t*, size_t*) {}
void CUPTIAPI Completed(CUcontext, uint32_t, uint8_t*, size_t, size_t) {}

constexpr CUpti_ActivityKind kKernel = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
constexpr CUpti_ActivityKind kMemcpy = CUPTI_ACTIVITY_KIND_MEMCPY;

void Pause(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// The program's trace from registration to its flush, nobody else around.
void WholeForeignTrace() {
  REQUIRE(ForeignRegistersCallbacks(&Requested, &Completed));
  NoteForeignKind(kKernel, true);
  NoteForeignKind(kMemcpy, true);
  NoteForeignKind(kKernel, false);
  NoteForeignKind(kMemcpy, false);
  AfterForeignFlush();
}

TEST_CASE("a trace runs from its registration to its flush with no kind enabled") {
  CHECK_FALSE(ForeignTraceRuns());
  REQUIRE(ForeignRegistersCallbacks(&Requested, &Completed));  // nobody to wait for
  CHECK(ForeignTraceRuns());
  NoteForeignKind(kKernel, true);
  AfterForeignFlush();  // Kineto's flush at the start of a trace: it goes on
  CHECK(ForeignTraceRuns());
  NoteForeignKind(kKernel, false);
  CHECK(ForeignTraceRuns());  // disabled, not yet flushed
  AfterForeignFlush();
  CHECK_FALSE(ForeignTraceRuns());
}

TEST_CASE("the program's registration waits for the writer to release the activity API") {
  NoteAgentHoldsCupti(true);
  std::atomic<bool> returned{false};
  std::atomic<bool> released{false};
  std::atomic<bool> answer{false};
  std::atomic<bool> after_release{false};
  // Catch's assertions stay on this thread: the program's thread only notes what it saw.
  std::thread program([&] {
    answer = ForeignRegistersCallbacks(&Requested, &Completed);
    after_release = released.load();  // not before the writer let go
    returned = true;
  });
  while (!ReleaseRequested()) Pause(1);
  Pause(20);
  CHECK_FALSE(returned.load());
  released = true;
  NoteAgentHoldsCupti(false);  // the writer: flushed, drained, disabled
  program.join();
  CHECK(answer.load());
  CHECK(after_release.load());
  CHECK_FALSE(ReleaseRequested());
  CHECK(ForeignTraceRuns());
  NoteForeignKind(kKernel, true);
  // The program's kinds are its own to disable; libprof's are not (when libprof holds).
  CHECK(ForeignMayDisable(kKernel));
  NoteForeignKind(kKernel, false);
  AfterForeignFlush();
  CHECK_FALSE(ForeignTraceRuns());
}

TEST_CASE("the program's last flush waits for the writer to take the activity API back") {
  REQUIRE(ForeignRegistersCallbacks(&Requested, &Completed));
  NoteForeignKind(kKernel, true);
  NoteAgentWaits(true);  // a window opened meanwhile: paused
  NoteForeignKind(kKernel, false);
  std::atomic<bool> taken{false};
  std::atomic<bool> after_take{false};
  std::thread program([&] {
    AfterForeignFlush();
    after_take = taken.load();
  });
  while (ForeignTraceRuns()) Pause(1);  // the writer's pass sees the trace ended
  Pause(20);
  taken = true;
  NoteAgentHoldsCupti(true);  // Resume: flushed for the program, libprof's callbacks in
  NoteAgentWaits(false);
  program.join();
  CHECK(after_take.load());
  // While libprof holds it, a disable of a kind the program never enabled is not passed on.
  CHECK_FALSE(ForeignMayDisable(kMemcpy));
  // The program enables again without registering (not Kineto's way): it begins a trace,
  // the writer lets go, and the program's callbacks are handed back to register again.
  CUpti_BuffersCallbackRequestFunc requested = nullptr;
  CUpti_BuffersCallbackCompleteFunc completed = nullptr;
  std::atomic<bool> enabled{false};
  std::thread again([&] { enabled = ForeignEnablesKind(&requested, &completed); });
  while (!ReleaseRequested()) Pause(1);
  NoteAgentHoldsCupti(false);
  again.join();
  CHECK(enabled.load());
  CHECK(requested == &Requested);
  CHECK(completed == &Completed);
  NoteForeignKind(kMemcpy, true);
  NoteForeignKind(kMemcpy, false);
  AfterForeignFlush();  // no window waits: returns at once
  CHECK_FALSE(ForeignTraceRuns());
}

TEST_CASE("a trace that never flushes ends 1 s after its last disable") {
  REQUIRE(ForeignRegistersCallbacks(&Requested, &Completed));
  NoteForeignKind(kKernel, true);
  NoteForeignKind(kKernel, false);
  CHECK(ForeignTraceRuns());
  Pause(1100);
  CHECK_FALSE(ForeignTraceRuns());
  WholeForeignTrace();  // and the next trace is as any other
  CHECK_FALSE(ForeignTraceRuns());
}

TEST_CASE("in a forked child the program's profiler never waits for libprof's writer") {
  InstallCuptiForkHandler();
  NoteAgentHoldsCupti(true);  // the parent's writer holds the activity API
  const pid_t child = fork();
  if (child == 0) {
    const uint64_t start = MonotonicNs();
    const bool released = ForeignRegistersCallbacks(&Requested, &Completed);
    _exit(released && MonotonicNs() - start < 500000000 ? 0 : 1);
  }
  REQUIRE(child > 0);
  int status = -1;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  NoteAgentHoldsCupti(false);
}

}  // namespace
}  // namespace prof
