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

struct ApiCall {
  uint64_t thread_id = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint64_t correlation_id = 0;
  NameId name = 0;
  bool driver = false;
  bool failed = false;  // status != success
  bool cupti_clock = false;
  int32_t parent_range = kNoIndex;  // innermost host range holding its start (tree stage)
  // Copies and memsets (Memory Manipulation Summary): the call's own arguments, for calls
  // whose device record is missing (CUPTI off or lost). 0 / UNKNOWN where not recorded.
  uint64_t bytes = 0;
  schema::CopyKind copy_kind = schema::COPY_KIND_UNKNOWN;
};

enum class DeviceKind : uint8_t { kKernel, kMemcpy, kMemset, kSynchronization };
const char* DeviceKindName(DeviceKind kind);

struct DeviceActivity {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint64_t correlation_id = 0;
  uint64_t bytes = 0;
  NameId name = 0;  // display name: demangled kernel, MEMCPY_HtoD, MEMSET, ...
  uint32_t device = 0;
  uint32_t stream = 0;
  DeviceKind kind = DeviceKind::kKernel;
  bool nccl = false;                // an NCCL kernel (either name generation)
  bool cupti_clock = true;
  int32_t api_call = kNoIndex;      // launching call (correlation stage)
};

struct NcclCall {
  uint64_t thread_id = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint64_t bytes = 0;
  uint64_t comm_hash = 0;
  int32_t rank_count = 0;  // 0: unknown communicator
  schema::NcclOperation operation = schema::NCCL_OPERATION_UNSPECIFIED;
  bool cupti_clock = false;
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
  std::string call_stack;  // symbolized or hex frames, innermost first; often empty
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
