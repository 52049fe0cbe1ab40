// Reads one trace file, streaming chunk by chunk, into a TraceModel. Damage the reader
// recovered from, records the agent lost and blocks the decoder skipped all land in the
// model's DataQuality; only a file that cannot be read at all is an error.
//
// Thread-compatible: load different files from different threads.
//
//   absl::StatusOr<TraceModel> model = LoadTraceFile("rank0.pb", &events_read);
#ifndef PROF_ANALYZER_READ_TRACE_FILE_LOADER_H_
#define PROF_ANALYZER_READ_TRACE_FILE_LOADER_H_

#include <atomic>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "analyzer/model/trace_model.h"

namespace prof::analyzer {

// Errors: cannot open, not a trace, newer format version (the reader's message, prefixed
// with the path). `events_read`, when given, is advanced as chunks are decoded so another
// thread can show progress.
absl::StatusOr<TraceModel> LoadTraceFile(const std::string& path,
                                         std::atomic<uint64_t>* events_read = nullptr);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_READ_TRACE_FILE_LOADER_H_
