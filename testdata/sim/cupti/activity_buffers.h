// The path of activity records to the client: records wait (device records until their
// work has completed), then are packed into client-provided buffers, which go back to
// the client through its bufferCompleted callback on flush and periodically from a
// background thread, like real CUPTI. Fault injection (drops, late or partial buffers)
// happens here.
#ifndef PROF_TESTDATA_SIM_CUPTI_ACTIVITY_BUFFERS_H_
#define PROF_TESTDATA_SIM_CUPTI_ACTIVITY_BUFFERS_H_

#include <cupti_activity.h>

#include <cstddef>
#include <cstdint>

namespace simcupti {

// Room for the largest record this CUPTI writes (CUpti_ActivityKernel10).
constexpr size_t kMaxRecordBytes = 256;

void SetBufferCallbacks(CUpti_BuffersCallbackRequestFunc requested,
                        CUpti_BuffersCallbackCompleteFunc completed);
bool HasBufferCallbacks();

// Queues one record (copied). `ready_at_monotonic_ns` is when it may be delivered by an
// unforced flush; `timed_at` points at the record's start/end fields, which a forced
// flush zeroes (CUPTI_TIMESTAMP_UNKNOWN) for work that has not completed yet.
struct RecordTimes {
  size_t start_offset;
  size_t end_offset;
};
void AddRecord(const void* record, size_t size, uint64_t ready_at_monotonic_ns,
               const RecordTimes* times);

// Delivers every deliverable record now, on the calling thread.
void FlushRecords(bool forced);

// Returns and resets the number of records dropped (injected drops, refused buffers).
size_t TakeDroppedCount();

// Forgets queued records and restarts the background thread (run in a fork child).
void ResetAfterFork();

// The size of the record at `record` (by its kind), or 0 for a kind this CUPTI never writes.
size_t RecordSize(const CUpti_Activity* record);

}  // namespace simcupti

#endif  // PROF_TESTDATA_SIM_CUPTI_ACTIVITY_BUFFERS_H_
