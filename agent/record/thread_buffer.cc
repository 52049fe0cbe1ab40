#include "agent/record/thread_buffer.h"

namespace prof {

ThreadBuffer::ThreadBuffer(uint64_t thread_id, size_t capacity_bytes)
    : thread_id_(thread_id),
      capacity_(capacity_bytes & ~size_t{7}),
      words_(new uint64_t[capacity_bytes / 8]),
      bytes_(reinterpret_cast<uint8_t*>(words_.get())) {}

}  // namespace prof
