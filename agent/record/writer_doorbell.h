// Wakes the writer thread early, from any thread, without a lock: a producer whose buffer
// crosses its high-water mark rings it (only the append that crosses, never the others),
// and so do commands that need the writer at once. The writer otherwise sleeps on a timer
// (4-10 ms). A futex word with three states:
//   0: nobody rang, the writer is not asleep   1: rung   2: the writer sleeps (or is about to)
// Ring() sets 1 and calls futex_wake only if it saw 2: a ring while the writer is awake costs
// one atomic exchange. Wait() sets 2 unless rung, sleeps while the word is 2, then clears it.
//
// Thread safety: Ring from any thread (async-signal-safe: one atomic and one system call);
// Wait from the writer thread only.
#ifndef PROF_AGENT_RECORD_WRITER_DOORBELL_H_
#define PROF_AGENT_RECORD_WRITER_DOORBELL_H_

#include <atomic>
#include <cstdint>

namespace prof {

class WriterDoorbell {
 public:
  void Ring();
  // Returns after Ring() or `timeout_ns`, whichever first (at once if rung since the last Wait).
  void Wait(uint64_t timeout_ns);

  constexpr WriterDoorbell() = default;

 private:
  std::atomic<uint32_t> word_{0};
};

// The process's doorbell, rung by buffers that pass their high-water mark.
WriterDoorbell& TheWriterDoorbell();

}  // namespace prof

#endif  // PROF_AGENT_RECORD_WRITER_DOORBELL_H_
