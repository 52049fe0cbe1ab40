// Turns the raw records drained from thread buffers into trace events in a window's
// encoder: interns API and kernel names, builds kernel launch configurations, pairs range
// pushes with pops (per thread) and NVTX starts with ends (across threads), and defines
// NCCL communicators in each file that uses them. Writer thread only.
#ifndef PROF_AGENT_WRITER_RECORD_CONVERTER_H_
#define PROF_AGENT_WRITER_RECORD_CONVERTER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "agent/record/record.h"
#include "agent/writer/window_file.h"
#include "proto/chunk_encoder_inline.h"

namespace prof {

// The identity a trace file gives `comm`: its registry entry (hash shared by all its
// ranks, rank, size, creation), else a process-local hash (a communicator made before the
// agent loaded). Window files and flight dumps define communicators with it.
CommunicatorValue CommunicatorValueOf(const void* comm);

class RecordConverter {
 public:
  // Finds an unfinished window by index (nullptr when it is gone).
  using WindowByIndex = std::function<WindowFile*(uint32_t index)>;
  // Reads the process's RSS in bytes (0: unknown) for the host memory sample written with
  // each step; tests pass their own, or nullptr for none.
  using HostRssReader = uint64_t (*)();
  explicit RecordConverter(WindowByIndex window_by_index, HostRssReader read_host_rss = nullptr)
      : window_by_index_(std::move(window_by_index)), read_host_rss_(read_host_rss) {}

  // A launch and a name-only operator range (the drain's common records: CUDA programs',
  // and PyTorch's RecordFunction observer's) go straight to their functions: through the
  // general switch each paid that function's frame: ~40 instructions a launch, ~45 an operator
  // (callgrind, issue 26). Inline itself: with AddOperatorRange inlined into it, the
  // compiler left it out of line, one call and frame an operator again.
  [[gnu::always_inline]] void Add(uint64_t thread_id, const Record& record, WindowFile& window) {
    if (record.kind == RecordKind::kLaunch) {
      AddLaunch(thread_id, record, window);
    } else if (record.kind == RecordKind::kOperatorRange) {
      AddOperatorRange(thread_id, record, window);
    } else {
      AddRecord(thread_id, record, window);
    }
  }

  // Before `window` is finished: ranges it opened that never closed are written ending at
  // the window's close and counted; their later pops are ignored.
  void CloseOpenRanges(WindowFile& window);
  // Before a window closed by a split is finished: its open ranges belong to the window
  // that continues it, and are written there when they end.
  void MoveOpenRanges(uint32_t from_window, uint32_t to_window);
  // After a window's file is finished: drops what was kept per window, so a long run with
  // thousands of files does not grow the converter.
  void ForgetWindow(uint32_t window);

 private:
  struct OpenRange {
    std::string name;
    std::string domain;
    uint8_t kind = 0;
    uint64_t start_ns = 0;
    uint64_t thread_id = 0;
    uint32_t window = 0;
    bool written = false;  // already written by CloseOpenRanges
    // Operator details (kOperatorPushDetail); empty when absent.
    std::string shapes;
    std::string dtypes;
    std::string source;
  };

  // An API call's arguments, from an ApiCallRecord or a LaunchRecord.
  struct CallArguments {
    uint64_t stream_plus_one = 0;  // 0: none
    uint64_t bytes = 0;
    uint64_t copy_kind_plus_one = 0;  // 0: not a copy
    KernelConfigId kernel_config = 0;  // 0: not a launch
  };
  void AddRecord(uint64_t thread_id, const Record& record, WindowFile& window);
  void AddLaunch(uint64_t thread_id, const Record& record, WindowFile& window);
  // Inlined into AddLaunch and AddRecord (defined in record_converter.cc, used only there):
  // a frame of its own was ~20 instructions a launch (callgrind, issue 26).
  [[gnu::always_inline]] inline void AddApiCall(uint64_t thread_id, const Record& record,
                                                const CallArguments& arguments,
                                                WindowFile& window);
  void AddNcclCall(uint64_t thread_id, const NcclCallRecord& record, WindowFile& window);
  void AddMemory(uint64_t thread_id, const MemoryRecord& record, WindowFile& window);
  // A whole operator range without details: straight into the window being drained (it
  // has ended, so it belongs to no other), its name interned from the record's bytes (no
  // OpenRange, no string copies). Inline, so that it is compiled into the drain's loop
  // (through Add): out of line its frame (six registers saved and restored, the call) was
  // ~20 of its ~210 instructions an operator (callgrind, issue 26).
  // The record's end is never before its start (RecordOperatorRange makes it so): no clamp.
  [[gnu::always_inline]] void AddOperatorRange(uint64_t thread_id, const Record& record,
                                               WindowFile& window) {
    HostRangeEvent event;
    event.thread_id = thread_id;
    event.start_ns = record.start_ns;
    event.duration_ns = record.end_ns - record.start_ns;
    const std::string_view name = NameOf(RecordAs<OperatorRangeRecord>(record));
    event.name = window.encoder().InternStringInline(name);
    event.kind = schema::RANGE_KIND_OPERATOR;
    window.encoder().AddHostRangeInline(event);  // its unset fields fold away there
  }
  static OpenRange DetailedRange(uint64_t thread_id, const Record& record,
                                 const WindowFile& window);
  void EndRange(const OpenRange& range, uint64_t end_ns, WindowFile& current);
  void WriteRange(const OpenRange& range, uint64_t end_ns, WindowFile& window);
  CommunicatorId CommunicatorIn(WindowFile& window, const void* comm);
  // The API's name id in `window`'s file: a vector index once the file has the name (the
  // drain's path, inline), else interned once (InternApiName, out of line).
  StringId ApiNameIn(WindowFile& window, uint16_t api) {
    const std::vector<StringId>& ids = window.interning().api_name_ids;
    return api < ids.size() && ids[api] != 0 ? ids[api] : InternApiName(window, api);
  }
  StringId InternApiName(WindowFile& window, uint16_t api);
  // The launch's configuration id in `window`'s file: from the file's memo (a launch in its
  // packed form), else its map (LaunchConfigInMap), else newly interned
  // (InternLaunchConfig: names the kernel once per function).
  // The memo's hit is inline (a call and its frame were ~15 of its ~45 instructions a
  // launch; callgrind, issue 26); a miss goes to LaunchConfigMiss.
  KernelConfigId LaunchConfigIn(WindowFile& window, const PackedLaunch& launch) {
    const FileInterning::LaunchMemo& memo =
        window.interning().launch_memo[FileInterning::LaunchMemoSlot(launch)];
    if (memo.id != 0 && memo.function_grid_y == launch.function_grid_y &&
        memo.grid_z == launch.stream_grid_z >> 48 && memo.geometry == launch.geometry) {
      return memo.id;
    }
    return LaunchConfigMiss(window, launch);
  }
  KernelConfigId LaunchConfigMiss(WindowFile& window, const PackedLaunch& launch);
  // A launch recorded whole (an ApiCallRecord): through the memo when it packs.
  KernelConfigId LaunchConfigIn(WindowFile& window, const UnpackedLaunch& launch);
  KernelConfigId LaunchConfigInMap(WindowFile& window, const UnpackedLaunch& launch);
  KernelConfigId InternLaunchConfig(WindowFile& window, const UnpackedLaunch& launch);
  // The interned call stack of a record made with PROF_STACKS=1 (0 without one: inline,
  // the drain's common case).
  CallStackId StackOf(const Record& record, ChunkEncoder& encoder) {
    return FrameCountOf(record) != 0 ? InternStackOf(record, encoder) : 0;
  }
  CallStackId InternStackOf(const Record& record, ChunkEncoder& encoder);

  struct WindowCommHash {
    size_t operator()(const std::pair<uint32_t, const void*>& key) const {
      return std::hash<const void*>()(key.second) ^ (size_t{key.first} * 0x9E3779B97F4A7C15ull);
    }
  };

  WindowByIndex window_by_index_;
  HostRssReader read_host_rss_ = nullptr;
  std::unordered_map<uint64_t, std::vector<OpenRange>> stacks_;  // by thread
  std::unordered_map<uint64_t, OpenRange> started_;              // by NVTX range id
  std::unordered_map<const void*, std::string> kernel_names_;    // cache
  // (window index, communicator pointer) -> id in that window's file
  std::unordered_map<std::pair<uint32_t, const void*>, CommunicatorId, WindowCommHash>
      communicator_ids_;
  std::unordered_map<const void*, int64_t> nccl_sequence_;
  std::unordered_map<uint64_t, std::string> frame_names_;  // symbolized return addresses
};

}  // namespace prof

#endif  // PROF_AGENT_WRITER_RECORD_CONVERTER_H_
