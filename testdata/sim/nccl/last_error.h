// The text ncclGetLastError returns: the most recent failure seen by the calling thread
// (NCCL keeps it per thread when no communicator is given).
#pragma once

#include <string>

namespace simnccl {

void SetThreadLastError(const std::string& message);
const char* ThreadLastError();

}  // namespace simnccl
