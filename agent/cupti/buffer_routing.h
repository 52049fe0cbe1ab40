// CUPTI's one pair of activity-buffer callbacks, shared by libprof and the program's own
// CUPTI client (torch.profiler's Kineto). CUPTI keeps one pair per process, and a buffer
// it holds when another pair is registered comes back through the new pair (seen on CUDA
// 13.0, H200: a buffer requested through libprof's callbacks came back through Kineto's,
// which dropped it as unknown with the records of 250 of its 575 kernels). So CUPTI only
// ever gets this pair: libprof registers it, and the program's registration is turned into
// it (hooks/cupti_hooks.cc; cupti_neighbours.h rule 6).
//
// Rule: a request is served by whoever the records now belong to (the program while its
// trace runs and libprof does not hold the activity API, else libprof). A completed buffer
// goes back to whoever gave it; libprof's buffers are the ones activity_buffers made. Its
// records belong to whoever holds the activity API when it completes: each side flushes
// its own before letting go (cupti_neighbours.h rules 2 and 3), so what a buffer of the
// other side holds then was recorded after. Such records are copied into a buffer of the
// holder, and the giver gets its buffer back empty.
//
// Cost: one mutex-guarded lookup among libprof's few buffers per 4 MiB buffer, and a copy
// only in a hand-over. Threads: CUPTI calls these on any thread, its own or one in
// cuptiActivityFlushAll; they read the neighbours' atomics and take activity_buffers'
// mutex, never one of the program's. Fork: a child's pool is new, so a buffer the parent's
// libprof gave CUPTI counts there as the program's; libprof never uses CUPTI in a child
// (fork_guard.h). Never in a signal handler.
#ifndef PROF_AGENT_CUPTI_BUFFER_ROUTING_H_
#define PROF_AGENT_CUPTI_BUFFER_ROUTING_H_

#include <cupti.h>

#include <cstddef>
#include <cstdint>

namespace prof {

void CUPTIAPI RoutedBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records);
void CUPTIAPI RoutedBufferCompleted(CUcontext context, uint32_t stream_id, uint8_t* buffer,
                                    size_t size, size_t valid_size);

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_BUFFER_ROUTING_H_
