#include "proto/run_column.h"

#include <cstring>
#include <utility>

namespace prof::chunk_blocks {
namespace {

// The next varint of bytes the encoder wrote itself (so well formed); advances `at`.
uint64_t ReadVarint(const uint8_t** at) {
  uint64_t value = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t byte = *(*at)++;
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) return value;
  }
}

// How many of the `limit` bytes from `at` equal `byte`, up to the first that does not:
// eight at a time (a column of one-byte values: an operator's kind, one run of 29,040 with
// a few phases between, read back by ReadVarint was ~15 instructions a value; callgrind,
// issue 26). x86-64 only, so little-endian: the first byte that differs is the lowest.
size_t ByteRunLength(const uint8_t* at, size_t limit, uint8_t byte) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);
  const uint64_t pattern = 0x0101010101010101ull * byte;
  size_t length = 0;
  for (; length + 8 <= limit; length += 8) {
    uint64_t word;
    std::memcpy(&word, at + length, 8);
    if (const uint64_t differs = word ^ pattern; differs != 0) {
      return length + static_cast<size_t>(__builtin_ctzll(differs) >> 3);
    }
  }
  while (length < limit && at[length] == byte) ++length;
  return length;
}

}  // namespace

void RunColumn::clear() {
  plain_.clear();
  changes_ = 0;
  last_ = 0;
  settled_ = false;
}

void RunColumn::AddRepeatingTimes(uint64_t value, size_t times, size_t room_values) {
  if (times == 0) return;
  changes_ += value != last_;
  last_ = value;
  plain_.AddUnsignedRepeated(value, times);
  plain_.Reserve(room_values);
}

void RunColumn::SettleRuns(uint32_t number, uint32_t lengths_number, RunColumn* lengths,
                           wire::PackedColumn* scratch) {
  // trace.proto's rule: runs only where at most half the values are changes.
  const size_t count = plain_.count();
  if (settled_ || count == 0 || 2 * static_cast<size_t>(changes_) > count) return;
  settled_ = true;

  // Build the runs from the column's own bytes, then keep them only if smaller.
  wire::PackedColumn& values = *scratch;
  values.clear();
  lengths->clear();
  const uint8_t* at = plain_.bytes().data();
  if (plain_.bytes().size() == count) {  // every value one byte (its varint)
    AddByteRuns(lengths, &values);
    KeepSmaller(number, lengths_number, lengths, &values);
    return;
  }
  uint64_t value = ReadVarint(&at);
  uint32_t length = 1;
  size_t read = 1;  // values read so far
  // One run: no change after the first value (changes_ counts the first value only when
  // it is not 0). The usual case of a launch loop's columns (name, correlation delta, the
  // configuration's index and value): reading back every value of each of them cost the
  // writer ~9 ns a launch (perf, launch_stress).
  if (changes_ == (value != 0 ? 1u : 0u)) length = static_cast<uint32_t>(read = count);
  // Zeros, then one run of another value: a sparse column's row deltas where every row has
  // a value (0, then 1s). A zero is the one varint whose first byte is 0.
  if (changes_ == 1 && value == 0) {
    while (*at == 0) ++at, ++length;  // a value that is not 0 follows (changes_ == 1)
    values.AddUnsigned(0);
    lengths->plain_.AddUnsigned(length);
    value = ReadVarint(&at);
    length = static_cast<uint32_t>(count) - length;
    read = count;
  }
  for (; read < count; ++read) {
    const uint64_t next = ReadVarint(&at);
    if (next == value) {
      ++length;
      continue;
    }
    values.AddUnsigned(value);
    lengths->plain_.AddUnsigned(length);
    value = next;
    length = 1;
  }
  values.AddUnsigned(value);
  lengths->plain_.AddUnsigned(length);
  KeepSmaller(number, lengths_number, lengths, &values);
}

void RunColumn::AddByteRuns(RunColumn* lengths, wire::PackedColumn* values) const {
  const uint8_t* const bytes = plain_.bytes().data();
  const size_t count = plain_.count();
  for (size_t read = 0; read < count;) {
    const size_t length = ByteRunLength(bytes + read, count - read, bytes[read]);
    values->AddUnsigned(bytes[read]);
    lengths->plain_.AddUnsigned(length);
    read += length;
  }
}

void RunColumn::KeepSmaller(uint32_t number, uint32_t lengths_number, RunColumn* lengths,
                            wire::PackedColumn* values) {
  const size_t as_runs = wire::PackedFieldSize(number, *values) +
                         wire::PackedFieldSize(lengths_number, lengths->packed());
  if (as_runs < wire::PackedFieldSize(number, plain_)) {
    std::swap(plain_, *values);
  } else {
    lengths->clear();
  }
}

}  // namespace prof::chunk_blocks

// Every column of every block is a RunColumn: it should cost no more than a cache line.
static_assert(sizeof(prof::chunk_blocks::RunColumn) <= 64);
