// The simulator-only functions of include/sim/sim_nccl_ext.h.
#include <sim/sim_nccl_ext.h>

#include <cstring>
#include <string>
#include <vector>

#include "testdata/sim/nccl/api_guard.h"
#include "testdata/sim/nccl/datatypes.h"
#include "testdata/sim/nccl/env_config.h"
#include "testdata/sim/nccl/kernel_launcher.h"
#include "testdata/sim/nccl/kernel_names.h"
#include "testdata/sim/nccl/timing_model.h"

namespace {

bool ParseFunc(const char* name, simnccl::Func* func) {
  using simnccl::Func;
  if (name == nullptr) return false;
  for (Func candidate :
       {Func::kBroadcast, Func::kReduce, Func::kAllGather, Func::kReduceScatter, Func::kAllReduce,
        Func::kSend, Func::kRecv, Func::kAllToAll, Func::kGather, Func::kScatter}) {
    if (std::strcmp(name, simnccl::FuncName(candidate)) == 0) {
      *func = candidate;
      return true;
    }
  }
  return false;
}

}  // namespace

extern "C" {

SIMNCCL_EXPORT int simNcclLastLaunches(simNcclLaunchInfo* infos, int capacity) {
  const std::vector<simNcclLaunchInfo>& launches = simnccl::ThreadLastLaunches();
  for (int i = 0; infos != nullptr && i < capacity && i < static_cast<int>(launches.size()); ++i) {
    infos[i] = launches[i];
  }
  return static_cast<int>(launches.size());
}

SIMNCCL_EXPORT uint64_t simNcclCallDurationNs(const char* func_name, size_t count,
                                              ncclDataType_t datatype, int nranks) {
  simnccl::OpDescription op;
  if (!ParseFunc(func_name, &op.func) || simnccl::ElementSize(datatype) == 0 || nranks < 1) {
    return 0;
  }
  op.count = count;
  op.datatype = datatype;
  return simnccl::KernelDurationNs({&op}, nranks);
}

SIMNCCL_EXPORT const char* simNcclCallKernelName(const char* func_name, ncclDataType_t datatype,
                                                 ncclRedOp_t redop) {
  // One buffer per thread keeps the returned pointer valid until the thread's next call.
  thread_local std::string name;
  simnccl::OpDescription op;
  if (!ParseFunc(func_name, &op.func)) return "";
  op.datatype = datatype;
  op.redop = redop;
  try {
    name = simnccl::KernelNameFor({&op}, simnccl::LegacyKernelNames());
  } catch (...) {
    return "";
  }
  return name.c_str();
}

}  // extern "C"
