#include "agent/record/recorder.h"

#include <algorithm>
#include <cstring>

#include "agent/record/errno_preserved.h"

namespace prof {
namespace internal {
std::atomic<uint8_t> g_hook_mode{0};
thread_local uint64_t t_correlation_id __attribute__((tls_model("initial-exec"))) = 0;
}  // namespace internal

namespace internal {

void RecordLaunchSlow(uint16_t api, uint64_t start_ns, uint64_t end_ns, int32_t status,
                      const void* function, const PackedLaunch& launch) {
  ErrnoPreserved keep;
  ApiArguments arguments;
  arguments.function = function;
  arguments.packed_launch = &launch;
  RecordApiCall(api, start_ns, end_ns, status, arguments);
}

void RecordOperatorRangeSlow(const char* name, size_t length, uint64_t start_ns, uint64_t end_ns) {
  ErrnoPreserved keep;
  size_t size;
  // The name as extra bytes: copied by FillOperatorRange.
  OperatorRangeRecord* record = BeginRecord<OperatorRangeRecord>(
      nullptr, &size, RecordSize(RecordKind::kOperatorRange, length) - sizeof(OperatorRangeRecord));
  if (!record) return;
  record->name_length = static_cast<uint32_t>(length);
  FillOperatorRange(record, name, length, start_ns, end_ns);
  CommitRecord(size);
}

void RecordNamedOfKind(RecordKind kind, uint8_t subkind, const char* name, uint64_t time_ns,
                       uint64_t range_id, const char* domain) {
  char shortened[kMaxNameLength + 1];
  if (name && std::strlen(name) > kMaxNameLength) {
    std::memcpy(shortened, name, kMaxNameLength);
    shortened[kMaxNameLength] = '\0';
    name = shortened;
  }
  size_t size;
  NamedRecord* record = BeginRecordOfKind<NamedRecord>(kind, name, &size, 0);
  if (!record) return;
  record->subkind = subkind;
  record->start_ns = time_ns;
  record->end_ns = time_ns;
  record->correlation_id = range_id;
  record->domain = domain;
  CommitRecord(size);
}

}  // namespace internal

void RecordStep(int64_t step, int64_t samples, uint64_t start_ns, uint64_t end_ns) {
  size_t size;
  StepRecord* record = BeginRecord<StepRecord>(nullptr, &size);
  if (!record) return;  // the control ring was full: counted there
  record->start_ns = start_ns;
  record->end_ns = end_ns;
  record->step = step;
  record->samples = samples;
  CommitRecord(size);
}

namespace {

template <RecordKind kind>
void RecordOperatorDetail(const char* name, const char* shapes, const char* dtypes,
                          const char* source, uint64_t start_ns, uint64_t end_ns) {
  const char* texts[4] = {name, shapes, dtypes, source};
  size_t lengths[4];
  size_t total = 0;
  for (int i = 0; i < 4; ++i) {
    lengths[i] = texts[i] ? std::min(std::strlen(texts[i]), kMaxNameLength) : 0;
    total += lengths[i] + (i < 3 ? 1 : 0);  // NUL separators; BeginRecord adds the last
  }
  // 4 x 4 KiB at most: well inside the record's 16-bit size.
  size_t size;
  OperatorDetailRecord* record = BeginRecord<OperatorDetailRecord, kind>(
      nullptr, &size, RecordSize(kind, total) - RecordSize(kind, 0));
  if (!record) return;
  char* cursor = NameArea(record);
  for (int i = 0; i < 4; ++i) {
    if (lengths[i]) std::memcpy(cursor, texts[i], lengths[i]);
    cursor += lengths[i];
    *cursor++ = '\0';
  }
  record->name_length = static_cast<uint32_t>(total);
  record->start_ns = start_ns;
  record->end_ns = end_ns;
  CommitRecord(size);
}

}  // namespace

void RecordOperatorPushDetail(const char* name, const char* shapes, const char* dtypes,
                              const char* source, uint64_t time_ns) {
  RecordOperatorDetail<RecordKind::kOperatorPushDetail>(name, shapes, dtypes, source, time_ns,
                                                        time_ns);
}

void RecordOperatorRangeDetail(const char* name, const char* shapes, const char* dtypes,
                               const char* source, uint64_t start_ns, uint64_t end_ns) {
  RecordOperatorDetail<RecordKind::kOperatorRangeDetail>(name, shapes, dtypes, source, start_ns,
                                                         end_ns < start_ns ? start_ns : end_ns);
}

void RecordOperatorRange(const char* name, uint64_t start_ns, uint64_t end_ns) {
  RecordOperatorRange(name, name ? std::strlen(name) : 0, start_ns, end_ns);
}

}  // namespace prof
