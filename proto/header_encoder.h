// The messages the agent writes outside the event columns, as plain values, and their
// encoders: the file header (FileHeader with its config map), clock anchors and CPU usage
// readings. Written with proto/wire_format.h (no libprotobuf); the fields and numbers are
// those of proto/trace.proto, whose comments say what each value means.
//
//   prof::FileHeaderValue header;
//   header.host_name = "node7";
//   std::string payload = prof::EncodeFileHeader(header);  // a serialized trace::FileHeader
#ifndef PROF_PROTO_HEADER_ENCODER_H_
#define PROF_PROTO_HEADER_ENCODER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "proto/wire_format.h"

namespace prof {

// trace::ClockAnchor
struct ClockAnchorValue {
  uint64_t host_monotonic_ns = 0;
  uint64_t host_realtime_ns = 0;
  uint64_t cupti_ns = 0;
  uint64_t uncertainty_ns = 0;
  std::string reason;
};

// trace::CpuUsage
struct CpuUsageValue {
  uint64_t host_monotonic_ns = 0;
  uint64_t process_cpu_ns = 0;
  uint64_t system_busy_ticks = 0;
  uint64_t system_idle_ticks = 0;
  bool system_known = false;
};

// trace::FlightUnfinishedCall
struct FlightUnfinishedCallValue {
  uint64_t comm_hash = 0;
  int64_t sequence_number = 0;
  int32_t operation = 0;  // schema::NcclOperation
  uint64_t enter_ns = 0;
  uint64_t thread_id = 0;
  int32_t result = 0;        // ncclResult_t; 0: still running
  int32_t device_state = 0;  // 0 not followed, 1 enqueued, 2 started, 3 completed
};

// trace::FlightDump; `reason` empty: not a flight dump (the field is left out).
// trace::FlightLaunch
struct FlightLaunchValue {
  uint64_t stream = 0;
  std::string kernel;
  uint64_t launch_ns = 0;
  uint64_t thread_id = 0;
};

struct FlightDumpValue {
  std::string reason;
  std::string detail;
  uint64_t dump_ns = 0;
  uint64_t calls_seen = 0;
  uint64_t calls_overwritten = 0;
  uint64_t calls_torn = 0;
  uint64_t ring_entries = 0;
  std::vector<FlightUnfinishedCallValue> unfinished;
  uint64_t device_untracked = 0;
  uint64_t host_entries = 0;
  uint64_t host_seen = 0;
  uint64_t host_overwritten = 0;
  uint64_t host_torn = 0;
  uint64_t host_threads_refused = 0;
  uint64_t host_threads_small = 0;
  std::vector<FlightLaunchValue> last_launches;
};

// trace::FileHeader
struct FileHeaderValue {
  uint32_t format_version = 0;  // TraceFileWriter sets it to kFormatVersion
  std::string agent_version;
  std::string host_name;
  int64_t pid = 0;
  int32_t rank = 0;
  int32_t world_size = 0;
  int32_t local_rank = 0;
  std::string worker_name;
  uint32_t window_index = 0;
  int64_t window_first_step = 0;
  int64_t window_end_step = 0;
  std::vector<ClockAnchorValue> clock_anchors;
  std::map<std::string, std::string> config;
  std::string command_line;
  std::vector<CpuUsageValue> cpu_usage;
  int32_t window_origin = 0;  // schema::WindowOrigin
  FlightDumpValue flight;
};

// Append the message's fields (not a length prefix) to `out`.
void EncodeClockAnchor(const ClockAnchorValue& anchor, wire::Buffer* out);
void EncodeCpuUsage(const CpuUsageValue& usage, wire::Buffer* out);

// Append the message as field `field` of an enclosing message.
void PutClockAnchorField(wire::Buffer* out, uint32_t field, const ClockAnchorValue& anchor);
void PutCpuUsageField(wire::Buffer* out, uint32_t field, const CpuUsageValue& usage);

// A serialized trace::FileHeader.
std::string EncodeFileHeader(const FileHeaderValue& header);

}  // namespace prof

#endif  // PROF_PROTO_HEADER_ENCODER_H_
