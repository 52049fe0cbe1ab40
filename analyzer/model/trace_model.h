// The event model of one analysis unit (one process: the trace files of one rank or pid),
// in columns of compact records with every timestamp already on the host clock. Built by
// ModelBuilder (one file) and AppendModel (several windows of one process); read by the
// tree and summary stages, which never see the file format.
//
// Plain data; not thread-safe; one owner at a time (moved between pipeline stages).
#ifndef PROF_ANALYZER_MODEL_TRACE_MODEL_H_
#define PROF_ANALYZER_MODEL_TRACE_MODEL_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "analyzer/model/data_quality.h"
#include "analyzer/model/string_pool.h"
#include "proto/schema_enums.h"
#include "proto/trace.pb.h"

namespace prof::analyzer {

// The paddle event type a host range plays in the tables.
enum class RangeType : uint8_t {
  kProfileStep,
  kDataloader,
  kForward,
  kBackward,
  kOptimization,
  kOperator,
  kUserDefined,  // RANGE_KIND_USER
  kNvtx,         // NVTX push/pop and start/end ranges
  kMark,         // instants; kept for export and counts, not in the range tree
};
const char* RangeTypeName(RangeType type);
bool IsModelPhase(RangeType type);

inline constexpr int32_t kNoIndex = -1;

struct HostRange {
  uint64_t thread_id = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  NameId name = 0;
  RangeType type = RangeType::kUserDefined;
  int64_t step_number = 0;   // kProfileStep only
  int64_t sample_count = 0;  // kProfileStep only; <= 0: unknown
  bool cupti_clock = false;  // only while building: not yet converted
  // Operator details (0: none): input shapes text, input dtypes text, "file.py:LINE".
  NameId shapes = 0;
  NameId dtypes = 0;
  NameId source = 0;
};

// Fields ordered so the record packs into 72 bytes (it was 88, then 80): a 10M-event trace
// holds millions, and every walk over them (building, slicing, the tree, the call tables)
// reads their pages. Hence no field for what the tree finds (the innermost range holding
// the call: RangeTree::call_range) or what the status says (failed()), and copy_kind in a
// byte.
struct ApiCall {
  uint64_t thread_id = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint64_t correlation_id = 0;
  NameId name = 0;
  bool driver = false;
  bool cupti_clock = false;
  // Arguments as recorded (timeline exports; the Memory Manipulation Summary uses bytes and
  // copy_kind for calls whose device record is missing); 0 / unknown where not recorded.
  bool has_stream = false;
  uint8_t copy_kind_byte = schema::COPY_KIND_UNKNOWN;  // copy_kind(), in a byte
  NameId call_stack = 0;  // symbolized launch stack ("f < g < h"), 0: none
  // Kernel launches: the configuration the program passed (index in
  // TraceModel::kernel_launches, which names the kernel), read where no device record came.
  int32_t launch = kNoIndex;
  int64_t status = 0;   // the call's return code
  uint64_t stream = 0;  // the stream argument (a handle), when has_stream
  uint64_t bytes = 0;   // copy / set / allocation size

  bool failed() const { return status != 0; }  // status != success
  schema::CopyKind copy_kind() const { return static_cast<schema::CopyKind>(copy_kind_byte); }
  // A defined schema::CopyKind (below 256).
  void set_copy_kind(schema::CopyKind kind) { copy_kind_byte = static_cast<uint8_t>(kind); }
};

static_assert(sizeof(ApiCall) <= 72, "ApiCall grew: keep the fields packed (see above)");

enum class DeviceKind : uint8_t { kKernel, kMemcpy, kMemset, kSynchronization };

// A kernel's launch configuration as recorded: one per distinct configuration of a file
// (TraceModel::kernel_launches), shared by the kernels launched with it. The host side
// (the launching call's arguments) knows no registers or static shared memory: 0 there.
struct KernelLaunch {
  NameId name = 0;  // the kernel's display (demangled) name
  uint32_t grid[3] = {0, 0, 0};
  uint32_t block[3] = {0, 0, 0};
  uint32_t registers_per_thread = 0;
  uint32_t static_shared_memory = 0;   // bytes per block
  uint32_t dynamic_shared_memory = 0;  // bytes per block
};
const char* DeviceKindName(DeviceKind kind);

// Fields ordered so the record packs into 56 bytes (it was 64): a 10M-event trace holds
// millions, and every walk over them (building, correlating, the tree, the tables) reads
// their pages. Hence no clock flag (the builder keeps which of its records are still on
// the CUPTI clock: ModelBuilder::ConvertClocks), copy_kind in a byte and both memory kinds
// in one.
struct DeviceActivity {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint64_t correlation_id = 0;
  uint64_t bytes = 0;
  NameId name = 0;  // display name: demangled kernel, MEMCPY_HtoD, MEMSET, ...
  uint32_t device = 0;
  uint32_t stream = 0;
  int32_t api_call = kNoIndex;  // launching call (correlation stage)
  int32_t launch = kNoIndex;    // kernels: index in TraceModel::kernel_launches
  DeviceKind kind = DeviceKind::kKernel;
  bool nccl = false;  // an NCCL kernel (either name generation)
  // Copies only: copy_kind() (undefined values kept as unknown), in a byte.
  uint8_t copy_kind_byte = schema::COPY_KIND_UNKNOWN;
  // Copies: the memory kinds copied from and to (schema::MemoryKind, 0-6: the source in the
  // low nibble, the destination in the high), for names that say them (Kineto's "Memcpy
  // HtoD (Pageable -> Device)").
  uint8_t memory_kinds = 0;

  schema::CopyKind copy_kind() const { return static_cast<schema::CopyKind>(copy_kind_byte); }
  // A defined schema::CopyKind (below 256).
  void set_copy_kind(schema::CopyKind kind) { copy_kind_byte = static_cast<uint8_t>(kind); }
  schema::MemoryKind source_kind() const {
    return static_cast<schema::MemoryKind>(memory_kinds & 0xf);
  }
  schema::MemoryKind destination_kind() const {
    return static_cast<schema::MemoryKind>(memory_kinds >> 4);
  }
  // Both kinds, each a defined schema::MemoryKind (below 16).
  void set_memory_kinds(schema::MemoryKind source, schema::MemoryKind destination) {
    memory_kinds = static_cast<uint8_t>(source | destination << 4);
  }
};

static_assert(sizeof(DeviceActivity) <= 56,
              "DeviceActivity grew: keep the fields packed (see above)");

struct NcclCall {
  uint64_t thread_id = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint64_t bytes = 0;
  uint64_t comm_hash = 0;
  int32_t rank_count = 0;  // 0: unknown communicator
  schema::NcclOperation operation = schema::NCCL_OPERATION_UNSPECIFIED;
  bool cupti_clock = false;
  // Arguments as recorded (for the timeline exports).
  uint64_t count = 0;      // elements
  uint32_t data_type = 0;  // ncclDataType_t
  int32_t comm_rank = -1;  // this process's rank in the communicator; -1: unknown
  uint64_t stream = 0;
  int64_t sequence_number = 0;
  bool has_root_or_peer = false;
  int64_t root_or_peer = 0;  // root (Broadcast, Reduce, ...) or peer (Send, Recv) rank
  bool has_reduction_op = false;
  uint32_t reduction_op = 0;  // ncclRedOp_t
};

struct MemoryRecord {
  uint64_t time_ns = 0;
  uint64_t address = 0;
  uint64_t bytes = 0;  // 0 on frees
  uint64_t thread_id = 0;
  int32_t device = -1;
  bool allocate = true;
  schema::MemoryKind kind = schema::MEMORY_KIND_UNKNOWN;
  bool cupti_clock = false;
  std::string call_stack;  // every frame, symbolized where the agent could, else hex,
                           // innermost first, " < " between; often empty
};

// Memory in use at a step boundary (Chunk.memory_samples): a device's caching-allocator
// figures (device >= 0), or the process's resident set size (device -1). Host clock.
struct MemorySample {
  uint64_t time_ns = 0;
  int32_t device = -1;
  uint64_t allocated = 0;
  uint64_t reserved = 0;
  uint64_t peak = 0;
  uint64_t rss = 0;

  // The time that places the sample in a step: the host's RSS is read at a step boundary,
  // for the step that ends there, so one nanosecond earlier (the Memory per Step table and
  // the window slicer's cut both place it so).
  uint64_t step_time_ns() const { return device >= 0 || time_ns == 0 ? time_ns : time_ns - 1; }
};

// Who recorded the model: the identity shared by its files.
struct ProcessIdentity {
  std::string host;
  int64_t pid = 0;
  int32_t rank = -1;
  int32_t world_size = 0;
  std::string worker_name;
};

struct TraceModel {
  ProcessIdentity identity;
  std::vector<std::string> files;
  std::vector<trace::FileHeader> headers;  // parallel to files
  StringPool names;
  std::vector<HostRange> ranges;  // includes steps (kProfileStep) and marks
  std::vector<ApiCall> api_calls;
  std::vector<DeviceActivity> device_activities;
  std::vector<KernelLaunch> kernel_launches;  // DeviceActivity::launch indexes it
  std::vector<NcclCall> nccl_calls;
  std::vector<MemoryRecord> memory;
  std::vector<MemorySample> memory_samples;  // in file order
  std::map<uint64_t, NameId> thread_names;
  // Per file with both readings: CPU counters at the window's open and close (the Device
  // Summary's CPU rows).
  struct CpuWindow {
    trace::CpuUsage open;
    trace::CpuUsage close;
  };
  std::vector<CpuWindow> cpu_windows;
  DataQuality quality;
  uint64_t event_count = 0;  // every decoded event
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MODEL_TRACE_MODEL_H_
