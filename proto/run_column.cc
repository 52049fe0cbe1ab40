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
  tracked_ = 0;
  length_ = 0;
  run_value_bytes_ = 0;
  run_length_bytes_ = 0;
}

void RunColumn::SettleRuns(uint32_t number, uint32_t lengths_number, RunColumn* lengths) {
  CloseRun();
  // Values appended without tracking (none in the encoder) keep the column plain.
  if (tracked_ == 0 || tracked_ != plain_.count()) return;
  const size_t as_runs = wire::LengthDelimitedFieldSize(number, run_value_bytes_) +
                         wire::LengthDelimitedFieldSize(lengths_number, run_length_bytes_);
  if (as_runs >= wire::PackedFieldSize(number, plain_)) return;

  spare_.clear();
  lengths->clear();
  const uint8_t* at = plain_.bytes().data();
  uint64_t value = ReadVarint(&at);
  uint32_t length = 1;
  for (size_t i = 1; i < plain_.count(); ++i) {
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
  std::swap(plain_, spare_);
  tracked_ = 0;  // settled: a second call leaves it as it is
}

}  // namespace prof::chunk_blocks
