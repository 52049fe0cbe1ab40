#include "agent/record/thread_buffer.h"

#include "agent/record/writer_doorbell.h"
#include "proto/schema_enums.h"

namespace prof {
namespace {

// Steps must never be lost: they may fill the whole control ring.
bool IsStepKind(RecordKind kind) { return kind == RecordKind::kStep; }

// Ranges, marks and thread names may use the control ring's first half. Operator pushes
// with details are ranges too: their pop is a kRangePop, and the two must be kept alike.
bool IsRangeKind(RecordKind kind) {
  return kind == RecordKind::kRangePush || kind == RecordKind::kRangePop ||
         kind == RecordKind::kOperatorPushDetail || kind == RecordKind::kOperatorRangeDetail ||
         kind == RecordKind::kOperatorRange || kind == RecordKind::kRangeStart ||
         kind == RecordKind::kRangeEnd || kind == RecordKind::kMark ||
         kind == RecordKind::kThreadName;
}

}  // namespace

ThreadBuffer::ThreadBuffer(uint64_t thread_id, ChunkPool* pool, uint32_t wake_chunks)
    : thread_id_(thread_id),
      pool_(pool),
      wake_chunks_(wake_chunks),
      call_losses_(schema::LOSS_KIND_HOST_BUFFER_FULL),
      range_losses_(schema::LOSS_KIND_HOST_RANGE_DROPPED),
      control_losses_(schema::LOSS_KIND_CONTROL_RECORD_LOST) {}

ThreadBuffer::~ThreadBuffer() {
  // Tests only: the owner is gone and nothing drains any more.
  RecordChunk* chunk = read_ ? read_ : first_.load(std::memory_order_acquire);
  while (chunk) {
    RecordChunk* next = chunk->next.load(std::memory_order_acquire);
    pool_->Give(chunk);
    chunk = next;
  }
}

// Producer, once per chunk: links a new chunk after the current one. The current chunk's
// last `committed` store precedes the `next` store (release), so the writer that sees the
// link sees the chunk's final length.
Record* ThreadBuffer::ReserveChunk(size_t size) {
  if (size > kChunkPayload) return nullptr;
  RecordChunk* chunk = pool_->Take();
  if (!chunk) return nullptr;
  if (current_) {
    current_->next.store(chunk, std::memory_order_release);
  } else {
    first_.store(chunk, std::memory_order_release);
  }
  current_ = chunk;
  base_ = chunk->data();
  offset_ = 0;
  limit_ = static_cast<uint32_t>(kChunkPayload);
  const uint64_t taken = taken_.load(std::memory_order_relaxed) + 1;
  taken_.store(taken, std::memory_order_relaxed);
  // The crossing append rings, once; the writer then drains and gives chunks back.
  if (taken - given_.load(std::memory_order_relaxed) == wake_chunks_) TheWriterDoorbell().Ring();
  return reinterpret_cast<Record*>(base_);
}

Record* ThreadBuffer::ReserveFallback(RecordKind kind, size_t size) {
  const bool step = IsStepKind(kind);
  if (step || IsRangeKind(kind)) {
    const size_t limit = step ? control_.capacity() : control_.capacity() / 2;
    if (Record* record = control_.Reserve(size, limit)) {
      in_control_ = true;
      return record;
    }
  }
  // Lost: counted in the step the program is in (a drop path: a CAS, no system call).
  (step ? control_losses_ : IsRangeKind(kind) ? range_losses_ : call_losses_).Add(CurrentStep());
  return nullptr;
}

void ThreadBuffer::CommitControl(size_t size) {
  control_.Commit(size);
  in_control_ = false;
}

const Record* ThreadBuffer::PeekDataSlow() {
  // Records below read_limit_ (a `committed` value this thread acquired) are complete and
  // visible: they are read without touching the chunk's header again. `committed` is loaded
  // only once they are used up, so while the producer appends to the chunk the writer is
  // reading, the header's cache line moves between the two cores once per batch instead of
  // once per record (each move costs the producer's next Commit a cache miss).
  if (!read_) {
    read_ = first_.load(std::memory_order_acquire);
    read_offset_ = 0;
    read_limit_ = 0;
    if (!read_) return nullptr;
  }
  while (true) {
    read_limit_ = read_->committed.load(std::memory_order_acquire);
    if (read_offset_ < read_limit_) {
      return reinterpret_cast<const Record*>(read_->data() + read_offset_);
    }
    RecordChunk* next = read_->next.load(std::memory_order_acquire);
    if (!next) return nullptr;
    // The producer has moved on: `committed` is final now; read what it added first.
    if (read_offset_ < read_->committed.load(std::memory_order_acquire)) continue;
    pool_->Give(read_);
    given_.store(given_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    read_ = next;
    read_offset_ = 0;
    read_limit_ = 0;
  }
}

void ThreadBuffer::TakeLosses(const std::function<void(int32_t, int64_t, uint64_t)>& report) {
  call_losses_.Take(report);
  range_losses_.Take(report);
  control_losses_.Take(report);
}

// Writer thread. The owner has exited (acquire: its last records are visible) and nothing
// is left: the chunk it was writing goes back to the pool, and the buffer may be adopted.
void ThreadBuffer::ReleaseIfExited() {
  if (released_.load(std::memory_order_relaxed)) return;
  if (!owner_exited.load(std::memory_order_acquire) || !empty()) return;
  if (read_) {
    pool_->Give(read_);
    given_.store(given_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  read_ = nullptr;
  read_offset_ = 0;
  read_limit_ = 0;
  first_.store(nullptr, std::memory_order_relaxed);
  control_.Publish();
  released_.store(true, std::memory_order_release);
}

// The adopting thread, under the registry's mutex, after `released` (acquire): the writer
// has reset its side; the producer side is reset here, before any append.
void ThreadBuffer::Adopt(uint64_t thread_id) {
  base_ = nullptr;
  offset_ = 0;
  limit_ = 0;
  in_control_ = false;
  current_ = nullptr;
  thread_id_.store(thread_id, std::memory_order_release);
  owner_exited.store(false, std::memory_order_release);
  released_.store(false, std::memory_order_release);
}

}  // namespace prof
