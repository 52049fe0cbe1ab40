// Turns plain events (events.h) into serialized Chunk messages (proto/trace.proto):
// groups host events by thread and device events by stream, delta-encodes timestamps and
// correlation ids, fills sparse columns, and interns strings, kernel configurations and
// call stacks for the whole file.
//
// Each value is appended as varint bytes to its column's buffer the moment it is added
// (proto/wire_format.h); Finish() only copies the columns behind their tags and lengths.
// There is no message object and no libprotobuf: the agent links this, the analyzer reads
// the result with libprotobuf (chunk_wire_test.cc checks that the two agree).
//
// One encoder per trace file (interning is per file), used by one thread at a time.
// Memory grows with the number of distinct interned values and with the events pending
// in the current chunk; Finish() empties the chunk but keeps the buffers' capacity.
//
//   prof::ChunkEncoder encoder;
//   prof::KernelEvent kernel; kernel.config = encoder.InternKernelConfig(config); ...
//   encoder.AddKernel(kernel);
//   if (encoder.pending_events() >= 65536) writer->AppendChunk(encoder.Finish(false));
//   writer->AppendChunk(encoder.Finish(true));
#ifndef PROF_PROTO_CHUNK_ENCODER_H_
#define PROF_PROTO_CHUNK_ENCODER_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "proto/events.h"
#include "proto/header_encoder.h"
#include "proto/schema_enums.h"
#include "proto/wire_format.h"

namespace prof {
namespace chunk_blocks {
struct ThreadBlocks;
struct StreamBlocks;
}  // namespace chunk_blocks
namespace chunk_encoder_internal {

// What recent_strings_ keeps of a string besides its id: its length and its first and last
// eight bytes (fewer: zero-padded). They find its slot (RecentSlot) and are most of the
// compare: for up to 16 bytes they are all of its bytes, so a hit compares three words and
// calls nothing; a longer string compares only its middle by bytes. Comparing through the
// map's key (the string's size, then memcmp of it all) was ~35 instructions an operator.
struct RecentKey {
  uint64_t head = 0, tail = 0;
  size_t length = 0;
};

}  // namespace chunk_encoder_internal

class ChunkEncoder {
 public:
  ChunkEncoder();
  ~ChunkEncoder();
  ChunkEncoder(const ChunkEncoder&) = delete;
  ChunkEncoder& operator=(const ChunkEncoder&) = delete;

  // Interning: the first call for a value defines it in the current chunk.
  StringId InternString(std::string_view value);
  // The same, inline where proto/chunk_encoder_inline.h is included (the writer's operators).
  [[gnu::always_inline]] inline StringId InternStringInline(std::string_view value);
  KernelConfigId InternKernelConfig(const KernelConfigValue& value);
  // `frame_names` (optional, one per address) are the symbolized frames.
  CallStackId InternCallStack(const std::vector<uint64_t>& frame_addresses,
                              const std::vector<std::string>& frame_names = {});
  // Every communicator initialization gets its own id.
  CommunicatorId AddCommunicator(const CommunicatorValue& value);

  void AddApiCall(const ApiCallEvent& event);
  // The same, inline where proto/chunk_encoder_inline.h is included (the writer's launches).
  [[gnu::always_inline]] inline void AddApiCallInline(const ApiCallEvent& event);
  void AddHostRange(const HostRangeEvent& event);
  // The same, inline where proto/chunk_encoder_inline.h is included (the writer's operators).
  [[gnu::always_inline]] inline void AddHostRangeInline(const HostRangeEvent& event);
  void AddStep(const StepEvent& event);
  void AddNcclCall(const NcclCallEvent& event);
  void AddMemory(const MemoryEvent& event);
  void AddKernel(const KernelEvent& event);
  void AddMemcpy(const MemcpyEvent& event);
  void AddMemset(const MemsetEvent& event);
  void AddSynchronization(const SynchronizationEvent& event);

  void SetThreadName(uint64_t thread_id, std::string_view name);
  void SetProcess(std::string_view name, int64_t parent_pid);
  // `step_number` >= 0: the step during which they were lost (LossCounter.step_number).
  void AddLoss(schema::LossKind kind, uint64_t count, int64_t step_number = -1);
  void AddClockAnchor(const ClockAnchorValue& anchor);
  void AddCpuUsage(const CpuUsageValue& usage);
  void AddMemorySample(const MemorySampleEvent& sample);

  // Events added since the last Finish().
  uint64_t pending_events() const { return pending_events_; }
  // Interned strings not found in the recent-string memo (either way) so far: for tests.
  uint64_t string_memo_misses() const { return recent_string_misses_; }

  // Seals the current chunk with the next sequence number and returns the serialized
  // Chunk; the bytes stay valid until the next call on this encoder.
  std::string_view Finish(bool last_chunk);

 private:
  using ThreadGroup = chunk_blocks::ThreadBlocks;  // defined in chunk_blocks.h
  using StreamGroup = chunk_blocks::StreamBlocks;
  struct PairHash {
    size_t operator()(const std::pair<uint64_t, uint64_t>& key) const {
      return std::hash<uint64_t>()(key.first * 0x9E3779B97F4A7C15ull ^ key.second);
    }
  };
  struct ConfigHash {
    size_t operator()(const KernelConfigValue& value) const;
  };
  struct StackHash {
    size_t operator()(const std::vector<uint64_t>& frames) const;
  };
  using GroupIndex = std::unordered_map<std::pair<uint64_t, uint64_t>, size_t, PairHash>;

  // The group of a thread's events: the previous event's, checked inline (an out-of-line
  // call here was ~20 instructions per event; callgrind, issue 26), else FindThread. With
  // no previous group, last_thread_clock_ is kNoClock, which no event has: no test of
  // last_thread_ itself (~3 instructions an event).
  ThreadGroup& Thread(uint64_t thread_id, schema::ClockDomain clock) {
    if (last_thread_id_ == thread_id && last_thread_clock_ == clock) return *last_thread_;
    return FindThread(thread_id, clock);
  }
  static constexpr schema::ClockDomain kNoClock = static_cast<schema::ClockDomain>(-1);
  ThreadGroup& FindThread(uint64_t thread_id, schema::ClockDomain clock);
  StreamGroup& Stream(const StreamKey& key);
  void WriteThreads();
  void WriteStreams();

  // Definitions and chunk-level fields of the current chunk, already encoded as whole
  // fields (tag, length, body), in the order Finish() writes them.
  wire::Buffer strings_;
  wire::Buffer kernel_configs_;
  wire::Buffer communicators_;
  wire::Buffer call_stacks_;
  wire::Buffer thread_names_;
  wire::Buffer losses_;
  wire::Buffer clock_anchors_;
  wire::Buffer cpu_usage_;
  wire::Buffer memory_samples_;
  StringId first_string_id_ = 0;  // of the current chunk; 0 when it defines none
  bool has_process_ = false;
  StringId process_name_ = 0;
  int64_t process_parent_pid_ = 0;
  wire::Buffer scratch_;            // one small message at a time
  wire::PackedColumn run_scratch_;  // a column's run values while they are built
  wire::Buffer chunk_;              // the serialized chunk returned by Finish()

  uint64_t next_sequence_ = 0;
  uint64_t pending_events_ = 0;

  std::unordered_map<std::string, StringId> string_ids_;
  std::string lookup_key_;  // reused by InternString to avoid an allocation per lookup
  // Strings interned lately, by a cheap hash of their bytes (RecentSlot), ahead of
  // string_ids_: a writer interns the same few hundred names (PyTorch's operators, once
  // each) over and over, and a hit costs one compare of the bytes where the map copies
  // them into lookup_key_ and hashes them in full (~260 instructions an operator,
  // callgrind). `text` points at the map's own key, which lives as long as the encoder.
  //
  // Two ways: a string missing from its slot is looked for in the slot's partner (slot ^ 1,
  // the same cache line) before the map. With one way, two names of one slot that alternate
  // missed every time: aten_cost's 60 names held four such pairs ("aten::zeros" and
  // "aten::zero_", "aten::to" and "aten::mm", ...), ~2,250 misses of ~265 instructions over
  // 29,040 operators (callgrind, issue 26). The hit in the slot itself stays inline as before.
  //
  // A slot keeps the string's key (RecentKey) beside its id: 32 bytes, so a slot and its
  // partner share one 64-byte line (the array is aligned to it).
  struct RecentString {
    uint64_t head = 0, tail = 0;
    const std::string* text = nullptr;
    // The string's length plus one (0: an empty slot): no string matches an empty slot, and
    // one of 2^32 - 1 bytes or more, never kept whole here, matches none.
    uint32_t length_plus_one = 0;
    StringId id = 0;

    bool Holds(const chunk_encoder_internal::RecentKey& key, std::string_view value) const {
      return length_plus_one == key.length + 1 && head == key.head && tail == key.tail &&
             (key.length <= 16 || MiddleEquals(text->data(), value.data(), key.length));
    }
    // The bytes between the first and last eight of two strings of `length` (over 16)
    // bytes. Up to 24 bytes they lie within the eight from length - 16, compared as one
    // word (memcmp's call was ~17 instructions, for a fifth of the operators' names).
    static bool MiddleEquals(const char* a, const char* b, size_t length) {
      if (length > 24) return std::memcmp(a + 8, b + 8, length - 16) == 0;
      uint64_t a_word, b_word;
      std::memcpy(&a_word, a + length - 16, 8);
      std::memcpy(&b_word, b + length - 16, 8);
      return a_word == b_word;
    }
  };
  static_assert(sizeof(RecentString) == 32);
  // A power of two. 128 KiB: 60 names (aten_cost's loop) in 1024 slots left three pairs
  // sharing a slot, in 4096 one (each pair's second way costs a call to InternStringMiss).
  static constexpr size_t kRecentStrings = 4096;
  alignas(64) std::array<RecentString, kRecentStrings> recent_strings_{};
  uint64_t recent_string_misses_ = 0;  // memo misses in both ways (string_memo_misses)
  // InternString past a miss in `slot`: its partner, else the map, else a new definition;
  // the string then takes `slot` and the slot's former string its partner. It finds the
  // string's RecentKey again: passed by reference, the key would be kept in memory on the
  // hit's path too (~4 instructions an operator; callgrind, issue 26).
  StringId InternStringMiss(std::string_view value, size_t slot);
  std::unordered_map<KernelConfigValue, KernelConfigId, ConfigHash> kernel_config_ids_;
  std::unordered_map<std::vector<uint64_t>, CallStackId, StackHash> call_stack_ids_;
  CommunicatorId next_communicator_id_ = 1;

  // Groups of the current chunk, in the order they appeared. The vectors keep groups (and
  // their buffers' capacity) across chunks; only the first *_used_ are in this chunk.
  std::vector<std::unique_ptr<ThreadGroup>> thread_groups_;
  std::vector<std::unique_ptr<StreamGroup>> stream_groups_;
  size_t threads_used_ = 0;
  size_t streams_used_ = 0;
  GroupIndex thread_group_index_;
  GroupIndex stream_group_index_;
  // The group of the previous event: consecutive events mostly share one.
  ThreadGroup* last_thread_ = nullptr;
  uint64_t last_thread_id_ = 0;  // last_thread_'s key, beside it for the inline check
  schema::ClockDomain last_thread_clock_ = kNoClock;  // kNoClock: no last_thread_
  StreamGroup* last_stream_ = nullptr;
};

}  // namespace prof

#endif  // PROF_PROTO_CHUNK_ENCODER_H_
