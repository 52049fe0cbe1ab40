#include "proto/run_column.h"

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

}  // namespace

void RunColumn::clear() {
  plain_.clear();
  spare_.clear();
  changes_ = 0;
  repeated_bytes_ = 0;
  last_ = kNoValue;
  settled_ = false;
}

void RunColumn::SettleRuns(uint32_t number, uint32_t lengths_number, RunColumn* lengths) {
  // Runs save the repeated values' bytes and cost a length byte or more per run, plus the
  // companion's tag and length (2 bytes or more) less what the column's own length prefix
  // shrinks (at most 9 bytes): when the savings cannot cover that, runs are never smaller.
  const size_t count = plain_.count();
  if (settled_ || count == 0 || repeated_bytes_ + 9 <= changes_ + 2) return;
  settled_ = true;

  // Build the runs from the column's own bytes, then keep them only if smaller.
  spare_.clear();
  lengths->clear();
  const uint8_t* at = plain_.bytes().data();
  uint64_t value = ReadVarint(&at);
  uint32_t length = 1;
  for (size_t i = 1; i < count; ++i) {
    const uint64_t next = ReadVarint(&at);
    if (next == value) {
      ++length;
      continue;
    }
    spare_.AddUnsigned(value);
    lengths->AddUnsigned(length);
    value = next;
    length = 1;
  }
  spare_.AddUnsigned(value);
  lengths->AddUnsigned(length);
  const size_t as_runs = wire::PackedFieldSize(number, spare_) +
                         wire::PackedFieldSize(lengths_number, lengths->packed());
  if (as_runs < wire::PackedFieldSize(number, plain_)) {
    std::swap(plain_, spare_);
  } else {
    lengths->clear();
  }
}

}  // namespace prof::chunk_blocks
