#include "testdata/sim/nccl/tests/collective_check.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace simnccl_test {
namespace {

// Small values so products of up to 4 ranks stay exact in every type.
template <typename T>
T Input(int rank, size_t index) {
  return static_cast<T>(1 + (rank + index) % 3);
}

template <typename T>
T Expected(ncclRedOp_t op, int nranks, size_t index) {
  T result = Input<T>(0, index);
  for (int rank = 1; rank < nranks; ++rank) {
    const T value = Input<T>(rank, index);
    switch (op) {
      case ncclProd: result = result * value; break;
      case ncclMax: result = std::max(result, value); break;
      case ncclMin: result = std::min(result, value); break;
      default: result = result + value; break;
    }
  }
  if (op == ncclAvg) result = static_cast<T>(result / static_cast<T>(nranks));
  return result;
}

struct Context {
  ncclComm_t comm;
  int rank;
  int nranks;
  Collective collective;
  size_t count;
};

template <typename T>
int Mismatches(const Context& ctx, const char* what, const std::vector<T>& got,
               const std::vector<T>& want) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      std::fprintf(stderr, "rank %d %s %s: element %zu is %g, expected %g\n", ctx.rank,
                   CollectiveName(ctx.collective), what, i, static_cast<double>(got[i]),
                   static_cast<double>(want[i]));
      return 1;
    }
  }
  return 0;
}

template <typename T>
int RunOne(const Context& ctx, ncclDataType_t type, ncclRedOp_t op) {
  const int root = ctx.nranks - 1;
  const Collective c = ctx.collective;
  const bool scatter =
      c == Collective::kReduceScatter || c == Collective::kAllToAll || c == Collective::kScatter;
  const bool gather =
      c == Collective::kAllGather || c == Collective::kAllToAll || c == Collective::kGather;
  std::vector<T> send(scatter ? ctx.count * ctx.nranks : ctx.count);
  for (size_t i = 0; i < send.size(); ++i) send[i] = Input<T>(ctx.rank, i);
  std::vector<T> recv(gather ? ctx.count * ctx.nranks : ctx.count, static_cast<T>(0));
  std::vector<T> want = recv;
  ncclResult_t result = ncclSuccess;
  switch (ctx.collective) {
    case Collective::kAllReduce:
      result = ncclAllReduce(send.data(), recv.data(), ctx.count, type, op, ctx.comm, nullptr);
      for (size_t i = 0; i < want.size(); ++i) want[i] = Expected<T>(op, ctx.nranks, i);
      break;
    case Collective::kAllReduceInPlace:
      recv = send;
      result = ncclAllReduce(recv.data(), recv.data(), ctx.count, type, op, ctx.comm, nullptr);
      for (size_t i = 0; i < want.size(); ++i) want[i] = Expected<T>(op, ctx.nranks, i);
      break;
    case Collective::kReduce:
      result = ncclReduce(send.data(), recv.data(), ctx.count, type, op, root, ctx.comm, nullptr);
      for (size_t i = 0; ctx.rank == root && i < want.size(); ++i) {
        want[i] = Expected<T>(op, ctx.nranks, i);
      }
      break;
    case Collective::kBroadcast:
      result = ncclBroadcast(send.data(), recv.data(), ctx.count, type, root, ctx.comm, nullptr);
      for (size_t i = 0; i < want.size(); ++i) want[i] = Input<T>(root, i);
      break;
    case Collective::kBcast:
      recv = send;
      result = ncclBcast(recv.data(), ctx.count, type, root, ctx.comm, nullptr);
      for (size_t i = 0; i < want.size(); ++i) want[i] = Input<T>(root, i);
      break;
    case Collective::kAllToAll:  // piece p of the output: what rank p addressed to us
      result = ncclAlltoAll(send.data(), recv.data(), ctx.count, type, ctx.comm, nullptr);
      for (size_t i = 0; i < want.size(); ++i) {
        want[i] = Input<T>(i / ctx.count, ctx.rank * ctx.count + i % ctx.count);
      }
      break;
    case Collective::kGather:
      result = ncclGather(send.data(), recv.data(), ctx.count, type, root, ctx.comm, nullptr);
      for (size_t i = 0; ctx.rank == root && i < want.size(); ++i) {
        want[i] = Input<T>(i / ctx.count, i % ctx.count);
      }
      break;
    case Collective::kScatter:
      result = ncclScatter(send.data(), recv.data(), ctx.count, type, root, ctx.comm, nullptr);
      for (size_t i = 0; i < want.size(); ++i) want[i] = Input<T>(root, ctx.rank * ctx.count + i);
      break;
    case Collective::kAllGather:
      result = ncclAllGather(send.data(), recv.data(), ctx.count, type, ctx.comm, nullptr);
      for (size_t i = 0; i < want.size(); ++i) want[i] = Input<T>(i / ctx.count, i % ctx.count);
      break;
    case Collective::kReduceScatter:
      result = ncclReduceScatter(send.data(), recv.data(), ctx.count, type, op, ctx.comm, nullptr);
      for (size_t i = 0; i < want.size(); ++i) {
        want[i] = Expected<T>(op, ctx.nranks, ctx.rank * ctx.count + i);
      }
      break;
  }
  if (result != ncclSuccess) {
    std::fprintf(stderr, "rank %d %s failed: %s (%s)\n", ctx.rank, CollectiveName(ctx.collective),
                 ncclGetErrorString(result), ncclGetLastError(ctx.comm));
    return 1;
  }
  char what[64];
  std::snprintf(what, sizeof(what), "type %d op %d", static_cast<int>(type), static_cast<int>(op));
  return Mismatches(ctx, what, recv, want);
}

template <typename T>
int RunAllOps(const Context& ctx, ncclDataType_t type) {
  const Collective c = ctx.collective;
  const bool reduces = c == Collective::kAllReduce || c == Collective::kAllReduceInPlace ||
                       c == Collective::kReduce || c == Collective::kReduceScatter;
  if (!reduces) return RunOne<T>(ctx, type, ncclSum);
  int failures = 0;
  for (ncclRedOp_t op : {ncclSum, ncclProd, ncclMax, ncclMin, ncclAvg}) {
    failures += RunOne<T>(ctx, type, op);
  }
  return failures;
}

}  // namespace

const char* CollectiveName(Collective collective) {
  switch (collective) {
    case Collective::kAllReduce: return "AllReduce";
    case Collective::kAllReduceInPlace: return "AllReduce(in place)";
    case Collective::kReduce: return "Reduce";
    case Collective::kBroadcast: return "Broadcast";
    case Collective::kAllGather: return "AllGather";
    case Collective::kReduceScatter: return "ReduceScatter";
    case Collective::kBcast: return "Bcast";
    case Collective::kAllToAll: return "AlltoAll";
    case Collective::kGather: return "Gather";
    case Collective::kScatter: return "Scatter";
  }
  return "?";
}

int CheckCollectiveAllTypes(ncclComm_t comm, Collective collective, size_t count) {
  Context ctx{comm, 0, 0, collective, count};
  ncclCommUserRank(comm, &ctx.rank);
  ncclCommCount(comm, &ctx.nranks);
  int failures = 0;
  failures += RunAllOps<float>(ctx, ncclFloat32);
  failures += RunAllOps<double>(ctx, ncclFloat64);
  failures += RunAllOps<int32_t>(ctx, ncclInt32);
  failures += RunAllOps<int64_t>(ctx, ncclInt64);
  failures += RunAllOps<uint8_t>(ctx, ncclUint8);
  return failures;
}

}  // namespace simnccl_test
