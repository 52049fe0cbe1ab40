// Reads one trace file, streaming chunk by chunk, into a TraceModel. Damage the reader
// recovered from, records the agent lost and blocks the decoder skipped all land in the
// model's DataQuality; only a file that cannot be read at all is an error.
//
// Thread-compatible: load different files from different threads.
//
//   absl::StatusOr<TraceModel> model = LoadTraceFile("rank0.pb", &events_read);
//   ReadTraceFileInSlices("rank0.pb", {}, nullptr, [&](TraceModel slice) { ... });
#ifndef PROF_ANALYZER_READ_TRACE_FILE_LOADER_H_
#define PROF_ANALYZER_READ_TRACE_FILE_LOADER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "analyzer/model/trace_model.h"

namespace prof::analyzer {

// Errors: cannot open, not a trace, newer format version (the reader's message, prefixed
// with the path). `events_read`, when given, is advanced as chunks are decoded so another
// thread can show progress.
absl::StatusOr<TraceModel> LoadTraceFile(const std::string& path,
                                         std::atomic<uint64_t>* events_read = nullptr);

// A window larger than memory allows is analyzed in step-aligned slices (window_slicer.h).
struct SliceOptions {
  // Files of at most this many bytes are read whole, as LoadTraceFile does (0: none). A
  // trace takes about 6 bytes per event on disk and a whole read about 110 in memory, so
  // 32 MiB (about 6M events) is read whole in about 600 MiB.
  uint64_t whole_file_bytes = uint64_t{32} << 20;
  // The file is decoded in segments of about this many events, and a cut is tried after
  // each: a slice holds about as many, or the three steps a cut needs when those are more.
  // Small on purpose: a slice's records are walked a dozen times (linking, the split, the
  // range tree, each table), and a slice of 64K events (about 4 MiB of records) is still in
  // the cache for all of them; slices of 2M events took half again as much CPU on the
  // benchmark's 10M-event file, at ten times the peak memory (docs/benchmarks.md).
  uint64_t segment_events = uint64_t{1} << 16;
  // Past this many events held (no step end could be cut by the rule: a device stream not
  // yet read past it, a range spanning it), the latest step end is cut anyway; records
  // arriving after it are counted late (window_slicer.h). A memory bound, not a speed knob.
  uint64_t force_events = 8000000;
};

// Hands the file's window to `on_slice`: whole (one call, the model LoadTraceFile returns)
// when the file is small, else as consecutive step-aligned slices in time order, the first
// naming the file and the last holding the file's figures (clock line, reader report, CPU
// readings). Consumers that merge windows (summary/report.h) get the same figures either
// way. Errors: as LoadTraceFile, before any slice is handed on.
absl::Status ReadTraceFileInSlices(const std::string& path, const SliceOptions& options,
                                   std::atomic<uint64_t>* events_read,
                                   const std::function<void(TraceModel slice)>& on_slice);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_READ_TRACE_FILE_LOADER_H_
