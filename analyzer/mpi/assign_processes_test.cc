// Largest first onto the least-loaded worker; header slices gathered and grouped as one list.
#include "analyzer/mpi/assign_processes.h"

#include <catch2/catch.hpp>

namespace prof::analyzer {
namespace {

ProcessFiles Process(const std::string& name) {
  ProcessFiles process;
  process.paths = {name + ".0.pb", name + ".1.pb"};
  return process;
}

TEST_CASE("assign: largest first, each to the least-loaded worker") {
  const std::vector<ProcessFiles> processes = {Process("a"), Process("b"), Process("c"),
                                               Process("d"), Process("e")};
  // By hand: e(9) -> w0 = 9; b(7) -> w1 = 7; d(5) -> w1 = 12 (7 < 9); c(4) -> w0 = 13
  // (9 < 12); a(1) -> w1 = 13 (12 < 13).
  const auto shares = AssignLargestFirst(processes, {1, 7, 4, 5, 9}, 2);
  REQUIRE(shares.size() == 2);
  REQUIRE(shares[0].size() == 2);
  CHECK(shares[0][0].paths[0] == "e.0.pb");
  CHECK(shares[0][1].paths[0] == "c.0.pb");
  REQUIRE(shares[1].size() == 3);
  CHECK(shares[1][0].paths[0] == "b.0.pb");
  CHECK(shares[1][1].paths[0] == "d.0.pb");
  CHECK(shares[1][2].paths[0] == "a.0.pb");
}

TEST_CASE("assign: more workers than processes leaves some idle, none lost") {
  const auto shares = AssignLargestFirst({Process("a")}, {3}, 3);
  REQUIRE(shares.size() == 3);
  CHECK(shares[0].size() == 1);
  CHECK(shares[1].empty());
  CHECK(shares[2].empty());
}

TEST_CASE("slices: contiguous, in order, every file in exactly one") {
  // By hand: 17 files over 3 workers: 6, 6, 5 (the first 17 % 3 = 2 workers take one more).
  CHECK(SliceOf(17, 0, 3).first == 0);
  CHECK(SliceOf(17, 0, 3).last == 6);
  CHECK(SliceOf(17, 1, 3).first == 6);
  CHECK(SliceOf(17, 1, 3).last == 12);
  CHECK(SliceOf(17, 2, 3).first == 12);
  CHECK(SliceOf(17, 2, 3).last == 17);
  // More workers than files: the last ones read nothing.
  CHECK(SliceOf(2, 3, 4).first == SliceOf(2, 3, 4).last);
  CHECK(SliceOf(2, 1, 4).last == 2);
}

FileSeen Seen(int32_t rank, const std::string& host, uint32_t window, uint64_t bytes,
              const std::string& unreadable = "") {
  FileSeen seen;
  seen.key.rank = rank;
  seen.key.host = host;
  seen.key.pid = 1000 + rank;
  seen.key.window_index = window;
  seen.key.unreadable = unreadable;
  seen.bytes = bytes;
  return seen;
}

TEST_CASE("files seen: the records survive their encoding; a cut one is not made up") {
  const std::vector<FileSeen> slice = {Seen(3, "node a", 1, 1 << 20),
                                       Seen(-1, "", 0, 64, "cut.pb: truncated header")};
  const std::string bytes = EncodeFilesSeen(slice);
  std::vector<FileSeen> decoded;
  REQUIRE(DecodeFilesSeen(bytes, &decoded));
  REQUIRE(decoded.size() == 2);
  CHECK(decoded[0].key.rank == 3);
  CHECK(decoded[0].key.host == "node a");
  CHECK(decoded[0].key.pid == 1003);
  CHECK(decoded[0].key.window_index == 1);
  CHECK(decoded[0].bytes == uint64_t{1} << 20);
  CHECK(decoded[1].key.unreadable == "cut.pb: truncated header");
  CHECK(decoded[1].bytes == 64);
  std::vector<FileSeen> cut;
  CHECK(!DecodeFilesSeen(bytes.substr(0, bytes.size() - 1), &cut));
  CHECK(cut.size() == 1);  // the whole first record, not the cut second
}

TEST_CASE("gathered slices group as the whole list does, sizes summed per process") {
  // Rank 0's two windows fall in different slices (files 0 and 2 of slices [0,2) and [2,4)).
  const std::vector<std::string> files = {"r0.w1.pb", "r1.pb", "r0.w0.pb", "cut.pb"};
  const std::vector<FileSeen> seen = {Seen(0, "h", 1, 30), Seen(1, "h", 0, 50),
                                      Seen(0, "h", 0, 40), Seen(-1, "", 0, 9, "cut.pb: short")};
  std::vector<FileSeen> gathered;
  for (size_t worker = 0; worker < 2; ++worker) {
    const Slice slice = SliceOf(files.size(), worker, 2);
    REQUIRE(DecodeFilesSeen(EncodeFilesSeen(std::vector<FileSeen>(
                                seen.begin() + slice.first, seen.begin() + slice.last)),
                            &gathered));
  }
  std::vector<FileHeaderKey> keys;
  for (const FileSeen& file : gathered) keys.push_back(file.key);
  std::vector<std::string> unreadable;
  const std::vector<ProcessFiles> processes = GroupFilesByKey(files, keys, &unreadable);
  REQUIRE(processes.size() == 2);
  CHECK(processes[0].paths == std::vector<std::string>{"r0.w0.pb", "r0.w1.pb"});  // window order
  CHECK(processes[1].paths == std::vector<std::string>{"r1.pb"});
  CHECK(unreadable == std::vector<std::string>{"cut.pb: short"});  // once
  CHECK(ProcessBytes(processes, files, gathered) == std::vector<uint64_t>{70, 50});  // 30 + 40
}

TEST_CASE("paths survive their encoding, spaces and all") {
  const std::vector<std::string> paths = {"/x/rank 1.pb", "y.pb"};
  CHECK(DecodePaths(EncodePaths(paths)) == paths);
  CHECK(DecodePaths("").empty());
  CHECK(DecodePaths(std::string("a.pb\0b.p", 8)).size() == 1);  // unterminated tail dropped
}

}  // namespace
}  // namespace prof::analyzer
