// One thread's records on their way to the writer: a chain of chunks borrowed from the
// PROF_BUFFER_MB pool (chunk_pool.h) for data records, and a small fixed control ring
// (record_ring.h) for the records that must never be lost. The owning thread appends, the
// writer thread drains and gives drained chunks back, so a hot thread can grow to the whole
// budget and shrink again. Nothing here blocks or allocates: with the pool exhausted a data
// record is dropped and counted by step (step_losses.h).
//
// Appends: the steady-state append is wait-free: a bounds check on the current chunk,
// writing the record, one release store of the chunk's `committed`. Once per chunk
// (~630 API calls) the slow path takes a new chunk from the pool (lock-free), links it, and,
// if the thread now holds its high-water mark of chunks, rings the writer's doorbell: only
// the append that crosses the mark rings (writer_doorbell.h).
//
// Control records (steps, ranges, marks, thread names) go to the current chunk like any
// other, in order; only when the pool has no room do they take the control ring instead:
// steps may fill it, ranges, marks and thread names only half of it, so steps always find
// room. The writer merges both by start time (DrainBefore).
//
// Memory order (see also RecordChunk): the producer publishes a record with a release store
// of its chunk's `committed`, and a new chunk with a release store of the previous chunk's
// `next` (or of `first_` for the first one) after the last record of the previous one; the
// writer reads them with acquire loads. The writer gives a chunk back only after it has seen
// its `next` and read up to its final `committed`, so the producer never writes a chunk the
// writer has given back. The chunk a thread is writing is never given back while the thread
// lives; once it has exited (owner_exited) and everything is drained, the writer gives back
// that last chunk too and marks the buffer released, and only then may a new thread adopt it.
//
// Thread safety: Reserve/ReserveFallback/Commit from the owning thread only; Adopt by the
// adopting thread under the registry's mutex, once `released`; everything else from the
// writer thread only.
#ifndef PROF_AGENT_RECORD_THREAD_BUFFER_H_
#define PROF_AGENT_RECORD_THREAD_BUFFER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "agent/record/chunk_pool.h"
#include "agent/record/record.h"
#include "agent/record/record_ring.h"
#include "agent/record/step_losses.h"

namespace prof {

// 4 KiB: about 73 step records, drained every few ms; counted against PROF_BUFFER_MB.
constexpr size_t kControlRingBytes = 4096;

class ThreadBuffer {
 public:
  // `wake_chunks`: the doorbell rings when the thread comes to hold this many chunks.
  ThreadBuffer(uint64_t thread_id, ChunkPool* pool, uint32_t wake_chunks);
  ~ThreadBuffer();  // gives its chunks back (tests; the registry never frees buffers)

  uint64_t thread_id() const { return thread_id_.load(std::memory_order_acquire); }

  // Space for a record of `size` bytes (a multiple of 8, at most kChunkPayload) in the data
  // chunks, or nullptr when the pool has none (then call ReserveFallback).
  Record* Reserve(size_t size) {
    if (Fits(size)) return reinterpret_cast<Record*>(base_ + offset_);
    return ReserveChunk(size);
  }

  // Whether Reserve(size) finds room in the current chunk: no chunk to take, no system
  // call, errno untouched.
  bool Fits(size_t size) const { return offset_ + size <= limit_; }

  // After Reserve failed: control kinds get the control ring; any record that finds no
  // room is counted lost, by kind and step. Returns nullptr when lost.
  Record* ReserveFallback(RecordKind kind, size_t size);

  // Publishes the record returned by the last Reserve or ReserveFallback.
  void Commit(size_t size) {
    if (__builtin_expect(in_control_, 0)) return CommitControl(size);
    offset_ += static_cast<uint32_t>(size);
    current_->committed.store(offset_, std::memory_order_release);
  }

  // Calls visit(const Record&) for every committed record, then frees their space.
  template <typename Visitor>
  uint64_t Drain(Visitor&& visit) {
    return DrainBefore(UINT64_MAX, visit);
  }

  // Like Drain, but each ring stops at its first record that starts at or after
  // `before_ns`: it and the records after it stay for a later call. A thread appends its
  // records in about the order of their start times, so stopping there holds back only what
  // must wait. Records of the two rings are visited in start-time order.
  //
  // The data records up to the next control record's start go as one batch, read from the
  // chunk's committed bytes without peeking the control ring again for each: peeking both
  // rings per record was ~55 instructions an operator on the writer (callgrind, issue 26).
  // A control record committed during a batch comes after it, as if it had been committed
  // just after the batch was read (the producer's timing decides that order anyway).
  template <typename Visitor>
  uint64_t DrainBefore(uint64_t before_ns, Visitor&& visit) {
    uint64_t count = 0;
    while (true) {
      const Record* data = PeekData();
      if (data && data->start_ns >= before_ns) data = nullptr;
      const Record* control = control_.Peek();
      if (control && control->start_ns >= before_ns) control = nullptr;
      if (!data && !control) break;
      if (data && (!control || data->start_ns <= control->start_ns)) {
        // Data records starting at or before `last_ns` go before the control record.
        // The read position is kept in locals through the batch: `visit` calls code the
        // compiler cannot see into, so members would be reloaded and stored for every
        // record. Nothing else reads or moves them meanwhile (writer thread only, and a
        // visitor never drains).
        const uint64_t last_ns = control ? control->start_ns : before_ns - 1;
        const uint8_t* const bytes = read_->data();
        const uint32_t limit = read_limit_;
        uint32_t offset = read_offset_;
        do {
          PrefetchAhead(data, bytes + limit);
          visit(*data);
          offset += data->size;
          ++count;
          if (offset >= limit) break;  // the chunk's end: PeekData's slow path
          data = reinterpret_cast<const Record*>(bytes + offset);
        } while (data->start_ns <= last_ns);
        read_offset_ = offset;
      } else {
        visit(*control);
        control_.Pop(*control);
        ++count;
      }
    }
    control_.Publish();
    return count;
  }

  // Reports and clears the records lost on this thread: report(loss kind, step, count).
  void TakeLosses(const std::function<void(int32_t, int64_t, uint64_t)>& report);

  // True when nothing committed is left to drain.
  bool empty() { return PeekData() == nullptr && control_.drained(); }

  // Once the owner has exited and everything is drained: gives the last chunk back and
  // marks the buffer free for adoption. Writer thread.
  void ReleaseIfExited();
  bool released() const { return released_.load(std::memory_order_acquire); }

  // A new thread takes over a released buffer; under the registry's mutex.
  void Adopt(uint64_t thread_id);

  // Chunks held now (taken, not yet given back): for tests and statistics.
  uint64_t chunks_held() const {
    return taken_.load(std::memory_order_relaxed) - given_.load(std::memory_order_relaxed);
  }

  // Set when the owning thread has exited (see buffer_registry.cc).
  std::atomic<bool> owner_exited{false};

 private:
  Record* ReserveChunk(size_t size);
  void CommitControl(size_t size);
  // The oldest unread data record, giving back chunks read to their end. Writer only.
  // Inline while records below read_limit_ remain (see PeekDataSlow).
  const Record* PeekData() {
    if (read_offset_ < read_limit_) {
      return reinterpret_cast<const Record*>(read_->data() + read_offset_);
    }
    return PeekDataSlow();
  }
  const Record* PeekDataSlow();
  // Asks for the lines a few records past `data` while `data` is converted: they were
  // written by the program's core a moment ago, and a read that waits for each in turn
  // cost the writer ~10 ns a launch (the record's second line, perf on launch_stress).
  // Only committed bytes: a line the producer is still writing would bounce between cores.
  void PrefetchAhead(const Record* data, const uint8_t* committed_end) {
    const uint8_t* ahead = reinterpret_cast<const uint8_t*>(data) + kPrefetchBytes;
    if (ahead < committed_end) __builtin_prefetch(ahead);
  }
  static constexpr size_t kPrefetchBytes = 256;

  std::atomic<uint64_t> thread_id_;
  ChunkPool* const pool_;
  const uint32_t wake_chunks_;

  // Producer only (the hot path's fields, together).
  uint8_t* base_ = nullptr;  // the current chunk's records
  uint32_t offset_ = 0;      // bytes committed in the current chunk
  uint32_t limit_ = 0;       // kChunkPayload, or 0 before the first chunk
  bool in_control_ = false;  // the pending record is in the control ring
  RecordChunk* current_ = nullptr;
  std::atomic<uint64_t> taken_{0};  // chunks ever taken (written by the producer only)

  std::atomic<RecordChunk*> first_{nullptr};  // the first chunk after a (re)start

  // Writer only.
  alignas(64) RecordChunk* read_ = nullptr;
  uint32_t read_offset_ = 0;
  uint32_t read_limit_ = 0;         // `committed` of read_ as last acquired (see PeekData)
  std::atomic<uint64_t> given_{0};  // chunks ever given back (written by the writer only)
  std::atomic<bool> released_{false};

  StepLossCounter call_losses_;     // API, NCCL and memory records
  StepLossCounter range_losses_;    // ranges, marks and thread names
  StepLossCounter control_losses_;  // steps (the control ring was full: never expected)
  RecordRing<kControlRingBytes> control_;
};

}  // namespace prof

#endif  // PROF_AGENT_RECORD_THREAD_BUFFER_H_
