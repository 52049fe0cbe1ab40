#include "agent/writer/emergency_flush.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>

namespace prof {
namespace {

std::atomic<bool> g_requested{false};
std::atomic<bool> g_writer_running{false};
int g_pipe[2] = {-1, -1};

void OpenPipe() {
  if (pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) g_pipe[0] = g_pipe[1] = -1;
}

struct PipeOpener {
  PipeOpener() { OpenPipe(); }
} g_pipe_opener;

}  // namespace

void RequestEmergencyFlush(int timeout_ms) {
  if (!g_writer_running.load() || g_pipe[0] < 0) return;
  g_requested.store(true);
  struct pollfd ready = {g_pipe[0], POLLIN, 0};
  poll(&ready, 1, timeout_ms);
}

void MarkWriterRunning(bool running) { g_writer_running.store(running); }

bool EmergencyFlushRequested() { return g_requested.load(std::memory_order_relaxed); }

void AcknowledgeEmergencyFlush() {
  const char byte = 1;
  if (g_pipe[1] >= 0) {
    ssize_t ignored = write(g_pipe[1], &byte, 1);
    (void)ignored;
  }
}

void ResetEmergencyFlushAfterFork() {
  if (g_pipe[0] >= 0) close(g_pipe[0]);
  if (g_pipe[1] >= 0) close(g_pipe[1]);
  OpenPipe();
  g_requested.store(false);
  g_writer_running.store(false);
}

}  // namespace prof
