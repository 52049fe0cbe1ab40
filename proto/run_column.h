// The encoder's packed column (the `Packed` of chunk_blocks.h): a wire::PackedColumn that
// can also be written as runs (trace.proto, "Run-length columns"). Internal to proto/.
//
// A column with a `<column>_runs` companion appends through AddRepeating*, which keeps the
// values' varint bytes as always and, beside them, the size the column would have as runs
// (a compare per value; a run's sizes are added when it ends). Once per chunk, before the
// block is sized, SettleRuns picks the smaller form: when runs win it rebuilds the column
// as one value per run from its own bytes and puts the lengths in the companion.
#ifndef PROF_PROTO_RUN_COLUMN_H_
#define PROF_PROTO_RUN_COLUMN_H_

#include <cstddef>
#include <cstdint>

#include "proto/wire_format.h"

namespace prof::chunk_blocks {

class RunColumn {
 public:
  // Values of a column written plain (no companion, or values that rarely repeat).
  void AddUnsigned(uint64_t value) { plain_.AddUnsigned(value); }
  void AddSigned(int64_t value) { plain_.AddSigned(value); }
  void AddInt32(int32_t value) { plain_.AddInt32(value); }

  // Values of a column that has a `_runs` companion.
  void AddRepeating(uint64_t value) {
    plain_.AddUnsigned(value);
    ++tracked_;
    if (length_ != 0 && value == value_) {
      ++length_;
      return;
    }
    CloseRun();
    value_ = value;
    length_ = 1;
  }
  void AddRepeatingSigned(int64_t value) { AddRepeating(wire::ZigZag(value)); }
  void AddRepeatingInt32(int32_t value) { AddRepeating(wire::Int32Bits(value)); }

  const wire::PackedColumn& packed() const { return plain_; }
  size_t count() const { return plain_.count(); }
  void clear();

  // Field `number` of its message, with its companion `lengths` (field `lengths_number`,
  // empty): when runs are smaller than the plain column (whole fields, tags included),
  // this column becomes one value per run and `lengths` their lengths. Call once, after
  // the last value of the chunk.
  void SettleRuns(uint32_t number, uint32_t lengths_number, RunColumn* lengths);

 private:
  void CloseRun() {
    if (length_ == 0) return;
    run_value_bytes_ += wire::VarintSize(value_);
    run_length_bytes_ += wire::VarintSize(length_);
    length_ = 0;
  }

  wire::PackedColumn plain_;
  wire::PackedColumn spare_;  // the run values while they are rebuilt; swapped with plain_
  size_t tracked_ = 0;        // values added through AddRepeating*
  uint64_t value_ = 0;        // the open run
  uint32_t length_ = 0;
  size_t run_value_bytes_ = 0;   // of the closed runs
  size_t run_length_bytes_ = 0;
};

}  // namespace prof::chunk_blocks

#endif  // PROF_PROTO_RUN_COLUMN_H_
