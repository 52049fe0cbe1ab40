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

constexpr CUpti_ActivityKind kRuntime = CUPTI_ACTIVITY_KIND_RUNTIME;

void Pause(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

bool Registers() {
  bool in_time = false;
  return ForeignRegisters(&Requested, &Completed, &in_time) == ForeignCall::kPass && in_time;
}

// An enable with nobody to wait for: passes (a trace already runs, or begins now).
bool Enables(CUpti_ActivityKind kind) {
  ForeignTraceBegin begin;
  const bool passed = ForeignEnables(kind, &begin) == ForeignCall::kPass && begin.in_time;
  if (passed) NoteForeignKind(kind, true);
  return passed;
}

void Disables(CUpti_ActivityKind kind) {
  if (ForeignDisables(kind)) NoteForeignKind(kind, false);
}

TEST_CASE("a trace runs from its registration to its flush with no kind enabled") {
  CHECK_FALSE(ForeignTraceRuns());
  REQUIRE(Registers());  // libprof records nothing: the trace begins, nobody to wait for
  CHECK(ForeignTraceRuns());
  REQUIRE(Enables(kKernel));
  AfterForeignFlush();  // Kineto's flush at the start of a trace: it goes on
  CHECK(ForeignTraceRuns());
  Disables(kKernel);
  CHECK(ForeignTraceRuns());  // disabled, not yet flushed
  AfterForeignFlush();
  CHECK_FALSE(ForeignTraceRuns());
}

TEST_CASE("while libprof records, a host-only collection waits; the first device kind takes over") {
  NoteAgentHoldsCupti(true);
  // torch's CPU-only collection (libprof's helper): callbacks and RUNTIME wait, nothing
  // reaches CUPTI, no release is asked for, and its stop forgets them.
  bool in_time = false;
  CHECK(ForeignRegisters(&Requested, &Completed, &in_time) == ForeignCall::kDefer);
  ForeignTraceBegin begin;
  CHECK(ForeignEnables(kRuntime, &begin) == ForeignCall::kDefer);
  CHECK_FALSE(begin.began);
  CHECK_FALSE(ReleaseRequested());
  CHECK_FALSE(ForeignTraceRuns());
  CHECK_FALSE(ForeignDisables(kRuntime));  // it waited: nothing to disable in CUPTI
  AfterForeignFlush();
  CHECK_FALSE(ForeignTraceRuns());

  // torch.profiler with CUDA: RUNTIME waits, CONCURRENT_KERNEL begins the trace once the
  // writer let go, with the program's callbacks and RUNTIME handed back to the caller.
  CHECK(ForeignRegisters(&Requested, &Completed, &in_time) == ForeignCall::kDefer);
  CHECK(ForeignEnables(kRuntime, &begin) == ForeignCall::kDefer);
  std::atomic<bool> released{false};
  std::atomic<bool> after_release{false};
  std::atomic<bool> passed{false};
  // Catch's assertions stay on this thread: the program's thread only notes what it saw.
  std::thread program([&] {
    passed = ForeignEnables(kKernel, &begin) == ForeignCall::kPass;
    after_release = released.load();  // not before the writer let go
  });
  while (!ReleaseRequested()) Pause(1);
  Pause(20);
  released = true;
  NoteAgentHoldsCupti(false);  // the writer: flushed, drained, disabled
  program.join();
  CHECK(passed.load());
  CHECK(after_release.load());
  CHECK(begin.began);
  CHECK(begin.in_time);
  CHECK(begin.requested == &Requested);
  CHECK(begin.completed == &Completed);
  CHECK(begin.waiting_kinds == (uint64_t{1} << kRuntime));
  NoteForeignKind(kRuntime, true);
  NoteForeignKind(kKernel, true);
  CHECK(ForeignTraceRuns());
  CHECK(Enables(kMemcpy));  // within the trace: passes at once
  Disables(kRuntime);
  Disables(kKernel);
  Disables(kMemcpy);
  AfterForeignFlush();
  CHECK_FALSE(ForeignTraceRuns());
}

TEST_CASE("the program's last flush waits for the writer to take the activity API back") {
  REQUIRE(Registers());
  REQUIRE(Enables(kKernel));
  NoteAgentWaits(true);  // a window opened meanwhile: paused
  Disables(kKernel);
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
  CHECK_FALSE(ForeignDisables(kMemcpy));
  // The program enables a device kind again without registering (not Kineto's way): the
  // writer lets go, and the program's callbacks are handed back to register again.
  ForeignTraceBegin begin;
  std::atomic<bool> passed{false};
  std::thread again([&] { passed = ForeignEnables(kMemcpy, &begin) == ForeignCall::kPass; });
  while (!ReleaseRequested()) Pause(1);
  NoteAgentHoldsCupti(false);
  again.join();
  CHECK(passed.load());
  CHECK(begin.requested == &Requested);
  CHECK(begin.completed == &Completed);
  NoteForeignKind(kMemcpy, true);
  Disables(kMemcpy);
  AfterForeignFlush();  // no window waits: returns at once
  CHECK_FALSE(ForeignTraceRuns());
}

TEST_CASE("a trace that never flushes ends 1 s after its last disable") {
  REQUIRE(Registers());
  REQUIRE(Enables(kKernel));
  Disables(kKernel);
  CHECK(ForeignTraceRuns());
  Pause(1100);
  CHECK_FALSE(ForeignTraceRuns());
  REQUIRE(Registers());  // and the next trace is as any other
  REQUIRE(Enables(kMemcpy));
  Disables(kMemcpy);
  AfterForeignFlush();
  CHECK_FALSE(ForeignTraceRuns());
}

TEST_CASE("in a forked child the program's profiler never waits for libprof's writer") {
  InstallCuptiForkHandler();
  NoteAgentHoldsCupti(true);  // the parent's writer holds the activity API
  const pid_t child = fork();
  if (child == 0) {
    // Without the reset the child would think libprof records: its device kind would wait
    // 2 s for a release no writer gives.
    const uint64_t start = MonotonicNs();
    ForeignTraceBegin begin;
    const bool passed = ForeignEnables(kKernel, &begin) == ForeignCall::kPass;
    _exit(passed && begin.in_time && MonotonicNs() - start < 500000000 ? 0 : 1);
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
