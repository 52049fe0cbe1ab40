// PyTorch's operators from RecordFunction callbacks the agent registers itself
// (prof_torch_observer_start/stop, prof.h), instead of running torch's own profiler
// collection and replaying it from Python (aten_operators.py keeps that path as the
// fallback and for PROF_SHAPES / PROF_STACKS).
//
// Design rule: the callbacks are thread-local ones (at::addThreadLocalCallback), exactly
// what torch.profiler registers: torch carries them (ThreadLocalState) to autograd's
// threads during backward and to at::launch tasks, so the coverage is torch.profiler's.
// Two per thread: one for USER_SCOPE (record_function ranges, recorded as user ranges)
// and one for every other scope (operators). Each start pushes on the thread's
// OperatorStack (operator_stack.h: torch.profiler's counting rules), each end pops and
// records a whole range: an operator through the sink StartTorchObserver was given (the API
// layer's internal entry: one name-only kOperatorRange record), a user range through
// prof_user_range.
//
// ABI (x86-64 SysV, Itanium C++), without torch's headers: the agent calls torch's
// exported functions through dlsym on libtorch_cpu, already loaded (RTLD_NOLOAD):
//   - at::addThreadLocalCallback(at::RecordFunctionCallback) -> uint64_t handle. The
//     callback is trivially copyable ({start_, end_, double sampling_prob_,
//     std::array<bool, NUM_SCOPES> scopes_, needs_inputs_, needs_outputs_, needs_ids_}, the
//     same from torch 1.10 to 2.x), larger than 16 bytes, so it is passed in memory on the
//     stack: CallbackBytes, a POD with the same fields at the same offsets and spare bytes
//     after (the callee reads only its own size), passes the same way. NUM_SCOPES comes
//     from the helper (torch._C._profiler.RecordScope's members).
//   - at::removeCallback(uint64_t); at::RecordFunction::name() const -> const char*;
//     RecordFunction::isAsync() const -> bool: member functions take `this` first.
//   - The start callback returns std::unique_ptr<ObserverContext>, non-trivial, so through
//     a hidden pointer: NullContext, a type with a non-trivial destructor holding one null
//     pointer, is returned the same way, and torch deletes nothing.
// A torch whose symbols are missing refuses (start returns 0), and the helper falls back.
//
// Cost: per operator two callbacks, each a check of the state, a clock read and a few
// stores; one isAsync call into torch at the start (at the end only where the call is not
// the innermost open one); at the end, one whole-range record, the name and two times
// only (kOperatorRange, record.h: the writer interns the name from its bytes). Measured
// split per operator (docs/benchmarks.md, "PyTorch operators"): torch's own
// RecordFunction work, which torch.profiler pays too, is about half; this file's code a
// tenth.
// Threads: every piece of state is the thread's own (its stack is allocated at its first
// callback, freed as it exits). Async RecordFunctions (isAsync: they end on another
// thread) are counted and skipped, never pushed. Fork: a child keeps the callbacks of the
// forking thread (they are torch's thread-local state); the helper stops them there
// (forget_in_child) and the stack is reset at every start.
// Never throws, never aborts: a failure to allocate a thread's stack leaves that thread
// unrecorded (counted).
#ifndef PROF_AGENT_TORCH_TORCH_OBSERVER_H_
#define PROF_AGENT_TORCH_TORCH_OBSERVER_H_

#include <cstddef>
#include <cstdint>

namespace prof {

// What the observer saw in this process (all threads), for tests and logs.
struct TorchObserverCounts {
  uint64_t threads;     // threads that got a stack
  uint64_t folded;      // only children named as their parent (not recorded)
  uint64_t async;       // async RecordFunctions skipped
  uint64_t overflowed;  // calls past the stack's depth
  uint64_t unmatched;   // ends without a start
  uint64_t no_stack;    // calls on threads whose stack could not be allocated
  uint64_t out_of_order;  // ends of calls that were not the innermost (operator_stack.h)
};

// Records one operator that ended (whole range, name only), as prof_operator_range_detail
// without details but without its entry's work (the API layer's internal entry: errno
// kept, the flight recorder and the activities honoured, no exported call). length:
// strlen(name), known from the operator's start.
using OperatorRangeSink = void (*)(const char* name, size_t length, uint64_t start_ns,
                                   uint64_t end_ns);

// Adds this thread's two callbacks; operators go to `operators` (the same for every
// thread: the first start's is kept). Returns 1 when they are on (or already were), 0 when
// libtorch_cpu or one of its functions is not found, -1 for a bad num_scopes.
int StartTorchObserver(int num_scopes, OperatorRangeSink operators);
// Removes this thread's callbacks (nothing when none are on). Returns 1 when removed.
int StopTorchObserver();
// The counts so far (the calling thread's included).
TorchObserverCounts TorchObserverCountsNow();

}  // namespace prof

#endif  // PROF_AGENT_TORCH_TORCH_OBSERVER_H_
