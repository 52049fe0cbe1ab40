#include "testdata/sim/nccl/last_error.h"

#include <cstdio>
#include <cstdlib>

namespace simnccl {
namespace {

thread_local std::string thread_last_error;

}  // namespace

void SetThreadLastError(const std::string& message) {
  thread_last_error = message;
  // Like NCCL_DEBUG=WARN: failures are easy to miss when a rank just returns a code.
  const char* debug = std::getenv("NCCL_DEBUG");
  if (debug != nullptr && *debug != '\0') {
    std::fprintf(stderr, "[sim-nccl] WARN %s\n", message.c_str());
  }
}

const char* ThreadLastError() { return thread_last_error.c_str(); }

}  // namespace simnccl
