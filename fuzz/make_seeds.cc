// Writes the fuzzers' seed corpus: the format tests' sample trace (every event kind, every
// optional field), a realistic training-step mix, and the crafted hostile traces; as whole
// files into FOLDER/files and as chunk payloads into FOLDER/chunks. Small on purpose.
//   make_seeds FOLDER
// And, for a chunk decoder finding, the trace file that carries it as its only chunk, so
// it can join analyzer/testdata/hostile/:
//   make_seeds --frame CHUNK_PAYLOAD OUT.pb
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/testing/hostile_traces.h"
#include "proto/chunk_encoder.h"
#include "proto/testing/realistic_mix.h"
#include "proto/testing/sample_trace.h"
#include "proto/trace_file_reader.h"

namespace {

void Write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string RealisticFile() {
  prof::ChunkEncoder encoder;
  prof::testing::RealisticMix mix(&encoder, 3);
  std::vector<prof::trace::Chunk> chunks;
  for (int chunk = 0; chunk < 2; ++chunk) {
    for (int group = 0; group < 10; ++group) mix.AddGroup();
    const std::string_view bytes = encoder.Finish(chunk == 1);  // the serialized Chunk
    chunks.emplace_back();
    chunks.back().ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
  }
  return prof::analyzer::testing::FramedFile(chunks);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--frame") {
    std::ifstream in(argv[2], std::ios::binary);
    const std::string payload((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
    Write(argv[3],
          prof::analyzer::testing::FramedFile({}) + prof::analyzer::testing::ChunkFrame(payload));
    return 0;
  }
  if (argc != 2) return 2;
  const std::string folder = argv[1];
  std::vector<std::pair<std::string, std::string>> files = {
      {"sample.pb", prof::testing::MakeSampleTrace(2, 2).bytes},
      {"realistic.pb", RealisticFile()},
  };
  for (const auto& trace : prof::analyzer::testing::HostileTraces()) {
    if (trace.bytes.size() < 4096) files.push_back({trace.name, trace.bytes});
  }
  int chunks = 0;
  for (const auto& [name, bytes] : files) {
    Write(folder + "/files/" + name, bytes);
    auto reader = prof::TraceFileReader::OpenSource(prof::MakeMemorySource(bytes), name);
    prof::trace::Chunk chunk;
    while (reader.ok() && (*reader)->Next(&chunk)) {
      Write(folder + "/chunks/chunk" + std::to_string(chunks++) + ".bin",
            chunk.SerializeAsString());
    }
  }
  std::printf("%zu files, %d chunks\n", files.size(), chunks);
  return 0;
}
