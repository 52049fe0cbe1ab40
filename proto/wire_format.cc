#include "proto/wire_format.h"

namespace prof::wire {

// Doubles the capacity (at least 256 bytes) so appends cost amortized O(1).
void Buffer::Grow(size_t needed) {
  size_t capacity = bytes_.size() < 256 ? 256 : bytes_.size();
  while (capacity < needed) capacity *= 2;
  bytes_.resize(capacity);
}

}  // namespace prof::wire
