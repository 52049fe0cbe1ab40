// Test support: reads every trace file in a folder and counts what it holds, by kind and
// name, so end-to-end tests can compare a recorded run with the program's ground truth.
#ifndef PROF_AGENT_TESTS_TRACE_SUMMARY_H_
#define PROF_AGENT_TESTS_TRACE_SUMMARY_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace prof::testing {

struct FileSummary {
  std::string path;
  bool complete = false;  // read whole, with the final chunk
  uint64_t chunks = 0;
  uint64_t largest_chunk_events = 0;  // the most events one chunk held
  int64_t pid = 0;
  uint32_t window_index = 0;
  int window_origin = 0;  // trace::WindowOrigin
  std::vector<std::string> issues;
};

// One NCCL call with its communicator as the file defines it.
struct NcclCallDetail {
  int operation = 0;  // NcclOperation
  uint64_t count = 0;
  uint64_t bytes = 0;
  uint32_t data_type = 0;
  int64_t root_or_peer = -1;  // -1: none recorded
  int64_t reduction = -1;     // -1: none recorded
  int64_t sequence_number = 0;
  uint64_t comm_hash = 0;
  int rank = -1;
  int rank_count = 0;
};

struct TraceSummary {
  std::vector<FileSummary> files;
  std::map<std::string, uint64_t> api_calls;  // by API name
  std::map<std::string, uint64_t> launches;   // API launches by kernel name
  std::map<std::string, uint64_t> kernels;    // device records by kernel name
  std::map<std::string, uint64_t> kernel_ns;  // device time by kernel name
  std::map<std::string, uint64_t> ranges;     // host ranges by name (not marks)
  std::map<std::string, uint64_t> marks;
  std::map<std::string, uint64_t> ranges_by_domain;  // "domain/name" for non-default domains
  std::map<int, uint64_t> ranges_by_kind;            // RangeKind -> count
  std::map<int, uint64_t> memcpy_bytes_by_kind;      // API calls: CopyKind -> bytes
  std::map<int, uint64_t> nccl_calls;                // NcclOperation -> count
  std::vector<NcclCallDetail> nccl_details;          // every NCCL call but group calls
  std::map<int, uint64_t> losses;                    // LossKind -> count
  std::vector<std::string> thread_names;
  std::vector<std::string> process_names;
  std::vector<int64_t> step_numbers;
  std::vector<int64_t> step_samples;
  std::vector<std::pair<uint64_t, uint64_t>> step_spans;      // [start, end) of each step above
  std::map<int64_t, std::map<int, uint64_t>> losses_by_step;  // step -> LossKind -> count
  std::vector<uint64_t> launch_start_ns;  // start of every API call that launched a kernel
  uint64_t memory_events = 0;
  uint64_t events_with_stack = 0;         // API calls and allocations carrying a call stack
  uint64_t named_stack_frames = 0;        // frames symbolized by the agent
  std::vector<std::string> sample_stack;  // the first stack's frame names
  uint64_t device_memcpys = 0;
  uint64_t device_memsets = 0;
  // Kernels, copies and memsets whose correlation id is no API call's of the same file:
  // device work the trace cannot attribute to its launch (0 on every workload).
  uint64_t unmatched_device_records = 0;
  uint64_t unknown_references = 0;
  uint64_t malformed_blocks = 0;  // decoder: blocks skipped because their columns disagree
  std::string first_decode_problem;
};

// Reads every *.prof.pb file under `folder`.
TraceSummary SummarizeFolder(const std::string& folder);

}  // namespace prof::testing

#endif  // PROF_AGENT_TESTS_TRACE_SUMMARY_H_
