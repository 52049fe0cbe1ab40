// Column helpers of ChunkDecoder: the delta, run-length and sparse-column conventions of
// trace.proto on the reading side (the writing side is chunk_blocks.h). Internal to proto/.
#ifndef PROF_PROTO_COLUMNS_H_
#define PROF_PROTO_COLUMNS_H_

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>

#include "google/protobuf/reflection.h"
#include "proto/trace.pb.h"

namespace prof {
namespace columns {

template <typename T>
using Repeated = google::protobuf::RepeatedField<T>;

// Undoes chunk_blocks::TakeDelta (wrapping, so any uint64 values round-trip).
inline uint64_t ApplyDelta(int64_t delta, uint64_t* previous) {
  *previous += static_cast<uint64_t>(delta);
  return *previous;
}

// The rows a column of `size` values stands for: `size`, or, when its companion `runs` is
// not empty, the sum of the run lengths. -1 when the runs do not fit the column (a length
// of 0, or not one length per value).
inline int64_t RunsExpandedSize(int64_t size, const Repeated<uint32_t>& runs) {
  if (runs.empty()) return size;
  if (runs.size() != size) return -1;
  int64_t rows = 0;
  for (const uint32_t length : runs) {
    if (length == 0) return -1;
    rows += length;
  }
  return rows;
}

template <typename T>
int64_t ExpandedSize(const Repeated<T>& values, const Repeated<uint32_t>& runs) {
  return RunsExpandedSize(values.size(), runs);
}

// The values of a plain column (one value per row) of a block that the decoder's Rows has
// checked, for the decoder's inner loop to read by row: the generated accessor, in a build
// without NDEBUG, checks its index again on every call (two compares and a log branch per
// value). Rows' check covers the column only while it has no `_runs` companion (with one, a
// column holds fewer values than rows): the assert catches a column that gains one, in the
// first test build that decodes it (once per block, not once per value).
template <typename T>
const T* PlainValues(const Repeated<T>& column, int rows) {
  assert(column.size() == rows);
  (void)rows;
  return column.data();
}

// A block column's companion of run lengths is numbered this much higher (trace.proto;
// chunk_blocks::kRunsNumberOffset on the writing side).
inline constexpr int kRunsNumberOffset = 16;

// ExpandedSize of column `values` of `block` through reflection, `runs` its companion of
// run lengths (nullptr when it has none), for the decoder's check of every column of a block.
inline int64_t ColumnRows(const google::protobuf::Message& block,
                          const google::protobuf::FieldDescriptor* values,
                          const google::protobuf::FieldDescriptor* runs) {
  const google::protobuf::Reflection& reflection = *block.GetReflection();
  const int size = reflection.FieldSize(block, values);
  if (runs == nullptr) return size;
  // The array itself: through GetRepeatedFieldRef each length was an indirect call (a name
  // column can have a run per row: 9M instructions on a 1M-event file). GetRepeatedField is
  // deprecated for that interface but is the one that hands out the array; protobuf keeps it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  const Repeated<uint32_t>& lengths = reflection.GetRepeatedField<uint32_t>(block, runs);
#pragma GCC diagnostic pop
  return RunsExpandedSize(size, lengths);
}

// Reads a column value by value, expanding its runs (trace.proto, "Run-length columns").
// The caller checks ExpandedSize first and reads at most that many values.
template <typename T>
class ColumnCursor {
 public:
  ColumnCursor(const Repeated<T>& values, const Repeated<uint32_t>& runs)
      : value_(values.data()), run_(runs.data()), plain_(runs.empty()) {}

  T Next() {
    if (plain_) return *value_++;
    if (left_ == 0) {
      left_ = *run_++;
      current_ = *value_++;
    }
    --left_;
    return current_;
  }

 private:
  // Into the message's arrays (raw: this is the decoder's inner loop).
  const T* value_;
  const uint32_t* run_;
  bool plain_;
  uint32_t left_ = 0;  // of the current run
  T current_{};
};

// Walks a sparse column row by row while a block is decoded.
class SparseCursor {
 public:
  // `rows` is the block's row count. A malformed column (sizes differ, runs that do not
  // fit, rows out of order or past the block) is ignored as a whole and reported by
  // valid() == false.
  SparseCursor(const trace::SparseColumn& column, int rows)
      : index_(column.index_delta(), column.index_delta_runs()),
        values_(column.value(), column.value_runs()) {
    count_ = ExpandedSize(column.index_delta(), column.index_delta_runs());
    valid_ = count_ >= 0 && count_ == ExpandedSize(column.value(), column.value_runs());
    ColumnCursor<uint32_t> walk = index_;
    uint64_t row = 0;
    for (int64_t i = 0; valid_ && i < count_; ++i) {
      const uint32_t delta = walk.Next();
      if (i > 0 && delta == 0) valid_ = false;
      row += delta;
      if (row >= static_cast<uint64_t>(rows)) valid_ = false;
    }
    next_row_ = (valid_ && count_ > 0) ? index_.Next() : kNoRow;
  }

  bool valid() const { return valid_; }
  // The row of the column's next value; ~0 when none is left.
  uint64_t next_row() const { return next_row_; }

  // The value at `row`, if the column has one; call with rows 0, 1, 2, ... in order.
  bool At(uint32_t row, uint64_t* value) {
    if (row != next_row_) return false;
    *value = values_.Next();
    next_row_ = ++position_ < count_ ? next_row_ + index_.Next() : kNoRow;
    return true;
  }

 private:
  static constexpr uint64_t kNoRow = ~uint64_t{0};
  ColumnCursor<uint32_t> index_;
  ColumnCursor<uint64_t> values_;
  bool valid_ = true;
  int64_t count_ = 0;
  int64_t position_ = 0;
  uint64_t next_row_ = kNoRow;
};

// The sparse columns of a block, set into its event row by row. Most rows have no sparse
// value at all: each such row costs one compare, not one per column (7 columns of an API
// call), and leaves the event's sparse fields as they are: their defaults, which the
// event's constructor set and `set` restores on the row after one that had a value. (The
// sink gets the event as const and does not change it.)
template <size_t N>
class SparseRows {
 public:
  explicit SparseRows(std::array<SparseCursor*, N> cursors)
      : cursors_(cursors), next_(NextValueRow()), act_at_(next_) {}

  // `set(row)` sets every sparse field of the event from its cursor (SparseCursor::At): the
  // column's value at `row`, or the field's default. Call with rows 0, 1, 2, ... in order.
  // `set` by reference: taken by value, the lambda's captures (the event and each cursor)
  // were stored anew on every row (16 instructions a row, callgrind).
  template <typename Set>
  void At(uint32_t row, const Set& set) {
    if (row == act_at_) Act(row, set);
  }

 private:
  // Only the rows with values and the rows after them come here: kept out of the row loop.
  template <typename Set>
  __attribute__((noinline)) void Act(uint32_t row, const Set& set) {
    set(row);  // a row with values, or the row after one: no value, every field its default
    const bool had_values = row == next_;
    if (had_values) next_ = NextValueRow();
    act_at_ = had_values ? row + uint64_t{1} : next_;
  }

  uint64_t NextValueRow() const {
    uint64_t next = ~uint64_t{0};
    for (const SparseCursor* cursor : cursors_) next = std::min(next, cursor->next_row());
    return next;
  }

  std::array<SparseCursor*, N> cursors_;
  uint64_t next_;    // the nearest row where a column has a value
  uint64_t act_at_;  // the next row whose fields are set: next_, or the row after values
};

}  // namespace columns
}  // namespace prof

#endif  // PROF_PROTO_COLUMNS_H_
