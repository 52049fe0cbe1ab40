#include "agent/torch/torch_observer.h"

#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cstring>
#include <new>

#include "agent/hooks/loaded_objects.h"
#include "agent/include/prof/prof.h"
#include "agent/record/clock.h"
#include "agent/record/errno_preserved.h"
#include "agent/record/recorder.h"
#include "agent/torch/operator_stack.h"

namespace prof {
namespace {

// std::unique_ptr<at::ObserverContext> as returned: non-trivial, so through memory.
struct NullContext {
  void* context = nullptr;
  ~NullContext() {}  // non-trivial on purpose (see the header: ABI)
};

using StartCallback = NullContext (*)(const void* record_function);
using EndCallback = void (*)(const void* record_function, void* context);

// at::RecordFunctionCallback's bytes (see the header): the scopes array starts at 24, the
// three needs_* flags follow it; spare bytes after them are never read.
struct CallbackBytes {
  StartCallback start;
  EndCallback end;
  double sampling_prob;
  bool tail[40];
};
static_assert(sizeof(CallbackBytes) > 16, "passed in memory, as RecordFunctionCallback");

constexpr int kMaxScopes = 32;  // leaves room for the three flags in `tail`
constexpr int kUserScope = 7;   // at::RecordScope::USER_SCOPE (1.10 to 2.x)

struct TorchFunctions {
  uint64_t (*add_thread_local)(CallbackBytes) = nullptr;
  void (*remove)(uint64_t) = nullptr;
  const char* (*name)(const void*) = nullptr;
  bool (*is_async)(const void*) = nullptr;
};
TorchFunctions g_torch;

std::atomic<uint64_t> g_threads{0}, g_folded{0}, g_async{0}, g_overflowed{0}, g_unmatched{0},
    g_no_stack{0}, g_out_of_order{0};

thread_local OperatorStack* t_stack __attribute__((tls_model("initial-exec"))) = nullptr;
// The thread's two callbacks (0: none). Two scalars, not an array: GCC stores a 16-byte
// array with one aligned SSE store, and a preloaded library's static TLS block is only
// 8-byte aligned here (it faulted).
thread_local uint64_t t_operator_handle __attribute__((tls_model("initial-exec"))) = 0;
thread_local uint64_t t_user_handle __attribute__((tls_model("initial-exec"))) = 0;
pthread_key_t g_exit_key;

// Adds a stack's counts to the process's and clears them there.
void FoldCounts(OperatorStack* stack) {
  g_folded.fetch_add(stack->folded(), std::memory_order_relaxed);
  g_overflowed.fetch_add(stack->overflowed(), std::memory_order_relaxed);
  g_unmatched.fetch_add(stack->unmatched(), std::memory_order_relaxed);
  g_out_of_order.fetch_add(stack->out_of_order(), std::memory_order_relaxed);
}

void FreeStack(void* stack) {
  FoldCounts(static_cast<OperatorStack*>(stack));
  delete static_cast<OperatorStack*>(stack);
  t_stack = nullptr;
}

// The thread's stack, allocated at its first callback (an autograd thread gets the
// callbacks from torch, never through StartTorchObserver).
OperatorStack* Stack() {
  if (__builtin_expect(t_stack != nullptr, 1)) return t_stack;
  ErrnoPreserved keep;  // inside torch's call: the program's errno stays as it was
  OperatorStack* stack = new (std::nothrow) OperatorStack();
  if (stack == nullptr) return nullptr;
  pthread_setspecific(g_exit_key, stack);
  g_threads.fetch_add(1, std::memory_order_relaxed);
  return t_stack = stack;
}

// Where operators go (StartTorchObserver's argument, set once before any callback).
std::atomic<OperatorRangeSink> g_operator_sink{nullptr};

// An operator as one whole-range record (a name-only kOperatorRange record, through the API
// layer's internal entry: the exported prof_operator_range_detail's errno guard, state
// checks and detail tests cost ~50 instructions an operator more, callgrind), where
// prof_operator_range writes a start and an end record: half the records to write and
// convert (aten_cost.py measured it).
void Sink(bool user, const char* name, size_t length, uint64_t start_ns, uint64_t end_ns) {
  if (user) {
    prof_user_range(name, start_ns, end_ns);
  } else {
    g_operator_sink.load(std::memory_order_relaxed)(name, length, start_ns, end_ns);
  }
}

template <bool kUser>
NullContext OnStart(const void* record_function) {
  if (g_torch.is_async(record_function)) {  // ends on another thread: never pushed
    g_async.fetch_add(1, std::memory_order_relaxed);
    return {};
  }
  OperatorStack* stack = Stack();
  if (stack == nullptr) {
    g_no_stack.fetch_add(1, std::memory_order_relaxed);
    return {};
  }
  stack->Start(record_function, g_torch.name(record_function), kUser,
               Recording() ? MonotonicNs() : 0);
  return {};
}

// isAsync (a call into torch) only where the end is not the innermost call's: an async
// RecordFunction was never pushed, so the innermost open call is never it (that call's
// RecordFunction is alive, at another address).
void OnEnd(const void* record_function, void* /*context*/) {
  OperatorStack* stack = t_stack;
  if (stack == nullptr) return;  // never pushed
  const uint64_t end_ns = Recording() ? MonotonicNs() : 1;
  if (stack->IsInnermost(record_function)) return stack->EndInnermost(end_ns, Sink);
  if (g_torch.is_async(record_function)) return;
  stack->End(record_function, end_ns, Sink);
}

// libtorch_cpu's functions, from the loaded copy (the first object named libtorch_cpu.so*).
// Once per process (the helper asks only after importing torch).
bool FindTorchOnce() {
  char path[PATH_MAX];
  for (int i = 1; LoadedObjectPath(i, path, sizeof(path)); ++i) {
    const char* slash = std::strrchr(path, '/');
    if (std::strncmp(slash ? slash + 1 : path, "libtorch_cpu.so", 15) != 0) continue;
    void* handle = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    if (handle == nullptr) return false;
    TorchFunctions found;
    found.add_thread_local = reinterpret_cast<decltype(found.add_thread_local)>(
        dlsym(handle, "_ZN2at22addThreadLocalCallbackENS_22RecordFunctionCallbackE"));
    found.remove =
        reinterpret_cast<decltype(found.remove)>(dlsym(handle, "_ZN2at14removeCallbackEm"));
    found.name =
        reinterpret_cast<decltype(found.name)>(dlsym(handle, "_ZNK2at14RecordFunction4nameEv"));
    found.is_async = reinterpret_cast<decltype(found.is_async)>(
        dlsym(handle, "_ZNK2at14RecordFunction7isAsyncEv"));
    dlclose(handle);  // RTLD_NOLOAD: drops the reference it took, torch stays loaded
    if (!found.add_thread_local || !found.remove || !found.name || !found.is_async) return false;
    if (pthread_key_create(&g_exit_key, FreeStack) != 0) return false;
    g_torch = found;
    return true;
  }
  return false;
}

CallbackBytes Callback(StartCallback start, int num_scopes, bool user_scope) {
  CallbackBytes callback;
  std::memset(&callback, 0, sizeof(callback));  // needs_inputs/outputs/ids: false
  callback.start = start;
  callback.end = OnEnd;
  callback.sampling_prob = 1.0;  // thread-local callbacks must not be sampled
  for (int scope = 0; scope < num_scopes; ++scope) {
    callback.tail[scope] = (scope == kUserScope) == user_scope;
  }
  return callback;
}

}  // namespace

int StartTorchObserver(int num_scopes, OperatorRangeSink operators) {
  if (num_scopes <= kUserScope || num_scopes > kMaxScopes || operators == nullptr) return -1;
  if (t_operator_handle != 0) return 1;
  static const bool found = FindTorchOnce();  // thread-safe: threads may start at once
  if (!found) return 0;
  OperatorRangeSink none = nullptr;  // the first start's; later ones pass the same
  g_operator_sink.compare_exchange_strong(none, operators, std::memory_order_relaxed);
  if (OperatorStack* stack = Stack()) stack->Reset();  // a stack left by removed callbacks
  t_operator_handle = g_torch.add_thread_local(Callback(OnStart<false>, num_scopes, false));
  t_user_handle = g_torch.add_thread_local(Callback(OnStart<true>, num_scopes, true));
  return 1;
}

int StopTorchObserver() {
  if (t_operator_handle == 0) return 0;
  g_torch.remove(t_operator_handle);
  g_torch.remove(t_user_handle);
  t_operator_handle = t_user_handle = 0;
  // A RecordFunction keeps the callbacks it started with: the calls still open may end
  // through OnEnd after this. With the stack reset they find no call of theirs (counted
  // unmatched) and cannot close a call pushed after a later start.
  if (t_stack != nullptr) t_stack->Reset();
  return 1;
}

TorchObserverCounts TorchObserverCountsNow() {
  TorchObserverCounts counts{};
  counts.threads = g_threads.load(std::memory_order_relaxed);
  counts.folded = g_folded.load(std::memory_order_relaxed);
  counts.async = g_async.load(std::memory_order_relaxed);
  counts.overflowed = g_overflowed.load(std::memory_order_relaxed);
  counts.unmatched = g_unmatched.load(std::memory_order_relaxed);
  counts.no_stack = g_no_stack.load(std::memory_order_relaxed);
  counts.out_of_order = g_out_of_order.load(std::memory_order_relaxed);
  if (t_stack != nullptr) {  // this thread's, not yet added
    counts.folded += t_stack->folded();
    counts.overflowed += t_stack->overflowed();
    counts.unmatched += t_stack->unmatched();
    counts.out_of_order += t_stack->out_of_order();
  }
  return counts;
}

}  // namespace prof
