// The encoder's packed column (the `Packed` of chunk_blocks.h): a wire::PackedColumn that
// can also be written as runs (trace.proto, "Run-length columns"). Internal to proto/.
//
// A column with a `<column>_runs` companion appends through AddRepeating*, which keeps the
// values' varint bytes as always and counts, without a branch, the values that differ from
// the one before and the bytes of those that repeat it. Once per chunk, before the block is
// sized, SettleRuns picks the smaller form: a column whose repeats cannot pay for a length
// byte per run stays plain at no cost; another is read back from its own bytes, once, to
// size its runs exactly.
#ifndef PROF_PROTO_RUN_COLUMN_H_
#define PROF_PROTO_RUN_COLUMN_H_

#include <cstddef>
#include <cstdint>

#include "proto/wire_format.h"

namespace prof::chunk_blocks {

// Aligned so that what an append touches (the plain bytes' pointer, size and count, and the
// three counters) is one cache line: every column of a block is a RunColumn.
class alignas(64) RunColumn {
 public:
  // Values of a column written plain (no companion, or values that rarely repeat).
  void AddUnsigned(uint64_t value) { plain_.AddUnsigned(value); }
  void AddSigned(int64_t value) { plain_.AddSigned(value); }
  void AddInt32(int32_t value) { plain_.AddInt32(value); }

  // Values of a column that has a `_runs` companion.
  void AddRepeating(uint64_t value) {
    const size_t before = plain_.bytes().size();
    plain_.AddUnsigned(value);
    const size_t size = plain_.bytes().size() - before;
    // No branch: in a mixed column it would mispredict.
    const bool same = value == last_;
    changes_ += !same;
    repeated_bytes_ += same ? static_cast<uint32_t>(size) : 0;
    last_ = value;
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
  // Not a value the encoder writes in practice; one that is only costs a scan.
  static constexpr uint64_t kNoValue = ~uint64_t{0};

  wire::PackedColumn plain_;
  // Of the values added through AddRepeating*: those unequal to the one before (the first
  // too: one per run), and the bytes of the others (what runs would save). A chunk's
  // column holds far fewer than 2^32 values and bytes.
  uint32_t changes_ = 0;
  uint32_t repeated_bytes_ = 0;
  uint64_t last_ = kNoValue;
  wire::PackedColumn spare_;  // the run values while they are built; swapped with plain_
  bool settled_ = false;  // a second SettleRuns in one chunk must not take runs of runs
};

}  // namespace prof::chunk_blocks

#endif  // PROF_PROTO_RUN_COLUMN_H_
