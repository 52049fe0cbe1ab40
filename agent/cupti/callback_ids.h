// The CUPTI API callbacks the adapter subscribes to, one id at a time (cuptiEnableCallback),
// never whole domains: an enabled callback costs every call of that function in the
// process a CUPTI dispatch plus our enter/exit, and most driver calls (allocator queries,
// NCCL proxy polling, cuPointerGetAttribute, context lookups) enqueue nothing the trace
// needs. Kineto does the same (CuptiCallbackApi enables single ids).
//
// An id is here for one of three reasons (CallbackPurpose):
//  - kHooked: a runtime function libprof interposes. The enter callback hands the hook
//    the call's correlation id, and marks driver calls made inside it as its own
//    implementation rather than calls of their own.
//  - kRuntimeWork: a runtime function libprof does not interpose that enqueues device
//    work the trace shows (kernels, copies, memsets): the callback records the call, so
//    its kernels and copies find their launching call.
//  - kDriverWork: a driver function that enqueues device work or waits for it, called
//    outside any runtime call: launches that bypass the runtime (NCCL's and Triton's
//    cuLaunchKernel / cuLaunchKernelEx, cooperative launches, cuGraphLaunch, libraries
//    with a statically linked runtime), driver copies, memsets and synchronizations.
// Left out on purpose: arrays/textures (cudaMemcpy2DToArray, cuMemcpyAtoH, ...), host
// functions, prefetches and event records, which give the trace no device record.
//
// Thread safety: immutable data.
#ifndef PROF_AGENT_CUPTI_CALLBACK_IDS_H_
#define PROF_AGENT_CUPTI_CALLBACK_IDS_H_

#include <cupti.h>

#include <cstddef>

namespace prof {

enum class CallbackPurpose { kHooked, kRuntimeWork, kDriverWork };

struct CallbackIdEntry {
  CUpti_CallbackDomain domain;
  CUpti_CallbackId cbid;
  const char* name;  // CUPTI's name of the id, e.g. "cudaMemcpy_v3020"
  CallbackPurpose purpose;
};

// Every id the adapter enables; no duplicates.
const CallbackIdEntry* AgentCallbackIds(size_t* count);

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_CALLBACK_IDS_H_
