// How far the writer may drain the threads' buffers so that every record it drains finds
// its window. Records go to windows by their start time, and a window command (open,
// close, split) carries the step boundary's timestamp, read on the program's thread before
// the command is queued; the writer sees the command some time later. A record made after
// an open, drained before the writer has taken that open, would land in the previous
// window's file. So the writer drains only records that start before a horizon H such that
// every window command stamped before H is already in its hands.
//
// The producer of window commands (the step controller) is in flight from before it reads
// the boundary's timestamp until its commands are queued (a Producing scope). The writer,
// before taking the commands, reads the clock, then checks that no producer is in flight:
//  - a producer that entered before that check and is still in flight: the check fails and
//    the writer keeps its previous horizon (still true: every command stamped before it
//    was taken in an earlier pass);
//  - one that entered before the check and has left: its commands were queued before it
//    left, and the check (seq_cst load) synchronizes with its leaving (seq_cst RMW), so
//    the writer's TakeAll that follows sees them;
//  - one that enters after the check reads the clock after the writer did: its timestamp
//    is >= H, and records starting before H are not its window's.
// The last step needs each clock read ordered with the atomic next to it, which the C++
// memory model does not speak of, so the CPU is told: Enter orders the producer's increment
// before its clock read (x86-64: the locked RMW, then MonotonicNsOrdered's LFENCE before
// RDTSC, or the vDSO's; AArch64: DSB), and OrderClockRead the writer's clock read before its
// check (LFENCE or ISB, then a seq_cst fence).
//
// Records starting at or after H wait in their buffers for a later pass
// (ThreadBuffer::DrainBefore), and a closed window is finalized only once H has passed its
// grace, so those records still reach it (TraceWriter::FinishWindows).
//
// Cost: two atomic RMWs per step boundary (wait-free); the writer's side once per pass.
// Thread safety: Enter/Leave from any thread, any number at once; Advance from the writer
// thread only.
#ifndef PROF_AGENT_WRITER_DRAIN_HORIZON_H_
#define PROF_AGENT_WRITER_DRAIN_HORIZON_H_

#include <atomic>
#include <cstdint>

#include "agent/record/clock.h"

namespace prof {

// No horizon: drain everything (at exit, at a terminating signal).
constexpr uint64_t kDrainEverything = UINT64_MAX;

class DrainHorizon {
 public:
  // Producer: from before reading the boundary's timestamp...
  void Enter() {
    in_flight_.fetch_add(1, std::memory_order_seq_cst);
#if defined(__aarch64__)
    // The increment must be visible before the counter is read (see the header).
    __asm__ __volatile__("dsb ish" ::: "memory");
#endif
    // x86-64: the locked add above completes (its store globally visible) before any
    // later instruction, and the producer reads the clock with MonotonicNsOrdered (LFENCE
    // before RDTSC; clock_gettime's vDSO does the same).
  }
  // ...until its commands are queued (or it decided none were needed).
  void Leave() { in_flight_.fetch_sub(1, std::memory_order_seq_cst); }

  class Producing {
   public:
    explicit Producing(DrainHorizon& horizon) : horizon_(horizon) { horizon_.Enter(); }
    ~Producing() { horizon_.Leave(); }
    Producing(const Producing&) = delete;
    Producing& operator=(const Producing&) = delete;

   private:
    DrainHorizon& horizon_;
  };

  // Writer, before taking the commands: the horizon for this pass. Records that start
  // before it may be drained once the commands taken after this call have been run. A
  // boundary is in flight for well under a microsecond, so a few retries (a few
  // microseconds in all) nearly always find none; else the previous horizon stands.
  uint64_t Advance() {
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      const uint64_t now = MonotonicNs();
      OrderClockRead();
      if (in_flight_.load(std::memory_order_seq_cst) == 0) return horizon_ns_ = now;
      Pause();
    }
    return horizon_ns_;
  }

 private:
  static constexpr int kAttempts = 16;

  static void Pause() {
#if defined(__x86_64__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
  }

  // The clock read above happens before the load after it.
  static void OrderClockRead() {
#if defined(__x86_64__)
    __builtin_ia32_lfence();  // RDTSC executes before any later instruction
#elif defined(__aarch64__)
    __asm__ __volatile__("isb" ::: "memory");
#endif
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }

  alignas(64) std::atomic<uint64_t> in_flight_{0};  // producers between Enter and Leave
  uint64_t horizon_ns_ = 0;                         // writer only
};

}  // namespace prof

#endif  // PROF_AGENT_WRITER_DRAIN_HORIZON_H_
