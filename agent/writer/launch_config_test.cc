// The converter's launch configurations (record_converter.cc LaunchConfigIn): every launch
// record gets the configuration of its own kernel and geometry, also when launches
// alternate between pairs that share a slot of the file's memo, or differ only in a
// geometry field the memo's slot ignores; and a launch in one line (LaunchRecord) gets the
// same configuration as the same launch recorded whole (ApiCallRecord).
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "agent/cupti/cupti_test_support.h"
#include "agent/record/api_ids.h"
#include "agent/record/kernel_names.h"
#include "agent/writer/record_converter.h"
#include "proto/chunk_decoder.h"
#include "proto/file_dictionary.h"
#include "proto/trace_file_reader.h"

namespace prof {
namespace {

// Every launch's stream handle, plus one.
constexpr uint64_t kStreamPlusOne = 0x7f0012345679;

struct Launch {
  const void* function;
  LaunchGeometry geometry;
};

// A launch recorded whole, as cudaLaunchKernel's hook does when the packed form does not
// fit it (recorder.h RecordApiCall).
ApiCallRecord WholeRecord(const Launch& launch, uint64_t time) {
  ApiCallRecord record{};
  record.size = static_cast<uint16_t>(sizeof(ApiCallRecord));
  record.kind = RecordKind::kApiCall;
  record.api = kApi_cudaLaunchKernel;
  record.start_ns = time;
  record.end_ns = time + 10;
  record.stream_plus_one = kStreamPlusOne;
  record.function = launch.function;
  record.launch = launch.geometry;
  return record;
}

// The same launch in one line, as the hook records it when it fits.
LaunchRecord LineRecord(const Launch& launch, uint64_t time) {
  LaunchRecord record{};
  record.size = static_cast<uint16_t>(sizeof(LaunchRecord));
  record.kind = RecordKind::kLaunch;
  record.api = kApi_cudaLaunchKernel;
  record.start_ns = time;
  record.end_ns = time + 10;
  REQUIRE(PackLaunch(launch.function, kStreamPlusOne, launch.geometry, &record.launch));
  return record;
}

// (function name, grid x, grid y, block x, shared memory) of every launch in the file.
using Seen = std::tuple<std::string, uint32_t, uint32_t, uint32_t, uint32_t>;

class LaunchSink : public EventSink {
 public:
  explicit LaunchSink(FileDictionary* dictionary) : dictionary_(dictionary) {}
  void OnApiCall(const ApiCallEvent& call) override {
    streams.push_back(call.stream.value_or(0));
    const KernelConfigValue* config = dictionary_->KernelConfig(call.kernel_config);
    if (!config) {
      seen.emplace_back("<none>", 0, 0, 0, 0);
      return;
    }
    seen.emplace_back(std::string(dictionary_->String(config->name)), config->grid[0],
                      config->grid[1], config->block[0], config->dynamic_shared_memory);
  }
  std::vector<Seen> seen;
  std::vector<uint64_t> streams;

 private:
  FileDictionary* dictionary_;
};

std::vector<Seen> ReadLaunches(const std::string& path, std::vector<uint64_t>* streams) {
  FileDictionary dictionary;
  LaunchSink sink(&dictionary);
  auto reader = TraceFileReader::Open(path);
  REQUIRE(reader.ok());
  trace::Chunk chunk;
  while ((*reader)->Next(&chunk)) {
    dictionary.AddDefinitions(chunk);
    DecodeChunk(chunk, &sink);
  }
  *streams = sink.streams;
  return sink.seen;
}

TEST_CASE("each launch gets its own kernel and geometry, whatever the memo holds") {
  // Two "functions" whose launches share a memo slot (the slot ignores grid y and the
  // shared memory, so a's geometries below share it too).
  static char functions[64 * FileInterning::kLaunchMemoSlots];
  const auto slot_of = [](const void* function) {
    PackedLaunch packed;
    REQUIRE(PackLaunch(function, 0, {{1, 1, 1}, {32, 1, 1}, 0, 0}, &packed));
    return FileInterning::LaunchMemoSlot(packed);
  };
  const void* a = &functions[0];
  const void* b = nullptr;
  for (size_t i = 16; i < sizeof(functions) && !b; i += 16) {
    if (slot_of(&functions[i]) == slot_of(a)) b = &functions[i];
  }
  REQUIRE(b != nullptr);
  RegisterKernelName(a, "kernel_a");
  RegisterKernelName(b, "kernel_b");
  const std::vector<Launch> launches = {
      {a, {{1, 1, 1}, {32, 1, 1}, 0, 0}}, {b, {{1, 1, 1}, {32, 1, 1}, 0, 0}},
      {a, {{1, 2, 1}, {32, 1, 1}, 0, 0}}, {a, {{1, 1, 1}, {32, 1, 1}, 64, 0}},
      {a, {{1, 1, 1}, {32, 1, 1}, 0, 0}}, {b, {{1, 1, 1}, {32, 1, 1}, 0, 0}},
      {a, {{1, 2, 1}, {32, 1, 1}, 0, 0}}, {a, {{7, 1, 1}, {64, 1, 1}, 0, 0}},
      // Beyond the packed form (grid x >= 2^20): always recorded whole, found in the map.
      {a, {{1u << 20, 1, 1}, {32, 1, 1}, 0, 0}}, {b, {{1u << 21, 3, 1}, {32, 1, 1}, 0, 0}},
  };
  testing::OneWindowRouter router("launch_configs");
  RecordConverter converter([](uint32_t) -> WindowFile* { return nullptr; });
  uint64_t time = 1000;
  // Rounds alternate the two record forms; a round of mixed forms last.
  for (int round = 0; round < 4; ++round) {
    for (size_t i = 0; i < launches.size(); ++i) {
      PackedLaunch packs;
      const bool line = (round == 3 ? i % 2 == 1 : round % 2 == 1) &&
                        PackLaunch(launches[i].function, 1, launches[i].geometry, &packs);
      time += 100;
      if (line) {
        converter.Add(1, LineRecord(launches[i], time), router.window());
      } else {
        converter.Add(1, WholeRecord(launches[i], time), router.window());
      }
    }
    router.window().Flush(false);  // the next round's lookups find ids of earlier chunks
  }
  std::vector<uint64_t> streams;
  const std::vector<Seen> seen = ReadLaunches(router.Finish(), &streams);
  REQUIRE(seen.size() == 4 * launches.size());
  const std::string name_a = "kernel_a";
  const std::string name_b = "kernel_b";
  for (size_t i = 0; i < seen.size(); ++i) {
    const Launch& launch = launches[i % launches.size()];
    INFO("launch " << i);
    CHECK(std::get<0>(seen[i]) == (launch.function == a ? name_a : name_b));
    CHECK(std::get<1>(seen[i]) == launch.geometry.grid[0]);
    CHECK(std::get<2>(seen[i]) == launch.geometry.grid[1]);
    CHECK(std::get<3>(seen[i]) == launch.geometry.block[0]);
    CHECK(std::get<4>(seen[i]) == launch.geometry.shared_memory);
    CHECK(streams[i] == 0x7f0012345678);
  }
}

}  // namespace
}  // namespace prof
