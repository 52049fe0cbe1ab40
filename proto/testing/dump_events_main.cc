// Prints every event of a trace file as "<chunk index> <description>" (event_strings.h), the
// events of each chunk sorted: how testdata/*.events.txt beside a checked-in old trace
// were written, by the build that wrote the trace.
//
//   bazel run //proto:dump_events -- TRACE > TRACE.events.txt
#include <algorithm>
#include <cstdio>
#include <string>

#include "proto/chunk_decoder.h"
#include "proto/testing/event_strings.h"
#include "proto/trace_file_reader.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: dump_events TRACE\n");
    return 2;
  }
  auto reader = prof::TraceFileReader::Open(argv[1]);
  if (!reader.ok()) {
    std::fprintf(stderr, "dump_events: %s\n", std::string(reader.status().message()).c_str());
    return 1;
  }
  prof::trace::Chunk chunk;
  for (int index = 0; (*reader)->Next(&chunk); ++index) {
    prof::testing::RecordingSink sink;
    prof::DecodeChunk(chunk, &sink);
    std::sort(sink.events.begin(), sink.events.end());
    for (const std::string& event : sink.events) std::printf("%d %s\n", index, event.c_str());
  }
  return 0;
}
