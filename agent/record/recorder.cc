#include "agent/record/recorder.h"

#include <algorithm>

namespace prof {
namespace internal {
std::atomic<uint8_t> g_hook_mode{0};
thread_local uint64_t t_correlation_id __attribute__((tls_model("initial-exec"))) = 0;
}  // namespace internal

void RecordNamed(RecordKind kind, uint8_t subkind, const char* name, uint64_t time_ns,
                 uint64_t range_id, const char* domain) {
  char shortened[kMaxNameLength + 1];
  if (name && std::strlen(name) > kMaxNameLength) {
    std::memcpy(shortened, name, kMaxNameLength);
    shortened[kMaxNameLength] = '\0';
    name = shortened;
  }
  size_t size;
  Record* record = BeginRecord(kind, name, &size);
  if (!record) return;
  record->subkind = subkind;
  record->start_ns = time_ns;
  record->end_ns = time_ns;
  record->correlation_id = range_id;
  record->args[0] = reinterpret_cast<uint64_t>(domain);
  CommitRecord(size);
}

}  // namespace prof
