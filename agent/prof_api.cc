// The exported C API (include/prof/prof.h).
#include "agent/include/prof/prof.h"

#include "agent/control/session.h"
#include "agent/hooks/hook_support.h"
#include "agent/record/errno_preserved.h"
#include "agent/record/recorder.h"
#include "proto/schema_enums.h"

namespace {

// Per thread: depth of the C API's range stack and, per depth, whether that push was
// recorded, so each pop is recorded exactly when its push was (PROF_TIMER_ONLY keeps only
// Dataloader phases; a window may open or close between a push and its pop).
thread_local int t_depth __attribute__((tls_model("initial-exec"))) = 0;
thread_local uint64_t t_recorded __attribute__((tls_model("initial-exec"))) = 0;

void Push(prof::schema::RangeKind kind, const char* name) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  const int depth = t_depth++;
  bool record = prof::Recording();
  if (prof::ActivityEnabled(prof::kActivityTimerOnly) && !prof::IsDataloaderName(name)) {
    record = false;
  }
  if (depth < 64) {
    t_recorded = record ? t_recorded | (uint64_t{1} << depth) : t_recorded & ~(uint64_t{1} << depth);
  }
  if (record) {
    prof::RecordNamed(prof::RecordKind::kRangePush, kind, name ? name : "", prof::MonotonicNs(), 0);
  }
}

void Pop() {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  const int depth = t_depth > 0 ? --t_depth : -1;
  const bool pushed_recorded = depth < 0 || depth >= 64 || ((t_recorded >> depth) & 1);
  if (pushed_recorded && prof::Recording()) {
    prof::RecordNamed(prof::RecordKind::kRangePop, 0, nullptr, prof::MonotonicNs(), 0);
  }
}

}  // namespace

PROF_EXPORT void prof_step(int64_t num_samples) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  if (prof::Session* session = prof::Session::Current()) session->steps().Step(num_samples);
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
PROF_EXPORT void prof_operator_pop(void) { Pop(); }

PROF_EXPORT void prof_mark(const char* name) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  if (!prof::Recording()) return;
  prof::RecordNamed(prof::RecordKind::kMark, prof::schema::RANGE_KIND_MARK, name ? name : "",
                    prof::MonotonicNs(), 0);
}

PROF_EXPORT void prof_memory_sample(int32_t device, int64_t allocated, int64_t reserved,
                                    int64_t peak) {
  prof::ErrnoPreserved keep;  // the C API leaves the program's errno as it was
  if (!prof::Recording()) return;
  size_t size;
  prof::Record* record = prof::BeginRecord(prof::RecordKind::kMemorySample, nullptr, &size);
  if (!record) return;  // the buffer was full (counted there)
  const uint64_t now = prof::MonotonicNs();
  record->status = device;
  record->start_ns = now;
  record->end_ns = now;
  // Negative figures (a framework's "unknown") are stored as 0.
  record->args[0] = allocated > 0 ? static_cast<uint64_t>(allocated) : 0;
  record->args[1] = reserved > 0 ? static_cast<uint64_t>(reserved) : 0;
  record->args[2] = peak > 0 ? static_cast<uint64_t>(peak) : 0;
  record->args[3] = 0;
  prof::CommitRecord(size);
}
