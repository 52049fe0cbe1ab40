#include "agent/record/flight_error.h"

#include <atomic>

#include "agent/record/writer_doorbell.h"

namespace prof {
namespace {

// 0: no failure; else the result in the low 32 bits and 1 << 32, so ncclSuccess (0) is
// never confused with "none". Set once (the first failure), read and marked taken by the
// writer through `g_taken`.
std::atomic<uint64_t> g_error{0};
std::atomic<uint64_t> g_error_ticket{0};
std::atomic<bool> g_taken{false};

}  // namespace

void NoteFlightError(int32_t result, uint64_t ticket) {
  if (g_error.load(std::memory_order_relaxed) != 0) return;  // the common repeat: no RMW
  g_error_ticket.store(ticket, std::memory_order_relaxed);
  uint64_t none = 0;
  const uint64_t value = (uint64_t{1} << 32) | static_cast<uint32_t>(result);
  if (!g_error.compare_exchange_strong(none, value, std::memory_order_release)) return;
  TheWriterDoorbell().Ring();
}

bool TakeFlightError(int32_t* result, uint64_t* ticket) {
  const uint64_t value = g_error.load(std::memory_order_acquire);
  if (value == 0 || g_taken.exchange(true, std::memory_order_relaxed)) return false;
  *result = static_cast<int32_t>(static_cast<uint32_t>(value));
  *ticket = g_error_ticket.load(std::memory_order_relaxed);
  return true;
}

const char* NcclResultName(int32_t result) {
  static const char* const kNames[] = {
      "ncclSuccess",         "ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError",
      "ncclInvalidArgument", "ncclInvalidUsage",       "ncclRemoteError", "ncclInProgress"};
  return result >= 0 && result < 8 ? kNames[result] : "ncclResult";
}

void ResetFlightErrorAfterFork() {
  g_error.store(0, std::memory_order_relaxed);
  g_error_ticket.store(0, std::memory_order_relaxed);
  g_taken.store(false, std::memory_order_relaxed);
}

}  // namespace prof
