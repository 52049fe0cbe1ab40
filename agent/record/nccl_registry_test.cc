// The communicator table: lookups by pointer, rewrites, a full table, and readers that
// never see a torn value while other threads register.
#include "agent/record/nccl_registry.h"

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

namespace prof {
namespace {

const void* Pointer(uintptr_t value) { return reinterpret_cast<const void*>(value); }

CommunicatorInfo Info(uint64_t hash, int rank, int ranks) {
  CommunicatorInfo info;
  info.comm_hash = hash;
  info.rank = rank;
  info.rank_count = ranks;
  info.init_start_ns = hash * 3;
  info.init_duration_ns = hash * 5;
  return info;
}

TEST_CASE("a registered communicator is found by its pointer, an unknown one is not") {
  REQUIRE(RegisterCommunicator(Pointer(0x1000), Info(77, 1, 4)));
  CommunicatorInfo info;
  REQUIRE(LookupCommunicator(Pointer(0x1000), &info));
  CHECK(info.comm_hash == 77);
  CHECK(info.rank == 1);
  CHECK(info.rank_count == 4);
  CHECK(info.init_start_ns == 231);
  CHECK(info.init_duration_ns == 385);
  CHECK(CommunicatorRankCount(Pointer(0x1000)) == 4);
  CHECK_FALSE(LookupCommunicator(Pointer(0x2000), &info));
  CHECK(CommunicatorRankCount(Pointer(0x2000)) == 0);
  CHECK(CommunicatorRankCount(nullptr) == 0);
  CHECK_FALSE(RegisterCommunicator(nullptr, Info(1, 0, 1)));
}

TEST_CASE("an address reused by a new communicator takes the new value") {
  REQUIRE(RegisterCommunicator(Pointer(0x3000), Info(1, 0, 2)));
  REQUIRE(RegisterCommunicator(Pointer(0x3000), Info(2, 3, 8)));
  CommunicatorInfo info;
  REQUIRE(LookupCommunicator(Pointer(0x3000), &info));
  CHECK(info.comm_hash == 2);
  CHECK(CommunicatorRankCount(Pointer(0x3000)) == 8);
}

TEST_CASE("a rank count learned later fills an unknown one, never replaces a known one") {
  REQUIRE(RegisterCommunicator(Pointer(0x6000), Info(5, 0, 0)));
  LearnRankCount(Pointer(0x6000), 4);
  CHECK(CommunicatorRankCount(Pointer(0x6000)) == 4);
  LearnRankCount(Pointer(0x6000), 9);
  CHECK(CommunicatorRankCount(Pointer(0x6000)) == 4);
  LearnRankCount(Pointer(0x6100), 3);  // unknown communicator: nothing to fill
  CHECK(CommunicatorRankCount(Pointer(0x6100)) == 0);
}

TEST_CASE("derivations of a communicator are numbered from 0, unknown parents have none") {
  REQUIRE(RegisterCommunicator(Pointer(0x4000), Info(9, 0, 2)));
  uint64_t index = 99;
  REQUIRE(NextDerivationOf(Pointer(0x4000), &index));
  CHECK(index == 0);
  REQUIRE(NextDerivationOf(Pointer(0x4000), &index));
  CHECK(index == 1);
  CHECK_FALSE(NextDerivationOf(Pointer(0x5000), &index));
}

TEST_CASE("concurrent registrations and lookups: every value read is whole") {
  constexpr int kThreads = 4;
  constexpr uintptr_t kPerThread = 100;
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> torn{0};
  // The reader reads thread 0's keys while thread 0 keeps rewriting them; every value
  // written has start = 3 * hash and duration = 5 * hash, so a torn read shows.
  std::thread reader([&] {
    CommunicatorInfo info;
    while (!stop.load()) {
      for (uintptr_t i = 1; i <= kPerThread; ++i) {
        if (LookupCommunicator(Pointer(0x100000 + i * 16), &info) &&
            (info.init_start_ns != info.comm_hash * 3 ||
             info.init_duration_ns != info.comm_hash * 5)) {
          torn.fetch_add(1);
        }
      }
    }
  });
  std::vector<std::thread> writers;
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([t] {
      for (int round = 0; round < 50; ++round) {
        for (uintptr_t i = 1; i <= kPerThread; ++i) {
          const uintptr_t key = 0x100000 + (t * kPerThread + i) * 16;
          RegisterCommunicator(Pointer(key), Info(key + round, t, 2 + t));
        }
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  stop = true;
  reader.join();
  CHECK(torn.load() == 0);
  for (int t = 0; t < kThreads; ++t) {
    for (uintptr_t i = 1; i <= kPerThread; ++i) {
      CHECK(CommunicatorRankCount(Pointer(0x100000 + (t * kPerThread + i) * 16)) == 2 + t);
    }
  }
}

TEST_CASE("a full table refuses new communicators and still answers for the others") {
  size_t registered = 0;
  for (uintptr_t i = 1; i <= kCommunicatorSlots + 10; ++i) {
    registered += RegisterCommunicator(Pointer(0x70000000 + i * 64), Info(i, 0, 3));
  }
  CHECK(registered < kCommunicatorSlots);  // earlier tests hold some slots
  CHECK(CommunicatorRankCount(Pointer(0x1000)) == 4);
  CHECK(CommunicatorRankCount(Pointer(0x70000000 + 64)) == 3);
}

}  // namespace
}  // namespace prof
