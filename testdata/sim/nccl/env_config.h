// Knobs of the simulated NCCL read from the environment. A bad value never stops the
// program: one line on stderr names the variable and the value used instead.
#pragma once

#include <cstddef>
#include <cstdint>

namespace simnccl {

// Staging capacity per rank for collectives (SIM_NCCL_SLOT_BYTES, default 1 MiB).
// Larger messages are exchanged in several rounds.
uint64_t ConfiguredSlotBytes();

// Staging capacity per ordered rank pair for send/recv (SIM_NCCL_MAILBOX_BYTES,
// default 256 KiB).
uint64_t ConfiguredMailboxBytes();

// Longest time any wait on a peer may last (SIM_NCCL_TIMEOUT_MS, default 30000).
uint64_t ConfiguredTimeoutNs();

// True when SIM_NCCL_KERNEL_NAMES=legacy asks for NCCL <= 2.18 kernel names.
bool LegacyKernelNames();

// Bus bandwidth of the simulated interconnect (SIM_NCCL_BUS_BW_GBPS, default 100).
double ConfiguredBusBandwidthGBps();

// Fixed cost of one algorithm step (SIM_NCCL_STEP_LATENCY_NS, default 1500) and of a
// kernel launch (SIM_NCCL_BASE_LATENCY_NS, default 4000).
uint64_t ConfiguredStepLatencyNs();
uint64_t ConfiguredBaseLatencyNs();

}  // namespace simnccl
