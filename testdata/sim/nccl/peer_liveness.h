// Decides whether a peer rank can still make progress: a peer that aborted, destroyed
// its communicator, or whose process is gone (or a zombie) never will, so waiting on it
// ends at once with ncclRemoteError instead of running into the timeout.
#pragma once

#include <string>

struct ncclComm;

namespace simnccl {

// Empty when the peer looks alive; otherwise why it is not.
std::string PeerDeathReason(const ncclComm* comm, int peer);

}  // namespace simnccl
