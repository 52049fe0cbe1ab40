#include "testdata/workloads/common/fault_injection.h"

#include <cstdio>
#include <cstdlib>

namespace workloads {

FaultInjection FaultsFromFlags(const Flags& flags) {
  FaultInjection faults;
  faults.extra_syncs = static_cast<int>(flags.Int("extra-sync"));
  const std::string& slow = flags.String("slow-kernel");
  if (slow.empty()) return faults;
  const size_t colon = slow.rfind(':');
  char* end = nullptr;
  const double factor =
      colon == std::string::npos ? 0 : std::strtod(slow.c_str() + colon + 1, &end);
  if (colon == 0 || colon == std::string::npos || end == nullptr || *end != '\0' || factor <= 0) {
    std::fprintf(stderr, "--slow-kernel expects NAME:FACTOR (e.g. sgemm_128x64_nn:1.1), got '%s'\n",
                 slow.c_str());
    std::exit(2);
  }
  faults.slow_kernel = slow.substr(0, colon);
  faults.slow_factor = factor;
  return faults;
}

}  // namespace workloads
