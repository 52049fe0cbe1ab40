#include "agent/cupti/fork_guard.h"

#include <pthread.h>

#include <atomic>

#include "agent/cupti/activity_buffers.h"
#include "agent/cupti/cupti_neighbours.h"

namespace prof {
namespace {

std::atomic<bool> g_cupti_loaded{false};
std::atomic<bool> g_inherited_from_parent{false};

// Runs in the child with only the forking thread alive: no locks, no CUPTI.
void AfterForkInChild() {
  if (g_cupti_loaded.load(std::memory_order_relaxed)) {
    g_inherited_from_parent.store(true, std::memory_order_relaxed);
  }
  ResetActivityBuffersAfterFork();
  ResetNeighboursAfterFork();
}

}  // namespace

void InstallCuptiForkHandler() {
  // A function-local static: registered exactly once, even from several threads.
  static const bool installed = pthread_atfork(nullptr, nullptr, &AfterForkInChild) == 0;
  (void)installed;
}

void NoteCuptiLoaded() { g_cupti_loaded.store(true, std::memory_order_relaxed); }

bool CuptiInheritedFromParent() { return g_inherited_from_parent.load(std::memory_order_relaxed); }

}  // namespace prof
