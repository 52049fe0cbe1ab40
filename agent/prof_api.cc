// The exported C API (include/prof/prof.h).
#include "agent/include/prof/prof.h"

#include "agent/control/session.h"
#include "agent/hooks/hook_support.h"
#include "agent/record/recorder.h"
#include "proto/trace.pb.h"

namespace {

void Push(prof::trace::RangeKind kind, const char* name) {
  if (!prof::Recording()) return;
  prof::RecordNamed(prof::RecordKind::kRangePush, kind, name ? name : "", prof::MonotonicNs(), 0);
}

void Pop() {
  if (!prof::Recording()) return;
  prof::RecordNamed(prof::RecordKind::kRangePop, 0, nullptr, prof::MonotonicNs(), 0);
}

}  // namespace

PROF_EXPORT void prof_step(int64_t num_samples) {
  if (prof::Session* session = prof::Session::Current()) session->steps().Step(num_samples);
}

PROF_EXPORT void prof_range_push(const char* name) { Push(prof::trace::RANGE_KIND_USER, name); }
PROF_EXPORT void prof_range_pop(void) { Pop(); }
PROF_EXPORT void prof_phase_push(const char* name) {
  Push(prof::trace::RANGE_KIND_MODEL_PHASE, name);
}
PROF_EXPORT void prof_phase_pop(void) { Pop(); }
PROF_EXPORT void prof_operator_push(const char* name) {
  Push(prof::trace::RANGE_KIND_OPERATOR, name);
}
PROF_EXPORT void prof_operator_pop(void) { Pop(); }

PROF_EXPORT void prof_mark(const char* name) {
  if (!prof::Recording()) return;
  prof::RecordNamed(prof::RecordKind::kMark, prof::trace::RANGE_KIND_MARK, name ? name : "",
                    prof::MonotonicNs(), 0);
}
