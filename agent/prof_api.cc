// The exported C API (include/prof/prof.h).
#include "agent/include/prof/prof.h"

#include <atomic>
#include <cstring>
#include <string>

#include "agent/control/schedule.h"
#include "agent/control/session.h"
#include "agent/cupti/cupti_neighbours.h"
#include "agent/hooks/hook_support.h"
#include "agent/record/errno_preserved.h"
#include "agent/record/flight_host.h"
#include "agent/record/recorder.h"
#include "agent/torch/torch_observer.h"
#include "proto/schema_enums.h"

namespace {

// Per thread: depth of the C API's range stack and, per depth, whether that push was
// recorded, so each pop is recorded exactly when its push was (PROF_TIMER_ONLY keeps only
// Dataloader phases; a window may open or close between a push and its pop).
thread_local int t_depth __attribute__((tls_model("initial-exec"))) = 0;
thread_local uint64_t t_recorded __attribute__((tls_model("initial-exec"))) = 0;

// Opens a level of the calling thread's range stack; returns whether its push is recorded
// (remembered per depth for the pop).
bool OpenLevel(const char* name) {
  const int depth = t_depth++;
  bool record = prof::Recording();
  if (prof::ActivityEnabled(prof::kActivityTimerOnly) && !prof::IsDataloaderName(name)) {
    record = false;
  }
  if (depth < 64) {
    t_recorded =
        record ? t_recorded | (uint64_t{1} << depth) : t_recorded & ~(uint64_t{1} << depth);
  }
  return record;
}

void Push(prof::schema::RangeKind kind, const char* name) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  if (prof::FlightOn()) prof::FlightHostPush(kind, name, prof::MonotonicNs());
  if (OpenLevel(name)) {
    prof::RecordNamed<prof::RecordKind::kRangePush>(kind, name ? name : "", prof::MonotonicNs(), 0);
  }
}

// An operator push with details (a kOperatorPushDetail record), closed by Pop().
void PushDetail(const char* name, const char* shapes, const char* dtypes, const char* source) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  if (prof::FlightOn()) {
    prof::FlightHostPush(prof::schema::RANGE_KIND_OPERATOR, name, prof::MonotonicNs());
  }
  if (OpenLevel(name))
    prof::RecordOperatorPushDetail(name, shapes, dtypes, source, prof::MonotonicNs());
}

void Pop() {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  if (prof::FlightOn()) prof::FlightHostPop(prof::MonotonicNs());
  const int depth = t_depth > 0 ? --t_depth : -1;
  const bool pushed_recorded = depth < 0 || depth >= 64 || ((t_recorded >> depth) & 1);
  if (pushed_recorded && prof::Recording()) {
    prof::RecordNamed<prof::RecordKind::kRangePop>(0, nullptr, prof::MonotonicNs(), 0);
  }
}

bool NoText(const char* text) { return text == nullptr || *text == '\0'; }

// The torch observer's operators (torch_observer.h): prof_operator_range_detail's path for
// a name-only range, entered directly (no exported call, no detail tests). Inside torch's
// callback the program's errno stays: kept around the flight recorder's work here, and by
// RecordOperatorRange itself where it may change it (its common case cannot).
void ObservedOperatorRange(const char* name, size_t length, uint64_t start_ns, uint64_t end_ns) {
  if (prof::FlightOn()) {
    prof::ErrnoPreserved keep;
    prof::FlightHostRange(prof::schema::RANGE_KIND_OPERATOR, name, start_ns, end_ns);
  }
  if (!prof::Recording()) return;
  if (prof::ActivityEnabled(prof::kActivityTimerOnly)) return;  // operators: not in timer-only
  prof::RecordOperatorRange(name, length, start_ns, end_ns);
}

// A range that already ended, as a start/end pair (not push/pop): each range has an id of
// its own, so a record lost to a full buffer leaves one range unmatched instead of
// mismatching the thread's push/pop stack. Ids have the top bit set: NVTX start/end
// ranges count up from 1.
void WholeRange(prof::schema::RangeKind kind, const char* name, uint64_t start_ns,
                uint64_t end_ns) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  if (prof::FlightOn()) prof::FlightHostRange(kind, name, start_ns, end_ns);
  if (!prof::Recording()) return;
  if (prof::ActivityEnabled(prof::kActivityTimerOnly) && !prof::IsDataloaderName(name)) return;
  static std::atomic<uint64_t> next_id{0};
  const uint64_t id = (uint64_t{1} << 63) | next_id.fetch_add(1, std::memory_order_relaxed);
  prof::RecordNamed<prof::RecordKind::kRangeStart>(kind, name ? name : "", start_ns, id);
  prof::RecordNamed<prof::RecordKind::kRangeEnd>(0, nullptr, end_ns < start_ns ? start_ns : end_ns,
                                                 id);
}

}  // namespace

PROF_EXPORT int prof_api_version(void) { return PROF_API_VERSION; }

// The configuration in force, built or only planned: asking must not start the session.
PROF_EXPORT int prof_config_get(const char* name, char* value, size_t size) {
  prof::ErrnoPreserved keep;
  const prof::Config* config = prof::Session::ConfigForChildren();
  if (!config) return -1;
  const auto found = config->applied.find(name ? name : "");
  if (found == config->applied.end()) return 0;
  if (!value || size <= found->second.size()) return -2;
  std::memcpy(value, found->second.c_str(), found->second.size() + 1);
  return 1;
}

PROF_EXPORT int prof_schedule_state(const char* schedule, int64_t step) {
  prof::ErrnoPreserved keep;
  if (step < 0) return -1;
  if (!schedule) {
    const prof::Config* config = prof::Session::ConfigForChildren();
    return config ? static_cast<int>(config->schedule.StateOf(step)) : -1;
  }
  const prof::ParsedSchedule parsed = prof::ParseSchedule(schedule);
  return parsed.schedule ? static_cast<int>(parsed.schedule->StateOf(step)) : -1;
}

PROF_EXPORT void prof_step(int64_t num_samples) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  if (prof::Session* session = prof::Session::Current()) session->steps().Step(num_samples);
}

// prof_step and the two questions the Python helper asks at each boundary, in one call:
// each ctypes call costs it ~5k instructions, several times what the answers cost here.
PROF_EXPORT int prof_step_ended(int64_t num_samples) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  prof::Session* session = prof::Session::Current();
  if (!session) return 0;  // no agent running: nothing records
  session->steps().Step(num_samples);
  int flags = prof::Recording() ? PROF_STEP_RECORDS : 0;
  if (session->steps().NextStepRecords()) flags |= PROF_NEXT_STEP_RECORDS;
  return flags;
}

PROF_EXPORT void prof_step_stamp(void) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  if (prof::Session* session = prof::Session::Current()) session->steps().StampNextBoundary();
}

PROF_EXPORT void prof_range_push(const char* name) { Push(prof::schema::RANGE_KIND_USER, name); }
PROF_EXPORT void prof_range_pop(void) { Pop(); }
PROF_EXPORT void prof_phase_push(const char* name) {
  Push(prof::schema::RANGE_KIND_MODEL_PHASE, name);
}
PROF_EXPORT void prof_phase_pop(void) { Pop(); }
PROF_EXPORT void prof_operator_push(const char* name) {
  Push(prof::schema::RANGE_KIND_OPERATOR, name);
}
PROF_EXPORT void prof_operator_push_detail(const char* name, const char* shapes, const char* dtypes,
                                           const char* source) {
  PushDetail(name, shapes, dtypes, source);
}
PROF_EXPORT void prof_operator_pop(void) { Pop(); }
PROF_EXPORT void prof_operator_range(const char* name, uint64_t start_ns, uint64_t end_ns) {
  WholeRange(prof::schema::RANGE_KIND_OPERATOR, name, start_ns, end_ns);
}
PROF_EXPORT void prof_operator_ranges(size_t count, const char* const* names,
                                      const uint64_t* start_ns, const uint64_t* end_ns) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  // The whole batch: one branch while not recording (nor keeping the flight recorder's).
  if (!prof::Recording() && !prof::FlightOn()) return;
  for (size_t i = 0; i < count; ++i) {
    WholeRange(prof::schema::RANGE_KIND_OPERATOR, names[i], start_ns[i], end_ns[i]);
  }
}
PROF_EXPORT void prof_operator_range_detail(const char* name, uint64_t start_ns, uint64_t end_ns,
                                            const char* shapes, const char* dtypes,
                                            const char* source) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  if (prof::FlightOn()) {
    prof::FlightHostRange(prof::schema::RANGE_KIND_OPERATOR, name, start_ns, end_ns);
  }
  if (!prof::Recording()) return;
  if (prof::ActivityEnabled(prof::kActivityTimerOnly)) return;  // operators: not in timer-only
  // Without details (the RecordFunction observer's every operator): the name-only kind,
  // one text to measure on this thread and none to split on the writer's.
  if (NoText(shapes) && NoText(dtypes) && NoText(source)) {
    prof::RecordOperatorRange(name, start_ns, end_ns);
    return;
  }
  prof::RecordOperatorRangeDetail(name, shapes, dtypes, source, start_ns, end_ns);
}
PROF_EXPORT void prof_user_range(const char* name, uint64_t start_ns, uint64_t end_ns) {
  WholeRange(prof::schema::RANGE_KIND_USER, name, start_ns, end_ns);
}
PROF_EXPORT void prof_phase_range(const char* name, uint64_t start_ns, uint64_t end_ns) {
  WholeRange(prof::schema::RANGE_KIND_MODEL_PHASE, name, start_ns, end_ns);
}

PROF_EXPORT int prof_torch_observer_start(int num_scopes) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  return prof::StartTorchObserver(num_scopes, ObservedOperatorRange);
}

PROF_EXPORT int prof_torch_observer_stop(void) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  return prof::StopTorchObserver();
}

PROF_EXPORT int prof_torch_observer_counts(uint64_t* counts, int capacity) {
  const prof::TorchObserverCounts now = prof::TorchObserverCountsNow();
  const uint64_t values[] = {now.threads,   now.folded,   now.async,       now.overflowed,
                             now.unmatched, now.no_stack, now.out_of_order};
  const int n = static_cast<int>(sizeof(values) / sizeof(values[0]));
  for (int i = 0; i < n && i < capacity && counts; ++i) counts[i] = values[i];
  return n;
}

PROF_EXPORT int prof_recording(void) { return prof::Recording() ? 1 : 0; }

PROF_EXPORT int prof_window_goes_on(int next_state) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  prof::Session* session = prof::Session::Existing();  // none: nothing is recording
  return session && session->steps().WindowGoesOnPastBoundary(next_state) ? 1 : 0;
}

PROF_EXPORT void prof_mark(const char* name) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  if (!prof::Recording()) return;
  prof::RecordNamed<prof::RecordKind::kMark>(prof::schema::RANGE_KIND_MARK, name ? name : "",
                                             prof::MonotonicNs(), 0);
}

PROF_EXPORT void prof_memory_sample(int32_t device, int64_t allocated, int64_t reserved,
                                    int64_t peak) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  if (!prof::Recording()) return;
  size_t size;
  auto* record = prof::BeginRecord<prof::MemorySampleRecord>(nullptr, &size);
  if (!record) return;  // the buffer was full (counted there)
  const uint64_t now = prof::MonotonicNs();
  record->start_ns = now;
  record->end_ns = now;
  record->device = device;
  record->reserved0 = 0;
  // Negative figures (a framework's "unknown") are stored as 0.
  record->allocated = allocated > 0 ? static_cast<uint64_t>(allocated) : 0;
  record->reserved = reserved > 0 ? static_cast<uint64_t>(reserved) : 0;
  record->peak = peak > 0 ? static_cast<uint64_t>(peak) : 0;
  prof::CommitRecord(size);
}

// Windows on demand (control/step_controller.h, OpenOnDemand).
PROF_EXPORT int prof_start(void) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  prof::Session* session = prof::Session::Current();
  return session ? static_cast<int>(session->steps().OpenOnDemand()) : -1;
}

PROF_EXPORT int prof_stop(void) {
  prof::ErrnoPreserved keep;
  prof::Session* session = prof::Session::Current();
  return session ? static_cast<int>(session->steps().CloseOnDemand()) : -1;
}

PROF_EXPORT int prof_flush(int timeout_ms) {
  prof::ErrnoPreserved keep;
  prof::Session* session = prof::Session::Current();
  if (!session) return -1;
  const uint64_t timeout_ns = timeout_ms > 0 ? static_cast<uint64_t>(timeout_ms) * 1000000 : 0;
  return session->writer().Flush(timeout_ns) ? 1 : 0;
}

PROF_EXPORT int prof_windows_finished(void) {
  prof::Session* session = prof::Session::Existing();
  return session ? static_cast<int>(session->writer().windows_finished()) : 0;
}

PROF_EXPORT int prof_window_file(int index, char* path, size_t size) {
  prof::ErrnoPreserved keep;
  prof::Session* session = prof::Session::Existing();
  std::string file;
  if (!session || index < 0 ||
      !session->writer().FinishedWindow(static_cast<uint32_t>(index), &file)) {
    return -1;
  }
  if (file.empty()) return 0;
  if (!path || size <= file.size()) return -2;
  std::memcpy(path, file.c_str(), file.size() + 1);
  return 1;
}

PROF_EXPORT int prof_step_to(int64_t num_samples, int next_state) {
  prof::ErrnoPreserved keep;
  prof::Session* session = prof::Session::Current();
  return session ? static_cast<int>(session->steps().StepTo(num_samples, next_state)) : -1;
}

PROF_EXPORT int prof_set_state(int state) {
  prof::ErrnoPreserved keep;
  prof::Session* session = prof::Session::Current();
  return session ? static_cast<int>(session->steps().SetState(state)) : -1;
}
