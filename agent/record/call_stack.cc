#include "agent/record/call_stack.h"

#include <dlfcn.h>

namespace prof {
namespace internal {
bool g_stacks = false;
}  // namespace internal

namespace {

using Backtrace = int (*)(void** buffer, int size);
Backtrace g_backtrace = nullptr;

// Frames inside the agent: CaptureCallStack and the hook that called it.
constexpr int kAgentFrames = 2;

}  // namespace

bool EnableCallStacks(const char** why) {
  void* library = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
  if (!library) library = dlopen("libunwind.so", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    *why = "libunwind.so.8 cannot be loaded";
    return false;
  }
  g_backtrace = reinterpret_cast<Backtrace>(dlsym(library, "unw_backtrace"));
  if (!g_backtrace) {
    *why = "libunwind has no unw_backtrace";
    return false;
  }
  internal::g_stacks = true;
  return true;
}

int CaptureCallStack(uint64_t* frames, int max_frames) {
  if (!internal::g_stacks || !g_backtrace) return 0;
  void* raw[kMaxStackFrames + kAgentFrames];
  const int wanted = max_frames + kAgentFrames > kMaxStackFrames + kAgentFrames
                         ? kMaxStackFrames + kAgentFrames
                         : max_frames + kAgentFrames;
  const int got = g_backtrace(raw, wanted);
  int count = 0;
  for (int i = kAgentFrames; i < got; ++i) frames[count++] = reinterpret_cast<uint64_t>(raw[i]);
  return count;
}

}  // namespace prof
