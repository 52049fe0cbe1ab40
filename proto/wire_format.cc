#include "proto/wire_format.h"

namespace prof::wire {

// Doubles the capacity (at least 256 bytes) so appends cost amortized O(1).
void Buffer::Grow(size_t needed) {
  const size_t old_capacity = static_cast<size_t>(limit_ - bytes_.get());
  size_t capacity = old_capacity < 256 ? 256 : old_capacity;
  while (capacity < needed) capacity *= 2;
  const size_t size = this->size();
  std::unique_ptr<uint8_t[]> grown(new uint8_t[capacity]);
  if (size != 0) std::memcpy(grown.get(), bytes_.get(), size);
  bytes_ = std::move(grown);
  end_ = bytes_.get() + size;
  limit_ = bytes_.get() + capacity;
}

}  // namespace prof::wire
