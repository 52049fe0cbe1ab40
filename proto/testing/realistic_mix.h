// Synthetic events shaped like a training step, for the format's benchmark and its
// memory-bound test: 70% kernel + launch pairs, 20% memcpy/memset (API call + device
// record), 10% host ranges, with realistic names, sizes and durations. Deterministic in
// the seed. Not a fake of CUDA: it only feeds the encoder.
#ifndef PROF_PROTO_TESTING_REALISTIC_MIX_H_
#define PROF_PROTO_TESTING_REALISTIC_MIX_H_

#include <cstdint>
#include <random>
#include <variant>
#include <vector>

#include "absl/types/span.h"
#include "proto/chunk_encoder.h"

namespace prof::testing {

using MixedEvent =
    std::variant<ApiCallEvent, KernelEvent, MemcpyEvent, MemsetEvent, HostRangeEvent>;

class RealisticMix {
 public:
  // Interns the mix's names and kernel configurations in `encoder`.
  RealisticMix(ChunkEncoder* encoder, uint64_t seed);

  // Appends one group of 20 events (14 launch/kernel, 4 copy/memset, 2 ranges) to `out`.
  void MakeGroup(std::vector<MixedEvent>* out);
  static constexpr int kEventsPerGroup = 20;

  // Adds one group straight to the encoder.
  void AddGroup();

  // How far the mix's host clock and correlation ids have advanced: the shifts that make
  // a replayed block follow the previous one.
  uint64_t elapsed_ns() const { return host_now_ - kStartNs + 1000000; }
  uint64_t correlation_ids_used() const { return correlation_; }

 private:
  void AddLaunchAndKernel(int stream_index);
  void AddCopy();
  void AddMemset();
  void AddRange();
  uint64_t LogUniform(double low, double high);

  ChunkEncoder* encoder_;
  std::vector<MixedEvent>* out_ = nullptr;
  std::vector<MixedEvent> group_;
  std::mt19937_64 random_;
  std::vector<KernelConfigId> kernels_;
  std::vector<StringId> range_names_;
  StringId launch_name_, copy_name_, memset_name_;
  static constexpr uint64_t kStartNs = 1000000000;
  uint64_t host_now_ = kStartNs;
  uint64_t device_ready_[2] = {0, 0};
  uint64_t correlation_ = 0;
};

// Adds `events` to `encoder` with every timestamp moved by `time_shift` and every
// correlation id by `correlation_shift`, so one pre-made block can stand for a long run.
void ReplayShifted(absl::Span<const MixedEvent> events, uint64_t time_shift,
                   uint64_t correlation_shift, ChunkEncoder* encoder);

}  // namespace prof::testing

#endif  // PROF_PROTO_TESTING_REALISTIC_MIX_H_
