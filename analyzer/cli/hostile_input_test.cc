// Every crafted or fuzzer-found file in analyzer/testdata/hostile/ goes through the whole
// summary command: exit status 0 when something could be read (the damage is in Data
// Quality), 1 when nothing could; never a signal, never an exception (issue 16).
#include <dirent.h>

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analyzer/cli/summary_command.h"
#include "analyzer/read/trace_file_loader.h"
#include "analyzer/summary/data_quality_summary.h"
#include "analyzer/testing/hostile_traces.h"

namespace prof::analyzer {
namespace {

constexpr char kFolder[] = "analyzer/testdata/hostile";

std::vector<std::string> HostileFiles() {
  std::vector<std::string> names;
  DIR* folder = opendir(kFolder);
  if (folder == nullptr) return names;
  while (const dirent* entry = readdir(folder)) {
    const std::string name = entry->d_name;
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".pb") == 0) names.push_back(name);
  }
  closedir(folder);
  return names;
}

TraceModel Load(const std::string& name) {
  absl::StatusOr<TraceModel> model = LoadTraceFile(std::string(kFolder) + "/" + name);
  REQUIRE(model.ok());
  return std::move(*model);
}

TEST_CASE("every hostile file exits 0 with Data Quality or 1, never crashes or throws") {
  std::map<std::string, bool> readable;
  for (const auto& trace : testing::HostileTraces()) readable[trace.name] = trace.readable;
  const std::vector<std::string> names = HostileFiles();
  REQUIRE(names.size() >= readable.size());
  for (const std::string& name : names) {
    INFO(name);
    SummaryCommandOptions options;
    options.paths = {std::string(kFolder) + "/" + name};
    options.threads = 1;
    int status = -1;
    REQUIRE_NOTHROW(status = RunSummaryCommand(options));
    auto expected = readable.find(name);
    if (expected != readable.end()) {
      CHECK(status == (expected->second ? 0 : 1));
    } else {
      CHECK((status == 0 || status == 1));  // a fuzzer finding: either is fine
    }
  }
}

TEST_CASE("ids no definition covers resolve to placeholders and are counted") {
  const TraceModel large = Load("name_id_7fffffff.pb");
  REQUIRE(large.api_calls.size() == 1);
  CHECK(large.names.Get(large.api_calls[0].name) == "<unknown string 2147483647>");
  const TraceModel wrapped = Load("name_id_ffffffff.pb");
  REQUIRE(wrapped.api_calls.size() == 1);
  CHECK(wrapped.names.Get(wrapped.api_calls[0].name) == "<unknown string 4294967295>");
  CHECK(wrapped.quality.unknown_dictionary_references == 1);
  // 2^28 - 2 is defined by the chunk itself: the id is legal, only its size was the attack.
  const TraceModel far = Load("first_string_id_2p28.pb");
  REQUIRE(far.api_calls.size() == 1);
  CHECK(far.names.Get(far.api_calls[0].name) == "hostile");
  // 0xFFFFFFFF is defined; the two strings after it would have ids past 2^32 - 1.
  const TraceModel wraps = Load("first_string_id_wraps.pb");
  CHECK(wraps.names.Get(wraps.api_calls[0].name) == "hostile");
  CHECK(wraps.quality.dropped_definitions == 2);
  const TraceModel kernel = Load("kernel_config_ffffffff.pb");
  REQUIRE(kernel.device_activities.size() == 1);
  CHECK(kernel.names.Get(kernel.device_activities[0].name) == "<unknown kernel>");
}

TEST_CASE("unknown enum values are shown as unknown and counted in Data Quality") {
  const TraceModel sync = Load("synchronization_kind_99.pb");
  REQUIRE(sync.device_activities.size() == 1);
  CHECK(sync.names.Get(sync.device_activities[0].name) == "SYNC_UNKNOWN(99)");
  CHECK(sync.quality.unknown_enum_values.at("synchronization kind") == 1);

  const TraceModel memory = Load("memory_kind_99.pb");
  CHECK(memory.quality.unknown_enum_values.at("memory kind") == 1);
  const TraceModel nccl = Load("nccl_operation_99.pb");
  CHECK(nccl.quality.unknown_enum_values.at("NCCL operation") == 1);
  const TraceModel other = Load("memory_operation_9_clock_5.pb");
  CHECK(other.quality.unknown_enum_values.at("memory operation") == 1);
  CHECK(other.quality.unknown_enum_values.at("clock domain") == 1);
  const TraceModel mixed = Load("loss_range_copy_kinds_99.pb");
  CHECK(mixed.quality.losses.at("UNKNOWN(99)") == 3);
  CHECK(mixed.quality.unknown_enum_values.at("loss kind") == 1);
  CHECK(mixed.quality.unknown_enum_values.at("range kind") == 1);
  CHECK(mixed.quality.unknown_enum_values.at("copy kind") == 1);
  CHECK(mixed.quality.unknown_enum_values.at("memory kind") == 2);

  std::optional<SummaryTable> table = DataQualitySummary(sync.quality);
  REQUIRE(table.has_value());
}

}  // namespace
}  // namespace prof::analyzer
