// Column helpers of ChunkDecoder: the delta and sparse-column conventions of trace.proto
// on the reading side (the writing side is chunk_blocks.h). Internal to proto/.
#ifndef PROF_PROTO_COLUMNS_H_
#define PROF_PROTO_COLUMNS_H_

#include <cstdint>

#include "proto/trace.pb.h"

namespace prof {
namespace columns {

// Undoes chunk_blocks::TakeDelta (wrapping, so any uint64 values round-trip).
inline uint64_t ApplyDelta(int64_t delta, uint64_t* previous) {
  *previous += static_cast<uint64_t>(delta);
  return *previous;
}

// Walks a sparse column row by row while a block is decoded.
class SparseCursor {
 public:
  // `rows` is the block's row count. A malformed column (sizes differ, rows out of order
  // or past the block) is ignored as a whole and reported by valid() == false.
  SparseCursor(const trace::SparseColumn& column, int rows) : column_(&column) {
    valid_ = column.index_delta_size() == column.value_size();
    uint64_t row = 0;
    for (int i = 0; valid_ && i < column.index_delta_size(); ++i) {
      const uint32_t delta = column.index_delta(i);
      if (i > 0 && delta == 0) valid_ = false;
      row += delta;
      if (row >= static_cast<uint64_t>(rows)) valid_ = false;
    }
    next_row_ = (valid_ && column.index_delta_size() > 0) ? column.index_delta(0) : kNoRow;
  }

  bool valid() const { return valid_; }

  // The value at `row`, if the column has one; call with rows 0, 1, 2, ... in order.
  bool At(uint32_t row, uint64_t* value) {
    if (row != next_row_) return false;
    *value = column_->value(position_++);
    next_row_ = position_ < column_->index_delta_size()
                    ? next_row_ + column_->index_delta(position_)
                    : kNoRow;
    return true;
  }

 private:
  static constexpr uint64_t kNoRow = ~uint64_t{0};
  const trace::SparseColumn* column_;  // a pointer: cursors are copied into tables
  bool valid_ = true;
  int position_ = 0;
  uint64_t next_row_ = kNoRow;
};

}  // namespace columns
}  // namespace prof

#endif  // PROF_PROTO_COLUMNS_H_
