// Prints what trace_summary.h counts in a folder of traces: a debugging aid for the
// agent's end-to-end tests.  bazel run //agent/tests:trace_counts -- FOLDER
#include <cstdio>

#include "agent/tests/trace_summary.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: trace_counts FOLDER\n");
    return 2;
  }
  const prof::testing::TraceSummary summary = prof::testing::SummarizeFolder(argv[1]);
  for (const auto& file : summary.files) {
    std::printf("file %s pid=%ld window=%u chunks=%lu complete=%d\n", file.path.c_str(),
                static_cast<long>(file.pid), file.window_index,
                static_cast<unsigned long>(file.chunks), file.complete);
    for (const auto& issue : file.issues) std::printf("  issue: %s\n", issue.c_str());
  }
  for (const auto& [name, count] : summary.api_calls)
    std::printf("api %s %lu\n", name.c_str(), count);
  for (const auto& [name, count] : summary.launches)
    std::printf("launch %s %lu\n", name.c_str(), count);
  for (const auto& [name, count] : summary.kernels)
    std::printf("kernel %s %lu\n", name.c_str(), count);
  for (const auto& [name, count] : summary.ranges)
    std::printf("range %s %lu\n", name.c_str(), count);
  for (const auto& [name, count] : summary.marks) std::printf("mark %s %lu\n", name.c_str(), count);
  for (const auto& [kind, count] : summary.losses) std::printf("loss kind=%d %lu\n", kind, count);
  std::printf("malformed %lu %s\n", static_cast<unsigned long>(summary.malformed_blocks),
              summary.first_decode_problem.c_str());
  std::printf("steps %zu memory %lu unknown_refs %lu\n", summary.step_numbers.size(),
              static_cast<unsigned long>(summary.memory_events),
              static_cast<unsigned long>(summary.unknown_references));
  return 0;
}
