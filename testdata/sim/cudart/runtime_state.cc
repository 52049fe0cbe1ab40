#include "testdata/sim/cudart/runtime_state.h"

#include <pthread.h>

#include "testdata/sim/cudart/config.h"
#include "testdata/sim/cudart/thread_context.h"

namespace sim {
namespace {

// Keys of implicit streams live far from user handle values.
constexpr uint64_t kLegacyKeyBase = 1ull << 62;
constexpr uint64_t kPerThreadKeyBase = 1ull << 61;
constexpr uint64_t kHandleBase = 0x51A000000000ull;
constexpr uint32_t kLegacyStreamId = 7;

// fork(): hold the lock across the fork so the child gets a consistent state, then
// release it on both sides. The child has only the forking thread, which owns it.
void LockBeforeFork() { State().mutex.lock(); }
void UnlockAfterFork() { State().mutex.unlock(); }

RuntimeState* CreateState() {
  auto* state = new RuntimeState();
  state->devices.resize(static_cast<size_t>(Config().device_count > 0 ? Config().device_count : 1));
  pthread_atfork(LockBeforeFork, UnlockAfterFork, UnlockAfterFork);
  return state;
}

Stream* FindOrCreateImplicit(RuntimeState& state, uint64_t key, int device, bool legacy) {
  auto found = state.streams.find(key);
  if (found != state.streams.end()) return &found->second;
  Stream stream;
  stream.device = device;
  stream.is_legacy = legacy;
  stream.is_per_thread = !legacy;
  stream.id = legacy ? kLegacyStreamId : state.next_stream_id++;
  return &state.streams.emplace(key, stream).first->second;
}

}  // namespace

RuntimeState& State() {
  static RuntimeState* state = CreateState();
  return *state;
}

uint64_t NewHandleValue(RuntimeState& state) { return kHandleBase + 0x40 * state.next_handle++; }

Stream& LegacyStream(RuntimeState& state, int device) {
  return *FindOrCreateImplicit(state, kLegacyKeyBase + static_cast<uint64_t>(device), device,
                               /*legacy=*/true);
}

Stream* ResolveStream(RuntimeState& state, cudaStream_t handle, NullStream null_stream) {
  int device = CurrentDevice();
  bool per_thread =
      handle == cudaStreamPerThread || (handle == nullptr && null_stream == NullStream::kPerThread);
  if (per_thread) {
    uint64_t key = kPerThreadKeyBase + ThreadSerial() * 64 + static_cast<uint64_t>(device);
    return FindOrCreateImplicit(state, key, device, /*legacy=*/false);
  }
  if (handle == nullptr || handle == cudaStreamLegacy) return &LegacyStream(state, device);
  auto found = state.streams.find(reinterpret_cast<uint64_t>(handle));
  return found == state.streams.end() ? nullptr : &found->second;
}

const Allocation* FindAllocation(const RuntimeState& state, const void* pointer, uintptr_t* base) {
  if (pointer == nullptr || state.allocations.empty()) return nullptr;
  uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
  auto next = state.allocations.upper_bound(address);
  if (next == state.allocations.begin()) return nullptr;
  auto candidate = std::prev(next);
  uintptr_t end = candidate->first + candidate->second.size;
  bool inside = address < end || (address == candidate->first);
  if (!inside) return nullptr;
  if (base != nullptr) *base = candidate->first;
  return &candidate->second;
}

}  // namespace sim
