// A flight dump's host activity (record/flight_host.h) as ordinary trace events, so every
// profanalyze command shows it: each thread's last CUDA runtime calls (API calls, a
// launch with its kernel's name and geometry unknown to the ring) and ranges, one still
// running ending at the dump's time, plus what the rings lost (in the header and as loss
// records) and, in the header, the last kernel launched on each stream (what is known of
// the kernels without CUPTI).
// Writer thread only.
#ifndef PROF_AGENT_WRITER_FLIGHT_HOST_DUMP_H_
#define PROF_AGENT_WRITER_FLIGHT_HOST_DUMP_H_

#include <cstdint>
#include <string>

#include "agent/record/flight_host.h"
#include "proto/chunk_encoder.h"
#include "proto/header_encoder.h"

namespace prof {

// `kernel_name` names a launch's function (tests pass their own; the agent KernelNameOf).
using KernelNamer = std::string (*)(const void* function);

void EncodeFlightHost(const FlightHostSnapshot& host, uint64_t dump_ns, KernelNamer kernel_name,
                      ChunkEncoder* encoder, FlightDumpValue* flight);

}  // namespace prof

#endif  // PROF_AGENT_WRITER_FLIGHT_HOST_DUMP_H_
