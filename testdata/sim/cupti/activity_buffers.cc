#include "testdata/sim/cupti/activity_buffers.h"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "testdata/sim/cupti/cupti_clock.h"
#include "testdata/sim/cupti/cupti_config.h"
#include "testdata/sim/cupti/record_flavour.h"

namespace simcupti {
namespace {

struct QueuedRecord {
  alignas(8) uint8_t bytes[kMaxRecordBytes];
  size_t size;
  uint64_t ready_at_ns;
  bool has_times;
  RecordTimes times;
};

struct ClientBuffer {
  uint8_t* data = nullptr;
  size_t size = 0;
  size_t used = 0;
  uint32_t records = 0;
};

// `queue_mutex` guards the queue and counters (held briefly, never across client code).
// `delivery_mutex` serializes packing and delivery, which call the client's callbacks.
struct Buffers {
  std::mutex queue_mutex;
  std::deque<QueuedRecord> queue;
  uint64_t records_seen = 0;
  size_t dropped = 0;
  CUpti_BuffersCallbackRequestFunc requested = nullptr;
  CUpti_BuffersCallbackCompleteFunc completed = nullptr;
  bool worker_running = false;
  std::mutex delivery_mutex;
  ClientBuffer current;
  // Whether `current` holds a client buffer (written under delivery_mutex), so the record
  // path asks for one only when none is held.
  std::atomic<bool> holds_current{false};
};

void LockBeforeFork();
void UnlockAfterFork();
void UnlockAndResetInChild();

Buffers& TheBuffers() {
  // Never destroyed: the background thread may still run during exit.
  static Buffers* buffers = [] {
    auto* created = new Buffers();
    pthread_atfork(LockBeforeFork, UnlockAfterFork, UnlockAndResetInChild);
    return created;
  }();
  return *buffers;
}

void LockBeforeFork() {
  TheBuffers().delivery_mutex.lock();
  TheBuffers().queue_mutex.lock();
}
void UnlockAfterFork() {
  TheBuffers().queue_mutex.unlock();
  TheBuffers().delivery_mutex.unlock();
}

void UnlockAndResetInChild() {
  UnlockAfterFork();
  ResetAfterFork();
}

void WorkerLoop() {
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(Config().flush_period_ms));
    if (!Config().late_buffers) FlushRecords(false);
  }
}

void StartWorkerLocked(Buffers& buffers) {
  if (buffers.worker_running) return;
  buffers.worker_running = true;
  std::thread(WorkerLoop).detach();
}

std::vector<QueuedRecord> TakeDeliverable(Buffers& buffers, bool forced) {
  std::lock_guard<std::mutex> lock(buffers.queue_mutex);
  std::vector<QueuedRecord> taken;
  uint64_t now = MonotonicNowNs();
  std::deque<QueuedRecord> waiting;
  for (QueuedRecord& record : buffers.queue) {
    if (record.ready_at_ns <= now) {
      taken.push_back(record);
    } else if (forced) {
      uint64_t unknown = CUPTI_TIMESTAMP_UNKNOWN;
      std::memcpy(record.bytes + record.times.start_offset, &unknown, sizeof(unknown));
      std::memcpy(record.bytes + record.times.end_offset, &unknown, sizeof(unknown));
      taken.push_back(record);
    } else {
      waiting.push_back(record);
    }
  }
  buffers.queue.swap(waiting);
  return taken;
}

void CountDrop(Buffers& buffers) {
  std::lock_guard<std::mutex> lock(buffers.queue_mutex);
  ++buffers.dropped;
}

bool BufferHasRoom(const ClientBuffer& buffer, size_t size) {
  if (buffer.data == nullptr) return false;
  if (Config().partial_buffers && buffer.records >= kPartialBufferRecords) return false;
  return buffer.used + size <= buffer.size;
}

// Packs one record, handing full buffers to `full`. Requires delivery_mutex.
void Pack(Buffers& buffers, const QueuedRecord& record, std::vector<ClientBuffer>* full) {
  size_t size = (record.size + 7) & ~size_t{7};
  ClientBuffer& current = buffers.current;
  if (!BufferHasRoom(current, size)) {
    if (current.data != nullptr) full->push_back(current);
    current = ClientBuffer();
    size_t max_records = 0;
    if (buffers.requested != nullptr) buffers.requested(&current.data, &current.size, &max_records);
    if (current.data == nullptr || current.size < size) {
      current = ClientBuffer();  // refused or too small: the record is lost, and counted
      buffers.holds_current.store(false, std::memory_order_release);
      return CountDrop(buffers);
    }
  }
  buffers.holds_current.store(true, std::memory_order_release);
  std::memcpy(current.data + current.used, record.bytes, record.size);
  current.used += size;
  ++current.records;
}

void AddRecordLocked(Buffers& buffers, const void* record, size_t size,
                     uint64_t ready_at_monotonic_ns, const RecordTimes* times) {
  std::lock_guard<std::mutex> lock(buffers.queue_mutex);
  ++buffers.records_seen;
  uint64_t every = Config().drop_every;
  if (every != 0 && buffers.records_seen % every == 0) {
    ++buffers.dropped;
    return;
  }
  buffers.queue.emplace_back();
  QueuedRecord& queued = buffers.queue.back();
  std::memcpy(queued.bytes, record, size);
  queued.size = size;
  queued.ready_at_ns = ready_at_monotonic_ns;
  queued.has_times = times != nullptr;
  queued.times = times != nullptr ? *times : RecordTimes{0, 0};
}

// With delivery_mutex held and no buffer current: asks the registered client for one
// (without queue_mutex: the client's callback runs here).
void RequestCurrentLocked(Buffers& buffers) {
  CUpti_BuffersCallbackRequestFunc requested;
  {
    std::lock_guard<std::mutex> lock(buffers.queue_mutex);
    requested = buffers.requested;
  }
  if (requested == nullptr) return;
  size_t max_records = 0;
  requested(&buffers.current.data, &buffers.current.size, &max_records);
  if (buffers.current.data == nullptr) buffers.current = ClientBuffer();
  buffers.holds_current.store(buffers.current.data != nullptr, std::memory_order_release);
}

// The real CUPTI asks for a buffer when it has a record to store, not when it delivers: a
// client (Kineto) that flushes only while CUPTI holds one of its buffers relies on that.
void HoldClientBuffer(Buffers& buffers) {
  if (buffers.holds_current.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> delivery(buffers.delivery_mutex);
  if (buffers.current.data == nullptr) RequestCurrentLocked(buffers);
}

}  // namespace

void SetBufferCallbacks(CUpti_BuffersCallbackRequestFunc requested,
                        CUpti_BuffersCallbackCompleteFunc completed) {
  Buffers& buffers = TheBuffers();
  std::lock_guard<std::mutex> lock(buffers.queue_mutex);
  buffers.requested = requested;
  buffers.completed = completed;
  StartWorkerLocked(buffers);
}

bool HasBufferCallbacks() {
  Buffers& buffers = TheBuffers();
  std::lock_guard<std::mutex> lock(buffers.queue_mutex);
  return buffers.requested != nullptr && buffers.completed != nullptr;
}

void AddRecord(const void* record, size_t size, uint64_t ready_at_monotonic_ns,
               const RecordTimes* times) {
  Buffers& buffers = TheBuffers();
  AddRecordLocked(buffers, record, size, ready_at_monotonic_ns, times);
  HoldClientBuffer(buffers);
}

void FlushRecords(bool forced) {
  Buffers& buffers = TheBuffers();
  std::lock_guard<std::mutex> delivery(buffers.delivery_mutex);
  std::vector<QueuedRecord> records = TakeDeliverable(buffers, forced);
  std::vector<ClientBuffer> full;
  for (const QueuedRecord& record : records) Pack(buffers, record, &full);
  // Forced: a buffer held without records goes back too (empty), so no buffer of one client
  // is left in CUPTI when another registers its callbacks.
  if (buffers.current.data != nullptr && (buffers.current.records > 0 || forced)) {
    full.push_back(buffers.current);
    buffers.current = ClientBuffer();
    buffers.holds_current.store(false, std::memory_order_release);
  }
  CUpti_BuffersCallbackCompleteFunc completed;
  {
    std::lock_guard<std::mutex> lock(buffers.queue_mutex);
    completed = buffers.completed;
  }
  for (const ClientBuffer& buffer : full) {
    if (completed != nullptr) completed(nullptr, 0, buffer.data, buffer.size, buffer.used);
  }
  // SIM_CUPTI_HOLD_AFTER_FLUSH: as CUDA 13.0's CUPTI did on an H200 (../shared gpu probe,
  // co_late), a forced flush leaves CUPTI holding a buffer of the client registered then:
  // it asks for a new one at once and keeps it until its next flush, whoever registers in
  // between. A client that registers later gets its records in that buffer, completed
  // through its own callback (Kineto: "bufferCompleted called with unknown buffer").
  if (forced && Config().hold_after_flush && buffers.current.data == nullptr) {
    RequestCurrentLocked(buffers);
  }
}

size_t TakeDroppedCount() {
  Buffers& buffers = TheBuffers();
  std::lock_guard<std::mutex> lock(buffers.queue_mutex);
  size_t dropped = buffers.dropped;
  buffers.dropped = 0;
  return dropped;
}

void ResetAfterFork() {
  Buffers& buffers = TheBuffers();
  std::lock_guard<std::mutex> lock(buffers.queue_mutex);
  buffers.queue.clear();  // the parent delivers these; the child must not duplicate them
  buffers.current = ClientBuffer();
  buffers.holds_current.store(false, std::memory_order_relaxed);
  buffers.worker_running = false;
  if (buffers.requested != nullptr) StartWorkerLocked(buffers);
}

size_t RecordSize(const CUpti_Activity* record) {
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return sizeof(KernelRecord);
    case CUPTI_ACTIVITY_KIND_MEMCPY: return sizeof(MemcpyRecord);
    case CUPTI_ACTIVITY_KIND_MEMSET: return sizeof(MemsetRecord);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: return sizeof(ApiRecord);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: return sizeof(SynchronizationRecord);
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: return sizeof(CUpti_ActivityExternalCorrelation);
    default: return 0;
  }
}

}  // namespace simcupti
