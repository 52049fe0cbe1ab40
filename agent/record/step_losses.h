// Records lost, counted by the step they were lost in, so the Data Quality table can say
// which steps are incomplete (LossCounter.step_number).
//
// The step controller publishes the current step number (one relaxed store per step). A
// thread whose record found no room counts it in its buffer's StepLossCounter: one 64-bit
// word holding (step, count), updated by CAS on the drop path only (never on a successful
// append). When a drop falls in a new step, the previous step's count is moved to a small
// global table of (kind, step, count) slots (DisplacedLosses), which the writer empties on
// every pass; the writer also takes each counter's running count. So each lost record is
// counted exactly once, in the step during which it was lost. Should the table be full
// (never seen: the writer empties it every few ms), the count is kept without its step.
//
// Thread safety: every function may be called from any thread; all state is atomic.
#ifndef PROF_AGENT_RECORD_STEP_LOSSES_H_
#define PROF_AGENT_RECORD_STEP_LOSSES_H_

#include <atomic>
#include <cstdint>
#include <functional>

namespace prof {

namespace internal {
extern std::atomic<int64_t> g_current_step;
}  // namespace internal

// Set by the step controller at each boundary (under its mutex); read on drop paths.
inline void SetCurrentStep(int64_t step) {
  internal::g_current_step.store(step, std::memory_order_relaxed);
}
inline int64_t CurrentStep() { return internal::g_current_step.load(std::memory_order_relaxed); }

// Loss of one kind (a schema::LossKind value) on one thread, by step.
class StepLossCounter {
 public:
  explicit StepLossCounter(int32_t loss_kind = 0) : kind_(loss_kind) {}
  void set_kind(int32_t loss_kind) { kind_ = loss_kind; }

  // One record lost during `step` (>= 0).
  void Add(int64_t step);

  // Writer: takes the running count; calls report(step, count) when it is not zero.
  void Take(const std::function<void(int32_t kind, int64_t step, uint64_t count)>& report);

 private:
  // High 32 bits: step + 1 (0: none yet); low 32 bits: count.
  std::atomic<uint64_t> word_{0};
  int32_t kind_;
};

// Writer: reports and clears the counts moved out of counters when their step changed,
// and those kept without a step (step -1).
void TakeDisplacedLosses(
    const std::function<void(int32_t kind, int64_t step, uint64_t count)>& report);

// Fork child: forgets everything counted (the parent reports its own losses).
void ResetStepLossesAfterFork();

}  // namespace prof

#endif  // PROF_AGENT_RECORD_STEP_LOSSES_H_
