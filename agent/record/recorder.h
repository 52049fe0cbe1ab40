// The hot path: what every hook calls. In order: one relaxed load of the recording flag
// (the only cost while not recording), two timestamps, one append to the calling thread's
// buffer. No lock, no allocation (after a thread's first record), no system call, no
// formatting. Names are copied raw; the writer thread interns them.
//
//   if (!prof::Recording()) return real(args...);
//   const uint64_t start = prof::MonotonicNs();
//   auto result = real(args...);
//   prof::RecordApiCall(kApiCudaMemcpy, start, prof::MonotonicNs(), result, ...);
#ifndef PROF_AGENT_RECORD_RECORDER_H_
#define PROF_AGENT_RECORD_RECORDER_H_

#include <atomic>
#include <cstdint>
#include <cstring>

#include "agent/record/buffer_registry.h"
#include "agent/record/call_stack.h"
#include "agent/record/clock.h"
#include "agent/record/record.h"

namespace prof {

namespace internal {
// Bit kModeRecording: a window records (set by the step controller). Bit kModeMarkers:
// PROF_STEP_MARKER rules exist (set at start-up). Read by every hook: while it is 0 a
// hook costs one load and one predictable branch.
constexpr uint8_t kModeRecording = 1;
constexpr uint8_t kModeMarkers = 2;
// Bit kModeFlight: PROF_FLIGHT=1 (set at start-up, flight_ring.h): every hook takes its
// slow path for it (NCCL calls to the call ring, CUDA runtime calls to the host rings).
constexpr uint8_t kModeFlight = 4;
extern std::atomic<uint8_t> g_hook_mode;
// Correlation id of the CUDA call in progress on this thread, set by CUPTI's API-enter
// callback (0 when CUPTI is not subscribed). kAwaitingCorrelation while a hook is calling
// the real function: the callback then knows a hook records this call (AwaitCorrelationId).
extern thread_local uint64_t t_correlation_id __attribute__((tls_model("initial-exec")));
constexpr uint64_t kAwaitingCorrelation = ~uint64_t{0};
}  // namespace internal

inline bool Recording() {
  return internal::g_hook_mode.load(std::memory_order_relaxed) & internal::kModeRecording;
}

inline void SetRecording(bool recording) {
  if (recording) {
    internal::g_hook_mode.fetch_or(internal::kModeRecording, std::memory_order_relaxed);
  } else {
    internal::g_hook_mode.fetch_and(~internal::kModeRecording, std::memory_order_relaxed);
  }
}

// A hook, before calling the real function: the runtime call CUPTI reports next on this
// thread is the hook's. A call CUPTI reports without this mark came through no hook (a
// library's own static runtime, a statically linked program): its callback records it.
inline void AwaitCorrelationId() { internal::t_correlation_id = internal::kAwaitingCorrelation; }
// The id CUPTI gave this thread's last call (0: none, CUPTI not subscribed).
inline uint64_t CurrentCorrelationId() {
  const uint64_t id = internal::t_correlation_id;
  return id == internal::kAwaitingCorrelation ? 0 : id;
}
// The hook's read after the real call: its id, and the mark is gone (a call CUPTI did not
// report must not leave the next unhooked call looking hooked).
inline uint64_t TakeCorrelationId() {
  const uint64_t id = CurrentCorrelationId();
  internal::t_correlation_id = 0;
  return id;
}

// Where a record of type T keeps its name (and, after it, its call stack).
template <typename T>
inline char* NameArea(T* record) {
  return reinterpret_cast<char*>(record) + sizeof(T);
}

namespace internal {
// The header every recorder writes, in one place: the size and the kind, the other
// fields zero (a caller that sets one stores it after: the compiler drops the zero).
inline void WriteHeader(Record* record, RecordKind kind, size_t size, uint32_t name_length) {
  record->size = static_cast<uint16_t>(size);
  record->kind = kind;
  record->subkind = 0;
  record->api = 0;
  record->flags = 0;
  record->status = 0;
  record->name_length = name_length;
  record->correlation_id = 0;
}

// BeginRecord's work, with the kind checked by its callers (BeginRecord, RecordNamed).
template <typename T>
inline T* BeginRecordOfKind(RecordKind kind, const char* name, size_t* size, size_t extra_bytes) {
  const size_t name_length = name ? std::strlen(name) : 0;
  // As RecordSize(kind, name_length), with the kind's size known here.
  *size = ((sizeof(T) + (name_length ? name_length + 1 : 0) + 7) & ~size_t{7}) + extra_bytes;
  ThreadBuffer* buffer = CurrentThreadBuffer();
  if (!buffer) return nullptr;
  Record* header = buffer->Reserve(*size);
  // No room in the pool: control kinds take the control ring, the rest is counted lost.
  if (__builtin_expect(!header, 0) && !(header = buffer->ReserveFallback(kind, *size))) {
    return nullptr;
  }
  T* record = static_cast<T*>(header);
  WriteHeader(record, kind, *size, static_cast<uint32_t>(name_length));
  if (name_length) {
    std::memcpy(NameArea(record), name, name_length);
    NameArea(record)[name_length] = '\0';
  }
  return record;
}

// RecordNamed's work, out of line: one copy for all its kinds.
void RecordNamedOfKind(RecordKind kind, uint8_t subkind, const char* name, uint64_t time_ns,
                       uint64_t range_id, const char* domain);
}  // namespace internal

// Appends a record of kind `kind` in its struct T (record.h) with `name` (may be null)
// copied after it; returns nullptr when it found no room (counted lost, by step, in the
// thread's buffer). The header is filled but for the times; call CommitRecord with the
// same size after filling the rest. The kind is T's own (kKind) unless T serves several:
// BeginRecord<NamedRecord, RecordKind::kMark>. A kind T does not serve does not compile.
template <typename T, RecordKind kind = T::kKind>
inline T* BeginRecord(const char* name, size_t* size, size_t extra_bytes = 0) {
  static_assert(RecordServes<T>(kind), "T is not the struct of records of this kind");
  return internal::BeginRecordOfKind<T>(kind, name, size, extra_bytes);
}

inline void CommitRecord(size_t size) { internal::t_buffer->Commit(size); }

// Stores `count` frames after the record's name (space reserved by BeginRecord).
inline void AttachFrames(Record* record, const uint64_t* frames, int count) {
  std::memcpy(const_cast<uint64_t*>(FramesOf(*record)), frames, count * sizeof(uint64_t));
  record->flags |= kRecordHasStack | static_cast<uint16_t>(count << 8);
}

// Names longer than this are cut (and the record's name_length says the full length was
// longer): a record must fit the ring's 16-bit size field.
constexpr size_t kMaxNameLength = 4096;

// A CUDA runtime/driver API call with its arguments (ApiCallRecord, record.h).
struct ApiArguments {
  uint64_t stream_plus_one = 0;
  uint64_t bytes = 0;
  uint64_t copy_kind = 0;  // cudaMemcpyKind + 1; 0: not a copy
  const void* function = nullptr;
  const LaunchGeometry* launch = nullptr;
  // A launch already packed (record.h PackLaunch): recorded in one line. Else `launch`,
  // packed here when it fits, recorded whole when not.
  const PackedLaunch* packed_launch = nullptr;
};

namespace internal {
// The fields every API call record shares (ApiCallRecord, LaunchRecord), and its commit.
inline void FinishApiCall(Record* record, uint16_t api, uint64_t start_ns, uint64_t end_ns,
                          int32_t status, size_t size) {
  record->api = api;
  record->status = status;
  record->start_ns = start_ns;
  record->end_ns = end_ns;
  record->correlation_id = TakeCorrelationId();
  CommitRecord(size);
}
}  // namespace internal

inline void RecordApiCall(uint16_t api, uint64_t start_ns, uint64_t end_ns, int32_t status,
                          const ApiArguments& arguments) {
  // Launch sites get a call stack with PROF_STACKS=1 (one predictable branch otherwise).
  uint64_t frames[kMaxStackFrames];
  const int frame_count =
      internal::g_stacks && arguments.function ? CaptureCallStack(frames, kMaxStackFrames) : 0;
  size_t size;
  // A launch in one cache line when its values fit (record.h LaunchRecord).
  const PackedLaunch* packed = arguments.packed_launch;
  PackedLaunch packed_here;
  if (!packed && arguments.launch &&
      PackLaunch(arguments.function, arguments.stream_plus_one, *arguments.launch, &packed_here)) {
    packed = &packed_here;
  }
  if (packed) {
    LaunchRecord* record = BeginRecord<LaunchRecord>(nullptr, &size, frame_count * 8);
    if (!record) return;
    if (frame_count) AttachFrames(record, frames, frame_count);
    record->launch = *packed;
    return internal::FinishApiCall(record, api, start_ns, end_ns, status, size);
  }
  ApiCallRecord* record = BeginRecord<ApiCallRecord>(nullptr, &size, frame_count * 8);
  if (!record) return;
  if (frame_count) AttachFrames(record, frames, frame_count);
  record->stream_plus_one = arguments.stream_plus_one;
  record->bytes = arguments.bytes;
  record->copy_kind_plus_one = arguments.copy_kind;
  record->function = arguments.function;
  if (arguments.launch) record->launch = *arguments.launch;
  internal::FinishApiCall(record, api, start_ns, end_ns, status, size);
}

namespace internal {
// RecordLaunch's rare cases, out of line, through RecordApiCall; the program's errno kept
// (a chunk taken or a thread's first buffer may make system calls).
void RecordLaunchSlow(uint16_t api, uint64_t start_ns, uint64_t end_ns, int32_t status,
                      const void* function, const PackedLaunch& launch);
}  // namespace internal

// A launch already packed (record.h PackLaunch): what RecordApiCall does for one, with the
// work a launch never needs left out of the common case (no ApiArguments to fill and read
// back, no name, no second look at the thread's buffer). Call stacks (PROF_STACKS=1), a
// thread's first record and a full chunk go through RecordLaunchSlow. The common case
// only stores to the thread's buffer, so the caller need not keep errno around it.
inline void RecordLaunch(uint16_t api, uint64_t start_ns, uint64_t end_ns, int32_t status,
                         const void* function, const PackedLaunch& launch) {
  constexpr size_t kSize = sizeof(LaunchRecord);
  static_assert(kSize == RecordSize(RecordKind::kLaunch, 0), "a launch record has no name");
  ThreadBuffer* buffer = internal::t_buffer;
  if (__builtin_expect(!buffer || internal::g_stacks || !buffer->Fits(kSize), 0)) {
    return internal::RecordLaunchSlow(api, start_ns, end_ns, status, function, launch);
  }
  LaunchRecord* record = static_cast<LaunchRecord*>(buffer->Reserve(kSize));
  internal::WriteHeader(record, RecordKind::kLaunch, kSize, 0);
  record->api = api;
  record->status = status;
  record->start_ns = start_ns;
  record->end_ns = end_ns;
  record->correlation_id = TakeCorrelationId();
  record->launch = launch;
  buffer->Commit(kSize);
}

// A named instant or boundary (range push/pop, marks, thread names) at `time_ns`, of one
// of NamedRecord's kinds (checked when compiled). `domain` (NVTX domain name, null for the
// default) must outlive the process: it is kept as a pointer and read by the writer.
template <RecordKind kind>
inline void RecordNamed(uint8_t subkind, const char* name, uint64_t time_ns, uint64_t range_id,
                        const char* domain = nullptr) {
  static_assert(RecordServes<NamedRecord>(kind), "not a kind of NamedRecord");
  internal::RecordNamedOfKind(kind, subkind, name, time_ns, range_id, domain);
}

// The end of a step (StepRecord): `step` ran from start_ns to end_ns; `samples` as given
// to prof_step.
void RecordStep(int64_t step, int64_t samples, uint64_t start_ns, uint64_t end_ns);

// An operator range push with its input shapes, dtypes and calling source line
// (kOperatorPushDetail); any text may be null. Each is cut at kMaxNameLength.
void RecordOperatorPushDetail(const char* name, const char* shapes, const char* dtypes,
                              const char* source, uint64_t time_ns);

// A whole operator range that already ended (kOperatorRangeDetail), texts as above.
void RecordOperatorRangeDetail(const char* name, const char* shapes, const char* dtypes,
                               const char* source, uint64_t start_ns, uint64_t end_ns);

// A whole operator range without details (kOperatorRange): the name (null: none, cut at
// kMaxNameLength) and its times; an end before the start is clamped to it.
void RecordOperatorRange(const char* name, uint64_t start_ns, uint64_t end_ns);

namespace internal {
// An operator record's fields after its header: the name (`length`, already cut, in the
// header's name_length) and the times. Inline by force into both of RecordOperatorRange's paths.
[[gnu::always_inline]] inline void FillOperatorRange(OperatorRangeRecord* record, const char* name,
                                                     size_t length, uint64_t start_ns,
                                                     uint64_t end_ns) {
  char* text = NameArea(record);
  if (length >= 8 && length <= 32) {
    // An operator's name is mostly 8-32 bytes: copied as two or four overlapping words,
    // where memcpy's inline expansion (a size dispatch and rep movsq) was ~18 instructions
    // an operator (callgrind).
    uint64_t first, second, third, fourth;
    std::memcpy(&first, name, 8);
    std::memcpy(&fourth, name + length - 8, 8);
    if (length > 16) {
      std::memcpy(&second, name + 8, 8);
      std::memcpy(&third, name + length - 16, 8);
      std::memcpy(text + 8, &second, 8);
      std::memcpy(text + length - 16, &third, 8);
    }
    std::memcpy(text, &first, 8);
    std::memcpy(text + length - 8, &fourth, 8);
  } else if (length) {
    std::memcpy(text, name, length);
  }
  if (length) text[length] = '\0';  // RecordSize counts a NUL only after a name
  record->start_ns = start_ns;
  record->end_ns = end_ns < start_ns ? start_ns : end_ns;
}

// RecordOperatorRange's rare cases, out of line: a thread's first record (its buffer made)
// and a full chunk (a chunk taken, the doorbell, the fallback), which may make system
// calls, so the program's errno is kept here (and only here). `length` is already cut.
void RecordOperatorRangeSlow(const char* name, size_t length, uint64_t start_ns, uint64_t end_ns);
}  // namespace internal

// The same with the name's length known (strlen(name); the torch observer measures it at
// the operator's start): no strlen here. Inline by force, into the observer's sink (left
// to itself the compiler kept it out of line, a call and a frame an operator). The common
// case (the thread's buffer has room in its chunk) only stores to the buffer, so the
// caller need not keep errno around it: RecordOperatorRangeSlow keeps it for the rest.
[[gnu::always_inline]] inline void RecordOperatorRange(const char* name, size_t full_length,
                                                       uint64_t start_ns, uint64_t end_ns) {
  const size_t length = full_length < kMaxNameLength ? full_length : kMaxNameLength;
  const size_t size = RecordSize(RecordKind::kOperatorRange, length);
  ThreadBuffer* buffer = internal::t_buffer;
  if (__builtin_expect(!buffer || !buffer->Fits(size), 0)) {
    return internal::RecordOperatorRangeSlow(name, length, start_ns, end_ns);
  }
  // BeginRecordOfKind's header, with the kind's size known and the name filled below.
  OperatorRangeRecord* record = static_cast<OperatorRangeRecord*>(buffer->Reserve(size));
  internal::WriteHeader(record, RecordKind::kOperatorRange, size, static_cast<uint32_t>(length));
  internal::FillOperatorRange(record, name, length, start_ns, end_ns);
  buffer->Commit(size);
}

}  // namespace prof

#endif  // PROF_AGENT_RECORD_RECORDER_H_
