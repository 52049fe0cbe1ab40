// Communicator identities (nccl_identity.h): the same on every rank of a communicator, and
// different for different communicators, whether made by ncclCommInit* or derived by a
// split or shrink. Two ranks are simulated by two registered communicator pointers.
#include "agent/hooks/nccl_identity.h"

#include <catch2/catch.hpp>

#include "agent/record/clock.h"
#include "agent/record/nccl_registry.h"

namespace prof {
namespace {

// Registers `comm` as rank `rank` of a 2-rank communicator whose identity is `hash`.
void RegisterRank(const void* comm, uint64_t hash, int rank) {
  RegisterIdentity(comm, hash, rank, 2, MonotonicNs());
  CommunicatorInfo info;
  REQUIRE(LookupCommunicator(comm, &info));
  CHECK(info.comm_hash == hash);
  CHECK(info.rank == rank);
  CHECK(info.rank_count == 2);
}

TEST_CASE("the hash is FNV-1a from the offset the agent has always used") {
  // (offset ^ byte) * 1099511628211 mod 2^64, by hand (Python) from the offset
  // 1469598103934665603 = 0x14650fb0739d0383 (see nccl_identity.h).
  CHECK(HashBytes(kFnvOffset, "", 0) == 0x14650fb0739d0383ull);
  CHECK(HashBytes(kFnvOffset, "a", 1) == 0x44bd8ad473cd9906ull);
  const char id[4] = {'a', 0, 0, 0};
  CHECK(HashUniqueIds(id, 1, 1) == 0x44bd8ad473cd9906ull);
}

TEST_CASE("every rank derives the same identity for the same split, and a new one for the next") {
  static char rank0, rank1;
  RegisterRank(&rank0, 0x1111, 0);
  RegisterRank(&rank1, 0x1111, 1);
  const CommDerivation first0 = BeginDerivation(&rank0, 100);
  const CommDerivation first1 = BeginDerivation(&rank1, 200);  // another rank's clock
  REQUIRE(first0.known);
  REQUIRE(first1.known);
  CHECK(first0.parent_hash == 0x1111);
  CHECK(first0.number == 0);
  CHECK(first1.number == 0);
  CHECK(SplitIdentityOf(first0, 7) == SplitIdentityOf(first1, 7));
  CHECK(SplitIdentityOf(first0, 7) != SplitIdentityOf(first0, 8));  // another color
  const CommDerivation second0 = BeginDerivation(&rank0, 300);
  const CommDerivation second1 = BeginDerivation(&rank1, 400);
  CHECK(second0.number == 1);
  CHECK(second1.number == 1);
  CHECK(SplitIdentityOf(second0, 7) == SplitIdentityOf(second1, 7));
  CHECK(SplitIdentityOf(second0, 7) != SplitIdentityOf(first0, 7));
  // A shrink with the same excluded ranks agrees across ranks, and is no split.
  const int excluded[] = {3, 5};
  CHECK(ShrinkIdentityOf(second0, excluded, 2) == ShrinkIdentityOf(second1, excluded, 2));
  CHECK(ShrinkIdentityOf(second0, excluded, 2) != ShrinkIdentityOf(second0, excluded, 1));
  CHECK(ShrinkIdentityOf(second0, excluded, 2) != SplitIdentityOf(second0, 7));
}

TEST_CASE("a communicator derived from an unknown parent gets an identity of its own") {
  static char unknown;
  const CommDerivation first = BeginDerivation(&unknown, 100);
  const CommDerivation second = BeginDerivation(&unknown, 100);
  CHECK_FALSE(first.known);
  // Process-local: each derivation is different, even with the same start time and color.
  CHECK(SplitIdentityOf(first, 1) != SplitIdentityOf(second, 1));
  CHECK(ShrinkIdentityOf(first, nullptr, 0) != ShrinkIdentityOf(second, nullptr, 0));
}

}  // namespace
}  // namespace prof
