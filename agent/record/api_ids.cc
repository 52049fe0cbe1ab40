#include "agent/record/api_ids.h"

#include <cstring>

namespace prof {
namespace {

const char* const kNames[] = {"",
#define PROF_API_NAME(name) #name,
                              PROF_CUDA_RUNTIME_APIS(PROF_API_NAME)
#undef PROF_API_NAME
};

static_assert(sizeof(kNames) / sizeof(kNames[0]) == kApiCount, "one name per id");

}  // namespace

const char* ApiName(uint16_t api) { return api < kApiCount ? kNames[api] : ""; }

uint16_t ApiIdByName(const char* name) {
  for (uint16_t id = 1; id < kApiCount; ++id) {
    if (std::strcmp(kNames[id], name) == 0) return id;
  }
  return kApiNone;
}

}  // namespace prof
