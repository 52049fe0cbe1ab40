// What a timeline event carries besides its time: the recorded arguments of each kind of
// record (kernel launch configuration and occupancy, copy bytes/kind/bandwidth, API call
// arguments, NCCL counts/dtypes/communicator/peer, allocation stacks), and the display
// names both timeline exports use. One source, so the Chrome JSON and the Perfetto
// protobuf exports carry the same facts.
//
// Pure functions; thread-safe.
#ifndef PROF_ANALYZER_RENDER_TIMELINE_ARGS_H_
#define PROF_ANALYZER_RENDER_TIMELINE_ARGS_H_

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "analyzer/model/trace_model.h"
#include "analyzer/render/json_writer.h"

namespace prof::analyzer {

struct TimelineArg {
  std::string key;
  std::variant<int64_t, uint64_t, double, std::string> value;
};
using TimelineArgs = std::vector<TimelineArg>;

// "ncclAllReduce", "ncclSend", ...; "ncclOp(99)" for a value the schema does not define.
std::string NcclFunctionName(schema::NcclOperation operation);
// "ncclFloat32", ...; "ncclDataType(99)" outside ncclDataType_t.
std::string NcclDataTypeName(uint32_t data_type);
// "ncclSum", ...; "ncclRedOp(99)" for a custom (ncclRedOpCreate*) or unknown operation.
std::string NcclReductionName(uint32_t reduction_op);
// "HtoD", "DtoH", "DtoD", "HtoH", "PtoP", "Default", "Unknown".
const char* CopyKindShortName(schema::CopyKind kind);

// Kernels: grid, block, registers, shared memory, theoretical occupancy; copies: bytes,
// kind, GB/s; memsets: bytes; every record: its correlation id.
TimelineArgs DeviceActivityArgs(const TraceModel& model, const DeviceActivity& activity);
// Correlation id, status, and stream / bytes / copy kind / launch stack where recorded;
// launches: the kernel's name, grid, block and dynamic shared memory as the call passed them.
TimelineArgs ApiCallArgs(const TraceModel& model, const ApiCall& call);
// Count, dtype, bytes, reduction, communicator hash, rank and size, root or peer rank.
TimelineArgs NcclCallArgs(const NcclCall& call);
// Address, bytes, device, memory kind and the symbolized stack.
TimelineArgs MemoryArgs(const MemoryRecord& record);

// Writes each arg as a key and its value into the JSON object open in `json` (the Chrome and
// Kineto exports' "args"; doubles with 3 decimals).
void WriteTimelineArgValues(const TimelineArgs& args, JsonWriter* json);

// One value a memory sample (Chunk.memory_samples) puts on a counter track.
struct SampleCounter {
  std::string track;
  int slot = 0;  // the track's place among its place's tracks: 0 allocated, 1 reserved, 2 RSS
  uint64_t bytes = 0;
};
// A device sample: "GPU<d> allocated" and "GPU<d> reserved" (the caching allocator's live
// and held bytes); a host sample (device -1): "Host RSS". In that order.
std::vector<SampleCounter> MemorySampleCounters(const MemorySample& sample);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_TIMELINE_ARGS_H_
