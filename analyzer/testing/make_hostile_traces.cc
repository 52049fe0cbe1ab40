// Writes the crafted hostile traces (hostile_traces.h) into a folder; the checked-in copies
// in analyzer/testdata/hostile/ came from it.
//
//   bazel run //analyzer/testing:make_hostile_traces -- $PWD/analyzer/testdata/hostile
// With --large, it also writes the MiB-sized variants (fake headers, an expanding frame)
// used to show the quadratic resynchronization and the memory expansion; not checked in.
#include <cstdio>
#include <fstream>
#include <string>

#include "analyzer/testing/hostile_traces.h"

int main(int argc, char** argv) {
  if (argc != 2 && !(argc == 3 && std::string(argv[2]) == "--large")) {
    std::fprintf(stderr, "usage: make_hostile_traces FOLDER [--large]\n");
    return 2;
  }
  for (const auto& trace : prof::analyzer::testing::HostileTraces()) {
    const std::string path = std::string(argv[1]) + "/" + trace.name;
    std::ofstream(path, std::ios::binary) << trace.bytes;
    std::printf("%s %zu bytes\n", path.c_str(), trace.bytes.size());
  }
  if (argc == 3) {
    using namespace prof::analyzer::testing;
    const std::string folder = argv[1];
    std::ofstream(folder + "/fake_frame_headers_4mib.pb", std::ios::binary)
        << FramedFile({}) + FakeFrameHeaders(4u << 20, 60u << 20);
    std::ofstream(folder + "/empty_threads_8mib.pb", std::ios::binary)
        << FramedFile({}) + ChunkFrame(EmptyThreadsPayload(4u << 20));
  }
  return 0;
}
