// The packet writer and track descriptors of the Perfetto export (perfetto_exporter.h):
// writes each TracePacket as one Trace.packet field, and describes each track (process,
// thread, GPU, stream, named child tracks) once, the first time an event uses it.
#ifndef PROF_ANALYZER_RENDER_PERFETTO_TRACKS_H_
#define PROF_ANALYZER_RENDER_PERFETTO_TRACKS_H_

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>

#include "analyzer/model/trace_model.h"
#include "analyzer/render/perfetto_trace.pb.h"

namespace prof::analyzer {

struct PerfettoExportFigures {
  uint64_t packets = 0;
  uint64_t slices = 0;
  uint64_t flows = 0;
  uint64_t clamped_slices = 0;  // ended early where a later slice on their track overlapped them
};

enum PerfettoTrackKind : uint64_t {
  kPerfettoProcess = 1,
  kPerfettoThread,
  kPerfettoGpu,
  kPerfettoStream,
  kPerfettoWindows,
  kPerfettoMemory,
  kPerfettoMemorySample
};

// Perfetto tracks are named by 64-bit uuids: a mix of what the track is and whose.
uint64_t PerfettoUuid(uint64_t kind, uint64_t process_index, uint64_t a, uint64_t b = 0);

constexpr uint32_t kPerfettoSequence = 1;  // every packet comes from this one writer

class PerfettoTracks {
 public:
  PerfettoTracks(std::FILE* out, PerfettoExportFigures* figures) : out_(out), figures_(figures) {}

  void Write(const perfetto::TracePacket& packet);
  // False where a write fell short or the flush failed.
  bool Flush() { return std::fflush(out_) == 0 && !failed_; }

  // Each describes its track once (the first time it is used) and returns its uuid.
  uint64_t Process(const TraceModel& model, size_t process_index);
  uint64_t Thread(const TraceModel& model, size_t process_index, uint64_t thread);
  uint64_t Gpu(const TraceModel& model, size_t process_index, uint32_t device);
  uint64_t Stream(const TraceModel& model, size_t process_index, uint32_t device, uint32_t stream);
  uint64_t Child(uint64_t parent, uint64_t uuid, const std::string& name, bool bytes_counter);

 private:
  std::FILE* out_;
  PerfettoExportFigures* figures_;
  bool failed_ = false;
  std::set<uint64_t> described_;
  std::string buffer_;  // one packet's bytes, reused
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_PERFETTO_TRACKS_H_
