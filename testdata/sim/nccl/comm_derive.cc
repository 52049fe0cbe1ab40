#include "testdata/sim/nccl/comm_derive.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "testdata/sim/nccl/collective_op.h"
#include "testdata/sim/nccl/comm.h"
#include "testdata/sim/nccl/group_engine.h"
#include "testdata/sim/nccl/last_error.h"
#include "testdata/sim/nccl/unique_id.h"

namespace simnccl {
namespace {

uint64_t Fnv(uint64_t hash, const void* data, size_t size) {
  const unsigned char* bytes = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
  return hash;
}

// The id of the parent's next derived communicator for `tag` (the color, or the
// excluded ranks); consumes one derivation of the parent.
UniqueIdContents NextDerivedId(ncclComm_t parent, uint64_t tag) {
  const std::string& parent_name = parent->unique_id.segment_name;
  uint64_t hash = Fnv(1469598103934665603ull, parent_name.data(), parent_name.size());
  hash = Fnv(hash, &parent->derived_count, sizeof(parent->derived_count));
  hash = Fnv(hash, &tag, sizeof(tag));
  parent->derived_count += 1;
  char name[64];
  std::snprintf(name, sizeof(name), "/simnccl.d.%016llx", static_cast<unsigned long long>(hash));
  UniqueIdContents contents = parent->unique_id;
  contents.segment_name = name;
  return contents;
}

ncclResult_t JoinDerived(ncclComm_t parent, const UniqueIdContents& contents, int nranks, int rank,
                         const char* what, ncclComm_t* out) {
  ncclUniqueId id;
  EncodeUniqueId(contents, &id);
  std::string error;
  ncclComm_t created = nullptr;
  ncclResult_t result = CreateComm(id, nranks, rank, parent->device, &created, &error);
  if (result != ncclSuccess) {
    SetThreadLastError(std::string(what) + ": " + error);
    return result;
  }
  created->owns_device_switch = parent->owns_device_switch;
  result = WaitForAllRanksJoined(created);
  if (result != ncclSuccess) {
    ReleaseComm(created, /*aborted=*/true);
    return result;
  }
  *out = created;
  return ncclSuccess;
}

struct ColorKey {
  int32_t color;
  int32_t key;
};

// Every parent rank's (color, key), in parent-rank order.
ncclResult_t ExchangeColors(ncclComm_t parent, ColorKey mine, std::vector<ColorKey>* all) {
  all->assign(parent->nranks, ColorKey{0, 0});
  OpDescription op;
  op.func = Func::kAllGather;
  op.sendbuff = &mine;
  op.recvbuff = all->data();
  op.count = 2;
  op.datatype = ncclInt32;
  std::vector<std::unique_ptr<PendingOp>> ops;
  ops.push_back(std::make_unique<CollectiveOp>(parent, op));
  return ExchangeWithoutKernels(std::move(ops));
}

}  // namespace

ncclResult_t SplitComm(ncclComm_t parent, int color, int key, ncclComm_t* out) {
  if (parent == nullptr || out == nullptr) {
    SetThreadLastError("ncclCommSplit: NULL argument");
    return ncclInvalidArgument;
  }
  if (parent->sticky_error != ncclSuccess) return parent->sticky_error;
  std::vector<ColorKey> all;
  const ncclResult_t exchanged = ExchangeColors(parent, ColorKey{color, key}, &all);
  if (exchanged != ncclSuccess) return exchanged;
  const UniqueIdContents contents = NextDerivedId(parent, static_cast<uint32_t>(color));
  *out = nullptr;
  if (color == NCCL_SPLIT_NOCOLOR) return ncclSuccess;
  std::vector<std::pair<int, int>> members;  // (key, parent rank) of this color
  for (int rank = 0; rank < parent->nranks; ++rank) {
    if (all[rank].color == color) members.emplace_back(all[rank].key, rank);
  }
  std::sort(members.begin(), members.end());
  const auto me = std::find(members.begin(), members.end(), std::make_pair(key, parent->rank));
  return JoinDerived(parent, contents, static_cast<int>(members.size()),
                     static_cast<int>(me - members.begin()), "ncclCommSplit", out);
}

ncclResult_t ShrinkComm(ncclComm_t parent, const int* excluded, int excluded_count,
                        ncclComm_t* out) {
  if (parent == nullptr || out == nullptr || excluded_count < 0 ||
      (excluded_count > 0 && excluded == nullptr)) {
    SetThreadLastError("ncclCommShrink: bad arguments");
    return ncclInvalidArgument;
  }
  std::vector<bool> gone(parent->nranks, false);
  for (int i = 0; i < excluded_count; ++i) {
    if (excluded[i] < 0 || excluded[i] >= parent->nranks || excluded[i] == parent->rank) {
      SetThreadLastError("ncclCommShrink: excluded rank " + std::to_string(excluded[i]) +
                         " is not another rank of the communicator");
      return ncclInvalidArgument;
    }
    gone[excluded[i]] = true;
  }
  uint64_t tag = 0x5348524eull;  // "SHRN", then hashed with each excluded rank
  int rank = 0;
  int nranks = 0;
  for (int old = 0; old < parent->nranks; ++old) {
    if (gone[old]) {
      tag = Fnv(tag, &old, sizeof(old));
      continue;
    }
    if (old < parent->rank) ++rank;
    ++nranks;
  }
  const UniqueIdContents contents = NextDerivedId(parent, tag);
  return JoinDerived(parent, contents, nranks, rank, "ncclCommShrink", out);
}

}  // namespace simnccl
