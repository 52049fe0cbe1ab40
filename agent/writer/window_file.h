// One recording window's trace file: its encoder (interning is per file), the file
// itself (created at the first chunk, so a window that records nothing leaves no file),
// and the losses to report in it. Used only by the writer thread.
#ifndef PROF_AGENT_WRITER_WINDOW_FILE_H_
#define PROF_AGENT_WRITER_WINDOW_FILE_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "agent/record/cpu_sample.h"
#include "agent/record/record.h"
#include "agent/writer/device_source.h"
#include "proto/chunk_encoder.h"
#include "proto/header_encoder.h"
#include "proto/trace_file_writer.h"

namespace prof {

struct WindowSpec {
  uint32_t index = 0;
  uint64_t open_ns = 0;
  int64_t first_step = 0;
  int64_t end_step = 0;
  CpuSample open_cpu;  // read by the writer when it opens the file
  int32_t origin = 0;  // schema::WindowOrigin: what opened the window
};

// mkdir -p; true when the folder exists afterwards. Writer thread (any thread in tests).
bool MakeFolders(const std::string& path);

// Interning shortcuts of one file (ids are per file), so the record converter does not
// hash a name per launch: API id -> string id, (kernel function, geometry) -> configuration
// id; and the threads whose name the file holds. Owned by the file's WindowFile, filled
// by the converter and the writer's drain (writer thread).
struct FileInterning {
  struct LaunchKey {
    const void* function;
    LaunchGeometry geometry;
    bool operator==(const LaunchKey& other) const {
      return function == other.function &&
             std::memcmp(&geometry, &other.geometry, sizeof(geometry)) == 0;
    }
  };
  // Multiply-xor over the function pointer and the geometry's four 64-bit words: once per
  // launch record on the writer thread, so it is part of every launch's cost (a byte-wise
  // FNV-1a here was ~40 ns, half the writer's time per launch record).
  struct LaunchKeyHash {
    size_t operator()(const LaunchKey& key) const {
      static_assert(sizeof(LaunchGeometry) % 8 == 0, "geometry hashed by 64-bit words");
      uint64_t words[sizeof(LaunchGeometry) / 8];
      std::memcpy(words, &key.geometry, sizeof(words));
      constexpr uint64_t kOdd = 0x9e3779b97f4a7c15ull;
      uint64_t hash = reinterpret_cast<uintptr_t>(key.function) * kOdd;
      for (uint64_t word : words) hash = (hash ^ word ^ (hash >> 32)) * kOdd;
      return static_cast<size_t>(hash ^ (hash >> 29));
    }
  };
  // In front of launch_configs: a small direct-mapped memo of launches in their packed
  // form (record.h PackedLaunch, as a kLaunch record holds them), indexed by the function
  // pointer and the grid's and block's x. A launch loop repeats a few (kernel, geometry)
  // pairs; a hit compares three words read from the record, with no key built (a hash-map
  // lookup was about 23 ns a launch on the writer in perf's samples of launch_stress; a
  // memo of unpacked 40-byte keys about 7-10 ns). A miss (or two pairs sharing a slot)
  // falls back to the map. The stream's bits are not part of the key (grid z is).
  struct LaunchMemo {
    uint64_t function_grid_y = 0;
    uint64_t grid_z = 0;
    uint64_t geometry = 0;
    KernelConfigId id = 0;  // 0: empty
  };
  static constexpr size_t kLaunchMemoSlots = 64;
  static size_t LaunchMemoSlot(const PackedLaunch& launch) {
    const uint64_t function = launch.function_grid_y;
    // The geometry word's low 30 bits: grid x and block x.
    return ((function >> 4) ^ (function >> 11) ^ launch.geometry ^ (launch.geometry >> 18)) %
           kLaunchMemoSlots;
  }

  std::vector<StringId> api_name_ids;          // by ApiId; 0 = not interned yet
  std::unordered_set<uint64_t> named_threads;  // threads whose name this file holds
  std::unordered_map<LaunchKey, KernelConfigId, LaunchKeyHash> launch_configs;
  LaunchMemo launch_memo[kLaunchMemoSlots];
};

// The device source (CUPTI) sees it only as a DeviceWindow (device_source.h).
class WindowFile final : public DeviceWindow {
 public:
  // `header` is complete except for the window fields, filled from `spec`.
  WindowFile(const WindowSpec& spec, const std::string& path, FileHeaderValue header,
             bool needs_cuda_activity = false);

  const WindowSpec& spec() const { return spec_; }
  const std::string& path() const { return path_; }
  ChunkEncoder& encoder() { return encoder_; }

  // A window with losses writes a file even if no event reached it, so the loss is shown.
  // `step_number` >= 0: the step they were lost in.
  void AddLoss(schema::LossKind kind, uint64_t count, int64_t step_number) {
    if (count == 0) return;
    encoder_.AddLoss(kind, count, step_number);
    has_losses_ = true;
  }

  // DeviceWindow: what the device source adds (the encoder's own calls).
  StringId InternString(std::string_view text) override { return encoder_.InternString(text); }
  KernelConfigId InternKernelConfig(const KernelConfigValue& config) override {
    return encoder_.InternKernelConfig(config);
  }
  // Device events, as host records (FlushIfFull), keep a chunk within kChunkEvents.
  void AddKernel(const KernelEvent& kernel) override {
    encoder_.AddKernel(kernel);
    FlushIfFull();
  }
  void AddMemcpy(const MemcpyEvent& copy) override {
    encoder_.AddMemcpy(copy);
    FlushIfFull();
  }
  void AddMemset(const MemsetEvent& memset) override {
    encoder_.AddMemset(memset);
    FlushIfFull();
  }
  void AddSynchronization(const SynchronizationEvent& sync) override {
    encoder_.AddSynchronization(sync);
    FlushIfFull();
  }
  void AddClockAnchor(const ClockAnchorValue& anchor) override { encoder_.AddClockAnchor(anchor); }
  void AddLoss(schema::LossKind kind, uint64_t count) override { AddLoss(kind, count, -1); }

  // Writes the pending events as a chunk (when there are any, or when `force`).
  void Flush(bool force);
  // A chunk holds about this many events at most: the drain calls FlushIfFull after each
  // record, so the encoder's columns (kept from chunk to chunk) stay a few hundred KiB and
  // warm in cache. Bounded only per drain pass, a chunk took what a pass drained (20-50K
  // launches at load) and its columns grew in 512 KiB steps, each growth a run of fresh
  // pages: ~3,500 page faults for 1M launches against ~2,000 now (docs/benchmarks.md).
  static constexpr uint64_t kChunkEvents = 16384;
  void FlushIfFull() {
    if (encoder_.pending_events() >= kChunkEvents) Flush(false);
  }
  // Writes the last chunk and closes the file.
  void Finish();
  // After Finish: whether a file was written (a window that recorded nothing has none).
  bool wrote_file() const { return writer_ != nullptr; }

  // Its end (WindowSet changes it, nothing else): closing, the window ended and is finalized
  // once records are drained past finalize_after_ns(); continued(), closed by a split
  // (PROF_STEPS_PER_FILE): ranges still open when it is finalized go on in the file of
  // window continued_in() instead of being clipped; close_cpu(), read when the window ended
  // (else when the file is finished).
  bool closing() const { return closing_; }
  uint64_t finalize_after_ns() const { return finalize_after_ns_; }
  bool continued() const { return continued_in_ >= 0; }
  uint32_t continued_in() const { return static_cast<uint32_t>(continued_in_); }
  const CpuSample& close_cpu() const { return close_cpu_; }
  // `continued_in` < 0: not a split.
  void StartClosing(uint64_t close_ns, const CpuSample& cpu, uint64_t finalize_after_ns,
                    int64_t continued_in) {
    closing_ = true;
    close_ns_ = close_ns;
    close_cpu_ = cpu;
    finalize_after_ns_ = finalize_after_ns;
    continued_in_ = continued_in;
  }
  // At its finishing: a window that never closed (the exit) ends at `now_ns`.
  void EndIfOpen(uint64_t now_ns) {
    if (!closing_) close_ns_ = now_ns;
  }
  // When it ended (set only through the two calls above).
  uint64_t close_ns() const { return close_ns_; }

  // The range of correlation ids of the host API calls in this window, by which WindowSet
  // routes device records to it (0, 0: none yet). The converter notes each call's id.
  void NoteCorrelationId(uint64_t id) {
    if (id == 0) return;
    if (min_correlation_id_ == 0 || id < min_correlation_id_) min_correlation_id_ = id;
    if (id > max_correlation_id_) max_correlation_id_ = id;
  }
  uint64_t min_correlation_id() const { return min_correlation_id_; }
  uint64_t max_correlation_id() const { return max_correlation_id_; }
  // The converter saw a CUDA or NCCL record here: a withheld file may be written.
  void NoteCudaActivity() { cuda_activity_seen_ = true; }

  // The last whole step written here (the converter notes each), from which a terminating
  // signal's flush closes the step then in progress (AddStepOpenAtSignal).
  void NoteStepEnded(uint64_t thread_id, uint64_t end_ns, int64_t number) {
    last_step_ = {thread_id, end_ns, number, true};
  }
  // A terminating signal (writer_thread.cc, before the windows are finished): the step in
  // progress in a window still open is written ending at `now_ns` and marked as a normal
  // exit's last step is (kStepOpenAtExit: the Perf Summary's teardown), so the step the
  // program died in is in the file with what it recorded. It starts where the last whole
  // step ended, or at the window's opening, as its first step, when none ended yet. A
  // window already closing ended at a boundary: nothing is open in it.
  void AddStepOpenAtSignal(uint64_t now_ns);

  // The converter's per-file interning shortcuts (and the writer's named threads).
  FileInterning& interning() { return interning_; }

 private:
  bool EnsureOpen();
  void WarnWriteFailure(const WriteStatus& status);
  // True while the file must not be written yet (no CUDA activity in a child's window).
  bool Withheld() const;

  bool closing_ = false;
  uint64_t close_ns_ = 0;
  uint64_t finalize_after_ns_ = 0;
  int64_t continued_in_ = -1;
  CpuSample close_cpu_;
  WindowSpec spec_;
  std::string path_;
  FileHeaderValue header_;
  ChunkEncoder encoder_;
  std::unique_ptr<TraceFileWriter> writer_;
  bool needs_cuda_activity_ = false;
  bool has_losses_ = false;
  bool failed_ = false;
  bool write_failure_reported_ = false;
  bool finished_ = false;
  uint64_t min_correlation_id_ = 0;
  uint64_t max_correlation_id_ = 0;
  bool cuda_activity_seen_ = false;
  struct LastStep {
    uint64_t thread_id = 0;
    uint64_t end_ns = 0;
    int64_t number = 0;
    bool seen = false;
  } last_step_;
  FileInterning interning_;
};

}  // namespace prof

#endif  // PROF_AGENT_WRITER_WINDOW_FILE_H_
