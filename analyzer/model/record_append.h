// Appending to the model's record vectors: growth in large steps, the per-record test
// inline and the growing out of line. Internal to analyzer/model (the builder's files).
#ifndef PROF_ANALYZER_MODEL_RECORD_APPEND_H_
#define PROF_ANALYZER_MODEL_RECORD_APPEND_H_

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"

namespace prof::analyzer::model_records {

// Appends with a growth of 4x (2x past 1 GiB) instead of the library's 2x: a record
// vector of millions is copied to fresh pages each time it grows, and on a 10M-event file
// those copies and page faults were a quarter of the analysis. The unused tail costs
// address space only (large blocks are mapped on demand; pages never written are never
// touched), and the 1 GiB bound keeps that bounded too.
template <typename T>
ABSL_ATTRIBUTE_NOINLINE void GrowFull(std::vector<T>* records) {
  constexpr size_t kQuadrupleBelow = (size_t{1} << 30) / sizeof(T);
  const size_t size = std::max<size_t>(records->size(), 256);
  records->reserve(size < kQuadrupleBelow ? 4 * size : 2 * size);
}

// Inline, the reserving out of line: it runs once per record, and reserves almost never.
template <typename T>
void Grow(std::vector<T>* records) {
  if (__builtin_expect(records->size() == records->capacity(), 0)) GrowFull(records);
}

template <typename T>
void Append(std::vector<T>* records, T record) {
  Grow(records);
  records->push_back(std::move(record));
}

// Whether one more record fits without growing, tested as push_back tests it so the
// compiler drops push_back's growing (and the stack frame that call needed).
template <typename T>
bool HasRoom(const std::vector<T>& records) {
  return records.end() != records.begin() + records.capacity();
}

// A new default record at the end, filled in place: the most numerous records are written
// once, not built on the stack and copied.
template <typename T>
T& AppendNew(std::vector<T>* records) {
  Grow(records);
  return records->emplace_back();
}

}  // namespace prof::analyzer::model_records

#endif  // PROF_ANALYZER_MODEL_RECORD_APPEND_H_
