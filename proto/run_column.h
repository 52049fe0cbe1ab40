// The encoder's packed column (the `Packed` of chunk_blocks.h): a wire::PackedColumn that
// can also be written as runs (trace.proto, "Run-length columns"). Internal to proto/.
//
// A column with a `<column>_runs` companion appends through AddRepeating*, which keeps the
// values' varint bytes as always and counts, without a branch, the changes (values unequal
// to the one before; the first, unless it is 0). Once per chunk, before the block is sized,
// SettleRuns picks the form: a column where more than half the values are changes stays
// plain at no cost (the rule of trace.proto: runs would save little, if anything); another
// is read back from its own bytes, once, and written as runs if they are smaller.
#ifndef PROF_PROTO_RUN_COLUMN_H_
#define PROF_PROTO_RUN_COLUMN_H_

#include <cstddef>
#include <cstdint>

#include "proto/wire_format.h"

namespace prof::chunk_blocks {

// 64 bytes (the plain column, a change count, a flag and the last value): every column of
// every block is one, so blocks stay small (what only settling needs, a buffer for the run
// values, is the encoder's, shared).
class RunColumn {
 public:
  // Room for `values` more values: every add below writes without a capacity check of its
  // own (the encoder makes room for many rows of a block at once, chunk_blocks::NewRow;
  // one check per row instead of one per value). Adding past the room is undefined.
  void Reserve(size_t values) { plain_.Reserve(values); }

  // Values of a column written plain (no companion, or values that rarely repeat).
  void AddUnsigned(uint64_t value) { plain_.AddUnsignedInRoom(value); }
  void AddSigned(int64_t value) { AddUnsigned(wire::ZigZag(value)); }
  void AddInt32(int32_t value) { AddUnsigned(wire::Int32Bits(value)); }

  // Values of a column that has a `_runs` companion: only through these (SettleRuns trusts
  // their count of changes to find a column of one run without reading it back).
  void AddRepeating(uint64_t value) {
    // No branch: in a mixed column it would mispredict.
    changes_ += value != last_;
    last_ = value;
    plain_.AddUnsignedInRoom(value);
  }
  void AddRepeatingSigned(int64_t value) { AddRepeating(wire::ZigZag(value)); }
  void AddRepeatingInt32(int32_t value) { AddRepeating(wire::Int32Bits(value)); }
  // `times` values equal to `value` at once, with their own capacity check; the room made
  // for the block's next rows (Reserve's) stays made.
  void AddRepeatingTimes(uint64_t value, size_t times, size_t room_values);

  const wire::PackedColumn& packed() const { return plain_; }
  size_t count() const { return plain_.count(); }
  void clear();

  // Field `number` of its message, with its companion `lengths` (field `lengths_number`,
  // empty): where at most half the values are changes and runs are smaller than the plain
  // column (whole fields, tags included), this column becomes one value per run and
  // `lengths` their lengths. `scratch` is any spare column (it is left holding garbage).
  // Call once, after the last value of the chunk.
  void SettleRuns(uint32_t number, uint32_t lengths_number, RunColumn* lengths,
                  wire::PackedColumn* scratch);

 private:
  // SettleRuns of a column whose values all take one byte: its runs are runs of bytes,
  // found eight bytes at a time, appended to `values` and `lengths`.
  void AddByteRuns(RunColumn* lengths, wire::PackedColumn* values) const;
  // SettleRuns' end: with the runs built (`values` and `lengths`), keeps whichever of them
  // and the plain column is smaller.
  void KeepSmaller(uint32_t number, uint32_t lengths_number, RunColumn* lengths,
                   wire::PackedColumn* values);

  wire::PackedColumn plain_;
  // The changes among the values added through AddRepeating* (a chunk's column holds far
  // fewer than 2^32 values), and the last of them (0 before the first).
  uint32_t changes_ = 0;
  bool settled_ = false;  // a second SettleRuns in one chunk must not take runs of runs
  uint64_t last_ = 0;
};

}  // namespace prof::chunk_blocks

#endif  // PROF_PROTO_RUN_COLUMN_H_
