// The loaded objects as the interposer's resolver needs them: which object holds an
// address (a hook's caller), and every object's path (the last-resort search). Reads the
// loader's list with dl_iterate_phdr only: nothing here calls dlopen/dlsym/dlclose, so
// no callback ever takes the loader's lock while dl_iterate_phdr holds its own (glibc's
// dl_iterate_phdr holds dl_load_write_lock; dlopen takes dl_load_lock and then that one:
// a dlopen inside the callback would be an ABBA deadlock with another thread's dlopen).
// Allocates nothing (paths go to fixed buffers), so no allocation failure can surface in
// a hook. Not async-signal-safe (dl_iterate_phdr locks): slow paths only.
#ifndef PROF_AGENT_HOOKS_LOADED_OBJECTS_H_
#define PROF_AGENT_HOOKS_LOADED_OBJECTS_H_

#include <link.h>

#include <climits>
#include <cstddef>
#include <cstdint>

namespace prof {

struct LoadedObject {
  uintptr_t start = 0;  // the span of its PT_LOAD segments, [start, end)
  uintptr_t end = 0;
  uintptr_t base = 0;  // dlpi_addr: what its addresses are relative to
  const ElfW(Phdr) * program_headers = nullptr;
  int program_header_count = 0;
  bool is_main_program = false;  // the first object listed
  char path[PATH_MAX] = "";      // as the loader names it ("" for the main program)
};

// Times an object was loaded into the process so far (dlpi_adds): a result that depends
// on what is loaded stays valid while this does not change.
unsigned long long LoadedObjectAdditions();

// The object whose segments hold `address`; false when none does (JIT code).
bool FindObjectHolding(uintptr_t address, LoadedObject* object);

// Copies the path of the `index`-th loaded object (0: the main program, whose path is
// ""); false past the last one. Paths too long for `capacity` come back as "".
bool LoadedObjectPath(int index, char* path, size_t capacity);

}  // namespace prof

#endif  // PROF_AGENT_HOOKS_LOADED_OBJECTS_H_
