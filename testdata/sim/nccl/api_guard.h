// Helpers shared by the exported entry points: the PMPI-style alias (every public ncclX
// is a weak alias of pncclX, like the real libnccl.so.2, so interposers can call pncclX
// without recursing) and the guard that keeps C++ exceptions inside the library.
#pragma once

#include <nccl.h>

#include <exception>
#include <string>

#include "testdata/sim/nccl/last_error.h"

#define SIMNCCL_EXPORT __attribute__((visibility("default")))

// Declares `ncclName` as a weak alias of `pncclName` (defined in the same file).
#define SIMNCCL_WEAK_ALIAS(ret, name, params) \
  extern "C" SIMNCCL_EXPORT ret name params __attribute__((weak, alias("p" #name)));

namespace simnccl {

// Runs `body`; an exception (e.g. std::bad_alloc) becomes ncclSystemError/InternalError.
template <typename Body>
ncclResult_t Guarded(Body&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    SetThreadLastError("out of host memory");
    return ncclSystemError;
  } catch (const std::exception& error) {
    SetThreadLastError(std::string("internal error: ") + error.what());
    return ncclInternalError;
  } catch (...) {
    SetThreadLastError("internal error: unknown exception");
    return ncclInternalError;
  }
}

}  // namespace simnccl
