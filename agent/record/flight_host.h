// The flight recorder's host activity (PROF_FLIGHT=1): the last CUDA runtime calls and
// ranges of each thread, whatever the recording state, so a dump (writer/flight_dump.h)
// can say what a rank was doing before it stopped: its last API call (one still running
// is kept too: a thread blocked in cudaStreamSynchronize shows it), its last range, and
// the last kernel launched on each stream (known without CUPTI from the launch hooks'
// function pointer). NCCL calls and steps stay in flight_ring.h.
//
// One ring per thread, owned by that thread: entries are intervals (an API call from its
// enter to its return, a range from its push to its pop) in slots of 128 bytes. The hot
// path (a hook on the program's thread) is one thread-local load, a ticket from the ring's
// own head (a plain increment: one writer), the slot's stores, and at the return or pop
// two more stores. No lock, no allocation, no system call, no atomic read-modify-write.
// A thread's first entry takes the slow path: it adopts the ring of an exited thread or
// allocates one. The first kFlightHostRings rings hold PROF_FLIGHT_HOST_ENTRIES; a thread
// beyond them gets a small ring of kFlightHostSmallEntries (its last few calls and ranges:
// a hang's diagnosis needs each thread's last call more than its history), counted in
// threads_small; a thread beyond kFlightHostAllRings keeps nothing and is counted in
// threads_refused.
//
// Concurrency: each slot is a seqlock whose only writer is the ring's owner. The owner
// makes `version` odd (2*ticket-1), stores the fields (relaxed atomics, so a reader's copy
// during a rewrite is a race only in the seqlock's sense), then stores 2*ticket with
// release; the reader (the writer thread) copies between two acquire loads of `version`
// and drops a copy whose versions differ or are odd (counted torn). The end of an entry is
// published alone: `end_ns` goes from 0 to the return time once (status stored before it,
// end_ns with release), so a copy sees the entry either running or ended, both true at
// some moment; the owner writes it only while the slot still holds the entry's ticket (a
// call lapped by `capacity` nested entries of its own thread leaves the newer entry be).
// A ring adopted by a new thread keeps its head (tickets never repeat) and its entries,
// each of which names its thread.
//
// Memory: PROF_FLIGHT_HOST_ENTRIES slots per thread that makes CUDA calls or ranges
// (rounded up to a power of two; 128 bytes each: the default 4096 is 512 KiB a thread),
// at most kFlightHostRings threads at once: 32 MiB at the default, plus 2 KiB for each
// thread beyond them (at most 960: 1.9 MiB), however many threads come and go.
#ifndef PROF_AGENT_RECORD_FLIGHT_HOST_H_
#define PROF_AGENT_RECORD_FLIGHT_HOST_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace prof {

constexpr size_t kFlightHostRings = 64;          // full rings (PROF_FLIGHT_HOST_ENTRIES)
constexpr size_t kFlightHostAllRings = 1024;     // and small ones for the threads beyond them
constexpr size_t kFlightHostSmallEntries = 16;   // a small ring's slots (2 KiB)
constexpr size_t kFlightHostNameBytes = 64;  // a range's name is kept up to 63 bytes

enum class FlightHostKind : uint8_t { kApiCall = 1, kRange = 2 };

// A consistent copy of one entry (writer thread).
struct FlightHostEntry {
  FlightHostKind kind = FlightHostKind::kApiCall;
  uint8_t range_kind = 0;  // schema::RangeKind of a range
  uint16_t api = 0;        // ApiId of a call
  int32_t status = 0;      // a call's result, once ended
  uint64_t thread_id = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;  // 0: still running (a call not returned, a range not popped)
  uint64_t stream_plus_one = 0;
  const void* function = nullptr;        // a launch's kernel (kernel_names.h names it)
  char name[kFlightHostNameBytes] = {};  // a range's name, NUL-terminated
};

struct FlightHostSnapshot {
  std::vector<FlightHostEntry> entries;  // by start time
  uint64_t seen = 0;                     // entries ever made on the rings
  uint64_t overwritten = 0;              // the oldest ones, lapped
  uint64_t torn = 0;                     // being rewritten while copied: not in `entries`
  uint64_t threads_refused = 0;          // threads that found no ring (all of them in use)
  uint64_t threads_small = 0;            // threads given a small ring (the full ones in use)
  size_t entries_per_thread = 0;
};

namespace internal {
struct FlightHostRing;
extern thread_local FlightHostRing* t_flight_host __attribute__((tls_model("initial-exec")));
FlightHostRing* AdoptFlightHostRing();  // slow path: nullptr when refused
}  // namespace internal

// Once, at load (after ConfigureFlight): `entries` per thread (rounded up to a power of
// two), 0: off. Rings themselves are allocated at each thread's first entry.
void ConfigureFlightHost(size_t entries);

// Hot path. Enter returns a handle for the matching End (0 when nothing was kept).
// (flight_ring.h includes this header, so it takes the ApiArguments' fields it keeps.)
uint64_t FlightHostCallEnter(uint16_t api, uint64_t stream_plus_one, const void* function,
                             uint64_t start_ns);
void FlightHostCallEnd(uint64_t handle, uint64_t end_ns, int32_t status);
// A range push (name copied, cut at 63 bytes) and the pop of the innermost range pushed
// on this thread; a whole range (start and end known) is one entry. `keep` false: the push
// only holds its level (NVTX step ranges, which are steps, not ranges), so pops pair.
void FlightHostPush(uint8_t range_kind, const char* name, uint64_t start_ns, bool keep = true);
void FlightHostPop(uint64_t end_ns);
void FlightHostRange(uint8_t range_kind, const char* name, uint64_t start_ns, uint64_t end_ns);

// Writer thread: a copy of every ring.
FlightHostSnapshot TakeFlightHostSnapshot();

namespace internal {
// Tests only: opens an entry on this thread's ring and never publishes it, as an owner
// stopped mid-write would; returns its ticket (0: no ring).
uint64_t FlightHostOpenForTest();
}  // namespace internal

// In a forked child (atfork handler, atomics only): the parent's threads are gone; every
// ring is free and shows nothing older than the fork, and the forking thread takes a ring
// anew at its next entry.
void ResetFlightHostAfterFork();

}  // namespace prof

#endif  // PROF_AGENT_RECORD_FLIGHT_HOST_H_
