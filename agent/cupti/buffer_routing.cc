#include "agent/cupti/buffer_routing.h"

#include <cstring>

#include "agent/cupti/activity_buffers.h"
#include "agent/cupti/cupti_neighbours.h"

namespace prof {
namespace {

// Copies the records of `buffer` into one `requested` gives and completes that one through
// `completed`; false when it gives none big enough (the records stay where they are).
bool HandOverRecords(CUpti_BuffersCallbackRequestFunc requested,
                     CUpti_BuffersCallbackCompleteFunc completed, CUcontext context,
                     uint32_t stream_id, const uint8_t* buffer, size_t valid_size) {
  uint8_t* theirs = nullptr;
  size_t their_size = 0;
  size_t max_records = 0;
  requested(&theirs, &their_size, &max_records);
  if (!theirs) return false;
  if (their_size < valid_size) {
    completed(context, stream_id, theirs, their_size, 0);  // given back unused
    return false;
  }
  std::memcpy(theirs, buffer, valid_size);
  completed(context, stream_id, theirs, their_size, valid_size);
  return true;
}

}  // namespace

void CUPTIAPI RoutedBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  CUpti_BuffersCallbackRequestFunc requested = nullptr;
  CUpti_BuffersCallbackCompleteFunc completed = nullptr;
  if (ProgramTakesRecords(&requested, &completed)) {
    requested(buffer, size, max_records);
    return;
  }
  OnBufferRequested(buffer, size, max_records);
}

void CUPTIAPI RoutedBufferCompleted(CUcontext context, uint32_t stream_id, uint8_t* buffer,
                                    size_t size, size_t valid_size) {
  if (!buffer) return;
  if (IsAgentBuffer(buffer)) {
    CUpti_BuffersCallbackRequestFunc requested = nullptr;
    CUpti_BuffersCallbackCompleteFunc completed = nullptr;
    if (valid_size > 0 && ProgramTakesRecords(&requested, &completed) &&
        HandOverRecords(requested, completed, context, stream_id, buffer, valid_size)) {
      valid_size = 0;  // back to libprof's pool, empty
    }
    OnBufferCompleted(context, stream_id, buffer, size, valid_size);
    return;
  }
  // The program's (libprof never frees a buffer it did not make). Records in it while
  // libprof holds the activity API are libprof's.
  if (valid_size > 0 && AgentTakesRecords() &&
      HandOverRecords(&OnBufferRequested, &OnBufferCompleted, context, stream_id, buffer,
                      valid_size)) {
    valid_size = 0;
  }
  if (CUpti_BuffersCallbackCompleteFunc completed = ProgramBufferCompleted()) {
    completed(context, stream_id, buffer, size, valid_size);
  }
}

}  // namespace prof
