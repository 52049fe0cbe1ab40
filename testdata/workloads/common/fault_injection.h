// Opt-in regressions for testing `profanalyze compare` (off by default; README
// "Fault injection"): one kernel made slower by a factor, and extra stream
// synchronizations per step.
//   --slow-kernel NAME:FACTOR  kernels whose name (as CUPTI reports it, possibly mangled)
//                              contains NAME last FACTOR times their modeled duration
//   --extra-sync N             N extra cudaStreamSynchronize calls at the end of Forward
#pragma once

#include <string>

#include "testdata/workloads/common/flags.h"

namespace workloads {

struct FaultInjection {
  std::string slow_kernel;  // empty: none
  double slow_factor = 1.0;
  int extra_syncs = 0;
};

// Reads --slow-kernel and --extra-sync; exits with status 2 on a bad value.
FaultInjection FaultsFromFlags(const Flags& flags);

}  // namespace workloads
