// NCCL under libprof.so: communicators from every constructor (init, scalable init,
// split, shrink, init-all) carry their rank count and an identity shared by exactly their members;
// every collective records nccl-tests' bytes and its arguments; PROF_STEP_MARKER counts
// any intercepted NCCL call and refuses, with one line, a call it cannot count.
#include <nccl.h>

#include <map>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "agent/tests/program_runner.h"
#include "agent/tests/trace_summary.h"
#include "agent/tests/under_agent.h"
#include "proto/schema_enums.h"
#include "proto/trace.pb.h"

namespace prof::testing {
namespace {

// What nccl_comms_program does (see its header), by operation: calls in the whole
// process, count, data type, bytes by nccl-tests' rule, rank count, root, reduction.
struct Expected {
  uint64_t calls;
  uint64_t count;
  uint32_t data_type;
  uint64_t bytes;
  int ranks;
  int64_t root;
  int64_t reduction;
  const char* communicator;
};

const std::map<int, Expected>& ExpectedCalls() {
  static const std::map<int, Expected> expected = {
      {schema::NCCL_OPERATION_ALL_REDUCE, {3, 10, ncclFloat32, 40, 3, -1, ncclSum, "world"}},
      {schema::NCCL_OPERATION_GATHER, {2, 8, ncclFloat32, 8 * 4 * 2, 2, 1, -1, "split"}},
      {schema::NCCL_OPERATION_SCATTER, {2, 8, ncclFloat32, 8 * 4 * 2, 2, 0, -1, "split"}},
      {schema::NCCL_OPERATION_ALL_TO_ALL, {2, 4, ncclFloat32, 4 * 4 * 2, 2, -1, -1, "split"}},
      {schema::NCCL_OPERATION_BROADCAST, {2, 8, ncclFloat32, 8 * 4, 2, 1, -1, "split"}},
      {schema::NCCL_OPERATION_REDUCE_SCATTER,
       {2, 6, ncclFloat32, 6 * 4 * 2, 2, -1, ncclMax, "shrunk"}},
      {schema::NCCL_OPERATION_ALL_GATHER, {2, 5, ncclInt32, 5 * 4 * 2, 2, -1, -1, "shrunk"}},
      {schema::NCCL_OPERATION_REDUCE, {2, 12, ncclFloat32, 12 * 4, 2, 0, ncclSum, "initall"}},
  };
  return expected;
}

TEST_CASE(
    "every communicator constructor: rank counts, bytes, arguments, one identity per "
    "communicator") {
  const std::string output = FreshFolder("nccl_comms");
  const RunResult run =
      RunProgram(Program("agent/tests/nccl_comms_program"), {}, UnderAgent(output));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  const TraceSummary trace = SummarizeFolder(output);
  std::map<int, uint64_t> calls;
  std::map<std::string, std::set<uint64_t>> hashes;  // communicator -> comm_hash seen
  std::map<std::string, std::set<int>> ranks;        // communicator -> ranks seen
  for (const NcclCallDetail& call : trace.nccl_details) {
    INFO("operation " << trace::NcclOperation_Name(
             static_cast<trace::NcclOperation>(call.operation)));
    auto found = ExpectedCalls().find(call.operation);
    REQUIRE(found != ExpectedCalls().end());
    const Expected& expected = found->second;
    ++calls[call.operation];
    CHECK(call.count == expected.count);
    CHECK(call.data_type == expected.data_type);
    CHECK(call.bytes == expected.bytes);
    CHECK(call.rank_count == expected.ranks);
    CHECK(call.root_or_peer == expected.root);
    CHECK(call.reduction == expected.reduction);
    hashes[expected.communicator].insert(call.comm_hash);
    ranks[expected.communicator].insert(call.rank);
  }
  for (const auto& [operation, expected] : ExpectedCalls())
    CHECK(calls[operation] == expected.calls);
  // Each communicator: one identity on all its members, distinct from the others'.
  std::set<uint64_t> all;
  for (const auto& [communicator, seen] : hashes) {
    INFO(communicator);
    CHECK(seen.size() == 1);
    all.insert(seen.begin(), seen.end());
  }
  CHECK(all.size() == 4);
  CHECK(ranks["world"] == std::set<int>{0, 1, 2});
  CHECK(ranks["split"] == std::set<int>{0, 1});
  CHECK(ranks["shrunk"] == std::set<int>{0, 1});
  CHECK(ranks["initall"] == std::set<int>{0, 1});
  CHECK(trace.nccl_calls.at(schema::NCCL_OPERATION_GROUP_END) == 1);
}

// train_ranks on one rank: prof_step ends each of its 3 steps, and each step makes one
// ncclAlltoAll on its (one-rank) split communicator.
RunResult RunOneRank(const std::string& output, std::map<std::string, std::string> extra) {
  extra["RANK"] = "0";
  extra["WORLD_SIZE"] = "1";
  return RunProgram(Program("testdata/workloads/train_ranks"),
                    {"--steps", "3", "--group-size", "1", "--rendezvous", output + "/../marker.id"},
                    UnderAgent(output, extra));
}

TEST_CASE("PROF_STEP_MARKER=api:ncclAlltoAll ends a step at every all-to-all") {
  const std::string plain = FreshFolder("marker_nccl_plain");
  const RunResult without = RunOneRank(plain, {});
  REQUIRE(without.exit_code == 0);
  const std::string marked = FreshFolder("marker_nccl_alltoall");
  const RunResult with = RunOneRank(marked, {{"PROF_STEP_MARKER", "api:ncclAlltoAll"}});
  INFO(with.standard_error);
  REQUIRE(with.exit_code == 0);
  CHECK(with.standard_error.empty());
  const TraceSummary base = SummarizeFolder(plain);
  const TraceSummary trace = SummarizeFolder(marked);
  CHECK(trace.nccl_calls.at(schema::NCCL_OPERATION_ALL_TO_ALL) == 3);
  CHECK(trace.step_numbers.size() == base.step_numbers.size() + 3);
}

TEST_CASE("a marker rule naming a call the agent does not count: one line, and no rule") {
  for (const char* api : {"ncclCommRevoke", "ncclAllToAll"}) {  // not a hook; a misspelling
    INFO(api);
    const std::string output = FreshFolder("marker_nccl_unknown");
    const RunResult run = RunOneRank(output, {{"PROF_STEP_MARKER", std::string("api:") + api}});
    CHECK(run.exit_code == 0);
    CHECK(run.standard_error ==
          std::string("libprof: PROF_STEP_MARKER='api:") + api +
              "' names a call the agent does not intercept; using no api rule\n");
    const std::string plain = FreshFolder("marker_nccl_unknown_plain");
    REQUIRE(RunOneRank(plain, {}).exit_code == 0);
    CHECK(SummarizeFolder(output).step_numbers.size() ==
          SummarizeFolder(plain).step_numbers.size());
  }
}

}  // namespace
}  // namespace prof::testing
