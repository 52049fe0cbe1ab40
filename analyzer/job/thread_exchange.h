// Test support: an Exchange (exchange.h) between threads of one process, so the sharded
// job view (sharded_collectives.h) is tested for any process count without MPI.
//
//   RunOnThreads(3, [&](Exchange& exchange) { ... AnalyzeCollectivesSharded(exchange, ...); });
#ifndef PROF_ANALYZER_JOB_THREAD_EXCHANGE_H_
#define PROF_ANALYZER_JOB_THREAD_EXCHANGE_H_

#include <functional>

#include "analyzer/job/exchange.h"

namespace prof::analyzer {

// Runs `body` on `processes` threads, each with its own Exchange (Rank() 0..processes-1);
// returns when all have.
void RunOnThreads(int processes, const std::function<void(Exchange&)>& body);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_THREAD_EXCHANGE_H_
