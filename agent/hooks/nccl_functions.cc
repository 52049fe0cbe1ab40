#include "agent/hooks/nccl_functions.h"

namespace prof {

const char* NcclFunctionName(uint16_t function) {
  static const char* const kNames[] = {
#define PROF_NCCL_NAME(name, operation) #name,
      PROF_NCCL_FUNCTIONS(PROF_NCCL_NAME)
#undef PROF_NCCL_NAME
  };
  return function < kNcclFunctionCount ? kNames[function] : "";
}

uint16_t NcclMarkerApiId(const std::string& name) {
  for (uint16_t function = 0; function < kNcclFunctionCount; ++function) {
    if (name == NcclFunctionName(function)) {
      return NcclMarkerId(static_cast<NcclFunction>(function));
    }
  }
  return kApiNone;
}

}  // namespace prof
