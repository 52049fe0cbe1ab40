// The exported C API (include/prof/prof.h).
#include "agent/include/prof/prof.h"

#include <cstring>
#include <string>

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
  if (!session || index < 0 || !session->writer().FinishedWindow(static_cast<uint32_t>(index), &file)) {
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
