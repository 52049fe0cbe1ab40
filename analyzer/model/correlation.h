// Links each device record (kernel, copy, memset, synchronization) to the API call that
// launched it through the correlation id, and counts the records whose call is missing.
// Runs once per model after clock conversion; AppendModel re-runs it after a merge.
#ifndef PROF_ANALYZER_MODEL_CORRELATION_H_
#define PROF_ANALYZER_MODEL_CORRELATION_H_

#include <cstdint>

#include "absl/container/flat_hash_map.h"
#include "analyzer/model/trace_model.h"

namespace prof::analyzer {

// Sets DeviceActivity::api_call and recounts quality.unmatched_device_records and
// quality.duplicate_correlation_ids. When two calls share an id the later one wins.
void LinkDeviceActivitiesToApiCalls(TraceModel* model);

// (device << 32 | stream) -> the latest start of the stream's device records.
using StreamLatestStarts = absl::flat_hash_map<uint64_t, uint64_t>;

// As above, and sets `latest` to each stream's latest start in the same walk over the
// records (the window slicer's cut rule reads it; a walk of its own cost half its choice),
// and `latest_answered` to the start of the call with the largest correlation id that a
// device record answered (CUPTI numbers calls as they start: the latest answered; 0 when
// none was).
void LinkDeviceActivitiesToApiCalls(TraceModel* model, StreamLatestStarts* latest,
                                    uint64_t* latest_answered);

// Sets quality.unmatched_device_records from counts by DeviceKind, for a caller that
// counted the records without a call (api_call == kNoIndex) in a walk of its own.
void SetUnmatchedDeviceRecords(const uint64_t unmatched[4], DataQuality* quality);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MODEL_CORRELATION_H_
