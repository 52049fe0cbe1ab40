// The CUPTI callback for the runtime and driver API domains. At every API enter it gives
// the calling thread's hook the call's correlation id (prof::internal::t_correlation_id),
// which is how a host API record finds its kernels, copies and memsets. And it records,
// itself, the calls no hook saw: runtime calls made without a hook around them (functions
// libprof does not interpose, the static runtimes inside cuBLAS, cuDNN and nvcc-built
// programs, a libprof dlopened without LD_PRELOAD) and driver calls made outside any
// runtime call (NCCL, cuBLAS, Triton launch through the driver) - a driver call inside a
// runtime call is that runtime call's implementation. A hook marks the call it wraps
// (AwaitCorrelationId), so every call is recorded once, by the hook or here.
// It only ever sees the ids of callback_ids.h (functions that enqueue device work or wait
// for it), so only those calls become records.
//
// Thread safety: the callback runs on any application thread; its per-thread state is
// thread_local and its shared state is atomic. It never blocks and never calls CUPTI.
#ifndef PROF_AGENT_CUPTI_API_CALLBACKS_H_
#define PROF_AGENT_CUPTI_API_CALLBACKS_H_

#include <cupti.h>

namespace prof {

// Before subscribing: whether calls the hooks do not see are recorded (PROF_ACTIVITIES
// has cuda), and a fresh start for every thread's nesting depth (a call in flight across
// an unsubscribe never reports its exit).
void StartApiCallbacks(bool record_unhooked_calls);

void CUPTIAPI OnApiCallback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                            const void* data);

// "cudaMemcpy" for "cudaMemcpy" and for "cudaMemcpy_v3020" (CUPTI's versioned spelling);
// copies into `buffer` only when it has to cut a suffix.
const char* CallableName(const char* function_name, char* buffer, size_t buffer_size);

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_API_CALLBACKS_H_
