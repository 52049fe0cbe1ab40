#include "proto/chunk_encoder.h"

#include <cstring>

#include "proto/chunk_blocks.h"
#include "proto/chunk_encoder_inline.h"
#include "proto/trace_fields.h"

namespace prof {

using chunk_blocks::TakeDelta;
using wire::PutVarintFieldIfNonZero;

size_t ChunkEncoder::ConfigHash::operator()(const KernelConfigValue& value) const {
  const uint32_t words[] = {value.name,
                            value.grid[0],
                            value.grid[1],
                            value.grid[2],
                            value.block[0],
                            value.block[1],
                            value.block[2],
                            value.static_shared_memory,
                            value.dynamic_shared_memory,
                            value.registers_per_thread};
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint32_t word : words) hash = (hash ^ word) * 0x100000001b3ull;
  return static_cast<size_t>(hash);
}

size_t ChunkEncoder::StackHash::operator()(const std::vector<uint64_t>& frames) const {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint64_t frame : frames) hash = (hash ^ frame) * 0x100000001b3ull;
  return static_cast<size_t>(hash);
}

ChunkEncoder::ChunkEncoder() = default;
ChunkEncoder::~ChunkEncoder() = default;

StringId ChunkEncoder::InternString(std::string_view value) {
  return InternStringInline(value);
}

StringId ChunkEncoder::InternStringMiss(std::string_view value, size_t slot) {
  const chunk_encoder_internal::RecentKey key = chunk_encoder_internal::RecentKeyOf(value);
  // The partner is left where it is on a hit: two names that alternate in one slot then
  // both hit, one in each way, with no stores.
  const RecentString& partner = recent_strings_[slot ^ 1];
  if (partner.Holds(key, value)) return partner.id;
  ++recent_string_misses_;
  RecentString& recent = recent_strings_[slot];
  if (recent.text != nullptr) recent_strings_[slot ^ 1] = recent;
  lookup_key_.assign(value.data(), value.size());
  auto it = string_ids_.find(lookup_key_);
  const bool is_new = it == string_ids_.end();
  if (is_new) {
    it = string_ids_.emplace(lookup_key_, static_cast<StringId>(string_ids_.size() + 1)).first;
  }
  const StringId id = it->second;
  recent.head = key.head;
  recent.tail = key.tail;
  recent.text = &it->first;
  // 0 for a string too long for the slot's length (see RecentString): never a hit.
  recent.length_plus_one = key.length < UINT32_MAX ? static_cast<uint32_t>(key.length + 1) : 0;
  recent.id = id;
  if (!is_new) return id;
  if (first_string_id_ == 0) first_string_id_ = id;
  // Repeated strings are written even when empty (only singular scalars are omitted).
  wire::PutBytesField(&strings_, field::Chunk::kStrings, value);
  return id;
}

KernelConfigId ChunkEncoder::InternKernelConfig(const KernelConfigValue& value) {
  auto it = kernel_config_ids_.find(value);
  if (it != kernel_config_ids_.end()) return it->second;
  const KernelConfigId id = static_cast<KernelConfigId>(kernel_config_ids_.size() + 1);
  kernel_config_ids_.emplace(value, id);
  using F = field::KernelConfig;
  scratch_.clear();
  PutVarintFieldIfNonZero(&scratch_, F::kId, id);
  PutVarintFieldIfNonZero(&scratch_, F::kNameId, value.name);
  PutVarintFieldIfNonZero(&scratch_, F::kGridX, value.grid[0]);
  PutVarintFieldIfNonZero(&scratch_, F::kGridY, value.grid[1]);
  PutVarintFieldIfNonZero(&scratch_, F::kGridZ, value.grid[2]);
  PutVarintFieldIfNonZero(&scratch_, F::kBlockX, value.block[0]);
  PutVarintFieldIfNonZero(&scratch_, F::kBlockY, value.block[1]);
  PutVarintFieldIfNonZero(&scratch_, F::kBlockZ, value.block[2]);
  PutVarintFieldIfNonZero(&scratch_, F::kStaticSharedMemory, value.static_shared_memory);
  PutVarintFieldIfNonZero(&scratch_, F::kDynamicSharedMemory, value.dynamic_shared_memory);
  PutVarintFieldIfNonZero(&scratch_, F::kRegistersPerThread, value.registers_per_thread);
  wire::PutBytesField(&kernel_configs_, field::Chunk::kKernelConfigs, scratch_.view());
  return id;
}

CallStackId ChunkEncoder::InternCallStack(const std::vector<uint64_t>& frame_addresses,
                                          const std::vector<std::string>& frame_names) {
  auto it = call_stack_ids_.find(frame_addresses);
  if (it != call_stack_ids_.end()) return it->second;
  const CallStackId id = static_cast<CallStackId>(call_stack_ids_.size() + 1);
  call_stack_ids_.emplace(frame_addresses, id);
  wire::PackedColumn addresses, names;
  for (uint64_t address : frame_addresses) addresses.AddUnsigned(address);
  // Interning a name may define a string: done before the stack is written.
  for (const std::string& name : frame_names) names.AddUnsigned(InternString(name));
  using F = field::CallStack;
  scratch_.clear();
  PutVarintFieldIfNonZero(&scratch_, F::kId, id);
  wire::PutPackedField(&scratch_, F::kFrameAddresses, addresses);
  wire::PutPackedField(&scratch_, F::kFrameNameIds, names);
  wire::PutBytesField(&call_stacks_, field::Chunk::kCallStacks, scratch_.view());
  return id;
}

CommunicatorId ChunkEncoder::AddCommunicator(const CommunicatorValue& value) {
  const CommunicatorId id = next_communicator_id_++;
  using F = field::NcclCommunicator;
  scratch_.clear();
  PutVarintFieldIfNonZero(&scratch_, F::kId, id);
  PutVarintFieldIfNonZero(&scratch_, F::kCommHash, value.comm_hash);
  wire::PutInt32FieldIfNonZero(&scratch_, F::kRank, value.rank);
  wire::PutInt32FieldIfNonZero(&scratch_, F::kRankCount, value.rank_count);
  wire::PutInt32FieldIfNonZero(&scratch_, F::kDevice, value.device);
  PutVarintFieldIfNonZero(&scratch_, F::kInitStartNs, value.init_start_ns);
  PutVarintFieldIfNonZero(&scratch_, F::kInitDurationNs, value.init_duration_ns);
  wire::PutBytesField(&communicators_, field::Chunk::kNcclCommunicators, scratch_.view());
  return id;
}

ChunkEncoder::ThreadGroup& ChunkEncoder::FindThread(uint64_t thread_id,
                                                    schema::ClockDomain clock) {
  const auto key = std::make_pair(thread_id, static_cast<uint64_t>(clock));
  auto [it, inserted] = thread_group_index_.try_emplace(key, threads_used_);
  if (inserted) {
    if (threads_used_ == thread_groups_.size()) {
      thread_groups_.push_back(std::make_unique<ThreadGroup>());
    }
    thread_groups_[threads_used_++]->Reset(thread_id, clock);
  }
  last_thread_ = thread_groups_[it->second].get();
  last_thread_id_ = thread_id;
  last_thread_clock_ = clock;
  return *last_thread_;
}

ChunkEncoder::StreamGroup& ChunkEncoder::Stream(const StreamKey& key) {
  if (last_stream_ && last_stream_->key == key) return *last_stream_;
  const auto map_key =
      std::make_pair((uint64_t{key.device} << 32) | key.context,
                     (uint64_t{key.stream} << 32) | static_cast<uint32_t>(key.clock));
  auto [it, inserted] = stream_group_index_.try_emplace(map_key, streams_used_);
  if (inserted) {
    if (streams_used_ == stream_groups_.size()) {
      stream_groups_.push_back(std::make_unique<StreamGroup>());
    }
    stream_groups_[streams_used_++]->Reset(key);
  }
  last_stream_ = stream_groups_[it->second].get();
  return *last_stream_;
}

void ChunkEncoder::SetThreadName(uint64_t thread_id, std::string_view name) {
  const StringId name_id = InternString(name);
  using F = field::ThreadName;
  scratch_.clear();
  PutVarintFieldIfNonZero(&scratch_, F::kThreadId, thread_id);
  PutVarintFieldIfNonZero(&scratch_, F::kNameId, name_id);
  wire::PutBytesField(&thread_names_, field::Chunk::kThreadNames, scratch_.view());
}

void ChunkEncoder::SetProcess(std::string_view name, int64_t parent_pid) {
  process_name_ = InternString(name);
  process_parent_pid_ = parent_pid;
  has_process_ = true;
}

void ChunkEncoder::AddLoss(schema::LossKind kind, uint64_t count, int64_t step_number) {
  if (count == 0) return;
  using F = field::LossCounter;
  scratch_.clear();
  wire::PutInt32FieldIfNonZero(&scratch_, F::kKind, kind);
  PutVarintFieldIfNonZero(&scratch_, F::kCount, count);
  if (step_number >= 0) {  // int64 on the wire: a plain varint of the value
    PutVarintFieldIfNonZero(&scratch_, F::kStepNumber, static_cast<uint64_t>(step_number));
    wire::PutVarintField(&scratch_, F::kStepKnown, 1);
  }
  wire::PutBytesField(&losses_, field::Chunk::kLosses, scratch_.view());
}

void ChunkEncoder::AddClockAnchor(const ClockAnchorValue& anchor) {
  PutClockAnchorField(&clock_anchors_, field::Chunk::kClockAnchors, anchor);
}

void ChunkEncoder::AddCpuUsage(const CpuUsageValue& usage) {
  PutCpuUsageField(&cpu_usage_, field::Chunk::kCpuUsage, usage);
}

void ChunkEncoder::AddMemorySample(const MemorySampleEvent& sample) {
  using M = field::MemorySample;
  scratch_.clear();
  wire::PutVarintFieldIfNonZero(&scratch_, M::kTimeNs, sample.time_ns);
  // int32 on the wire: a negative device is sign-extended to ten bytes, as libprotobuf does.
  wire::PutVarintFieldIfNonZero(&scratch_, M::kDevice,
                                static_cast<uint64_t>(static_cast<int64_t>(sample.device)));
  wire::PutVarintFieldIfNonZero(&scratch_, M::kAllocated, sample.allocated);
  wire::PutVarintFieldIfNonZero(&scratch_, M::kReserved, sample.reserved);
  wire::PutVarintFieldIfNonZero(&scratch_, M::kPeak, sample.peak);
  wire::PutVarintFieldIfNonZero(&scratch_, M::kRss, sample.rss);
  wire::PutBytesField(&memory_samples_, field::Chunk::kMemorySamples, scratch_.view());
}

}  // namespace prof
