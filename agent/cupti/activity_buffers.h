// The buffers CUPTI fills with activity records, and CUPTI's two buffer callbacks. CUPTI
// calls them on its own threads (or inside cuptiActivityFlushAll); they only take a buffer
// from the pool or queue a completed one under a small mutex, never call CUPTI, never
// convert. The writer thread takes the completed buffers, converts them, and recycles
// them. The pool is bounded: past the cap a request is refused (CUPTI then drops the
// records and counts them) where CUPTI is known to cope with that.
//
// Thread safety: the callbacks run on any thread; TakeCompletedBuffers and RecycleBuffers
// on the writer thread; all guarded by one mutex that is never held while calling out.
// Process-wide (CUPTI's callbacks carry no user data). Fork: see fork_guard.h.
#ifndef PROF_AGENT_CUPTI_ACTIVITY_BUFFERS_H_
#define PROF_AGENT_CUPTI_ACTIVITY_BUFFERS_H_

#include <cupti.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace prof {

struct ActivityBuffer {
  uint8_t* data = nullptr;
  size_t size = 0;
  size_t valid_size = 0;  // bytes of records CUPTI wrote
};

// `buffer_bytes` per buffer, at most `max_buffers` in existence when `may_refuse`.
void ConfigureActivityBuffers(size_t buffer_bytes, size_t max_buffers, bool may_refuse);

void CUPTIAPI OnBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records);
void CUPTIAPI OnBufferCompleted(CUcontext context, uint32_t stream_id, uint8_t* buffer, size_t size,
                                size_t valid_size);

// Whether CUPTI got `buffer` from OnBufferRequested (and it is not freed since). A buffer
// libprof did not make is the program's (buffer_routing.h).
bool IsAgentBuffer(const uint8_t* buffer);

// The completed buffers, in completion order; the caller owns them until recycled.
std::vector<ActivityBuffer> TakeCompletedBuffers();
void RecycleBuffers(const std::vector<ActivityBuffer>& buffers);

// In a forked child: forgets the inherited state (and its possibly held mutex).
void ResetActivityBuffersAfterFork();

}  // namespace prof

#endif  // PROF_AGENT_CUPTI_ACTIVITY_BUFFERS_H_
