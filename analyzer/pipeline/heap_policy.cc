#include "analyzer/pipeline/heap_policy.h"

#include <malloc.h>

namespace prof::analyzer {

bool KeepFreedMemoryForReuse() {
  // No mmap'd blocks: large vectors come from the heap, whose freed space is reused.
  const bool no_mmap = mallopt(M_MMAP_MAX, 0) == 1;
  // Never give the heap's free top back (1 << 30 per call would still trim a huge heap).
  const bool no_trim = mallopt(M_TRIM_THRESHOLD, 0x7fffffff) == 1;
  return no_mmap && no_trim;
}

}  // namespace prof::analyzer
