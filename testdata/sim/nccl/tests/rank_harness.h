// Runs the ranks of a test communicator as forked processes, the way a launcher starts
// one process per GPU. Each child runs `body` with its rank and the shared unique id and
// exits with its return value; Catch2 assertions stay in the parent, which only checks
// exit codes. Children that overrun `deadline_ms` are killed, so a hung rank fails the
// test instead of hanging it.
#pragma once

#include <nccl.h>

#include <functional>
#include <vector>

namespace simnccl_test {

// What each child returns: 0 for success; anything else is a failure code of the test's
// choosing (children also explain failures on stderr).
using RankBody = std::function<int(int rank, int nranks, const ncclUniqueId& id)>;

// Exit codes of the ranks in rank order; a child killed by a signal reports 128+signal.
std::vector<int> RunRanks(int nranks, const RankBody& body, int deadline_ms = 20000);

// Memory shared by the parent and all forked ranks (MAP_SHARED | MAP_ANONYMOUS), for
// tests that need ranks to tell each other facts outside NCCL. Never freed: tests are
// short-lived processes.
void* SharedScratch(size_t bytes);

}  // namespace simnccl_test
