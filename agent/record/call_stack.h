// Native call stacks for allocation and launch sites (PROF_STACKS=1). libunwind is loaded
// with dlopen when stacks are switched on, so libprof.so never depends on it: a machine
// without libunwind only loses stacks (one warning). Captured on the hot path of the
// calls that record them (a few hundred ns), so it is off by default.
#ifndef PROF_AGENT_RECORD_CALL_STACK_H_
#define PROF_AGENT_RECORD_CALL_STACK_H_

#include <cstdint>

namespace prof {

constexpr int kMaxStackFrames = 16;

namespace internal {
extern bool g_stacks;  // set once at start-up
}  // namespace internal

// Loads libunwind; false (with the reason in `why`) when it cannot be used.
bool EnableCallStacks(const char** why);

// Return addresses of the caller's caller and above, innermost first; 0 when stacks are
// off or unavailable.
int CaptureCallStack(uint64_t* frames, int max_frames);

}  // namespace prof

#endif  // PROF_AGENT_RECORD_CALL_STACK_H_
