// Test support: builds small hand-made traces with the real ChunkEncoder and
// TraceFileWriter, so tests exercise the analyzer from the file up. Times are plain
// nanoseconds; device records are in the CUPTI domain, shifted by `cupti_offset_ns`
// (cupti = host + offset) so clock alignment is always exercised.
//
//   TestTrace trace;
//   trace.Step(1, 0, 1000, 1);
//   trace.Launch(1, 100, 110, "gemm", 0, 7, 200, 300);
//   std::string path = trace.Write("one_step.pb");
#ifndef PROF_ANALYZER_TESTING_TEST_TRACE_H_
#define PROF_ANALYZER_TESTING_TEST_TRACE_H_

#include <cstdint>
#include <map>
#include <string>

#include "proto/chunk_encoder.h"
#include "proto/trace.pb.h"

namespace prof::analyzer::testing {

inline constexpr uint64_t kDefaultCuptiOffset = 5000000;

class TestTrace {
 public:
  // `cupti_offset_ns`: CUPTI time minus host time; anchored in the header unless
  // `anchor` is false (the analyzer then assumes equal clocks).
  explicit TestTrace(int32_t rank = -1, int64_t pid = 4242,
                     uint64_t cupti_offset_ns = kDefaultCuptiOffset, bool anchor = true);

  void Step(uint64_t thread, uint64_t start, uint64_t end, int64_t number, int64_t samples = 0);
  void Range(uint64_t thread, schema::RangeKind kind, const std::string& name, uint64_t start,
             uint64_t end);
  void Mark(uint64_t thread, const std::string& name, uint64_t time);
  // An API call with the given correlation id (0: the next one); returns the id.
  uint64_t ApiCall(uint64_t thread, const std::string& name, uint64_t start, uint64_t end,
                   uint64_t correlation = 0);
  // Device records at host times (converted to CUPTI here).
  void Kernel(const std::string& name, uint32_t device, uint32_t stream, uint64_t start,
              uint64_t end, uint64_t correlation);
  void Memcpy(uint32_t device, uint32_t stream, uint64_t start, uint64_t end, uint64_t bytes,
              schema::CopyKind kind, uint64_t correlation,
              schema::MemoryKind source = schema::MEMORY_KIND_UNKNOWN,
              schema::MemoryKind destination = schema::MEMORY_KIND_UNKNOWN);
  void Memset(uint32_t device, uint32_t stream, uint64_t start, uint64_t end, uint64_t correlation);
  // cudaLaunchKernel [call_start, call_end) on `thread` and its kernel; returns the id.
  uint64_t Launch(uint64_t thread, uint64_t call_start, uint64_t call_end,
                  const std::string& kernel, uint32_t device, uint32_t stream, uint64_t start,
                  uint64_t end);
  // cudaLaunchKernel [call_start, call_end) on `thread` with the launch configuration the
  // host hooks record (no registers, no static shared memory), and no kernel record (a
  // run without CUPTI); returns the correlation id.
  uint64_t HostLaunch(uint64_t thread, uint64_t call_start, uint64_t call_end,
                      const std::string& kernel, const uint32_t (&grid)[3],
                      const uint32_t (&block)[3], uint32_t dynamic_shared_memory = 0);
  // An NCCL call on communicator `comm_hash` (this rank's place in it: the header's rank)
  // with the agent's per-communicator `sequence` number (0: none, as older agents wrote).
  void Nccl(uint64_t thread, schema::NcclOperation operation, uint64_t start, uint64_t end,
            uint64_t bytes, int32_t ranks, int64_t sequence = 0, uint64_t comm_hash = 0xC0FFEE);
  void Allocate(uint64_t thread, uint64_t time, uint64_t address, uint64_t bytes, int32_t device);
  void Free(uint64_t thread, uint64_t time, uint64_t address, int32_t device);
  void Loss(schema::LossKind kind, uint64_t count, int64_t step_number = -1) {
    encoder_.AddLoss(kind, count, step_number);
  }

  // Ends the current chunk (not the last) so later events go to a new one.
  void NextChunk();

  ChunkEncoder& encoder() { return encoder_; }
  trace::FileHeader& header() { return header_; }

  // Writes the file under TEST_TMPDIR and returns its path; `last_chunk` false leaves
  // the file as if the program was killed.
  std::string Write(const std::string& name, bool last_chunk = true);
  // The same at the path `path` (its folder must exist).
  void WriteFile(const std::string& path, bool last_chunk = true);

 private:
  trace::FileHeader header_;
  ChunkEncoder encoder_;
  std::vector<std::string> chunks_;  // serialized chunks already finished
  uint64_t cupti_offset_;
  uint64_t next_correlation_ = 1000;
  std::map<uint64_t, uint32_t> nccl_communicators_;  // comm hash -> dictionary id
};

// TEST_TMPDIR/name (or /tmp/name outside Bazel).
std::string TempPath(const std::string& name);

}  // namespace prof::analyzer::testing

#endif  // PROF_ANALYZER_TESTING_TEST_TRACE_H_
