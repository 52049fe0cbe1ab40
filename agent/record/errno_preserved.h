// The program's errno is never changed by the agent. A hooked call leaves errno as the
// real function left it; a callback or C API call leaves it as it found it. The agent's
// own work (a session start, /proc reads, dlsym, an allocation, a lock) may set errno, so
// every entry point keeps it with this guard, around that work only: hooks restore it
// before calling the real function and again after recording.
#ifndef PROF_AGENT_RECORD_ERRNO_PRESERVED_H_
#define PROF_AGENT_RECORD_ERRNO_PRESERVED_H_

#include <errno.h>

namespace prof {

class ErrnoPreserved {
 public:
  ErrnoPreserved() : saved_(errno) {}
  ~ErrnoPreserved() { errno = saved_; }
  ErrnoPreserved(const ErrnoPreserved&) = delete;
  ErrnoPreserved& operator=(const ErrnoPreserved&) = delete;

 private:
  const int saved_;
};

}  // namespace prof

#endif  // PROF_AGENT_RECORD_ERRNO_PRESERVED_H_
