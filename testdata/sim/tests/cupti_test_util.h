// Collects the activity records the simulated CUPTI delivers, for assertions.
#ifndef PROF_TESTDATA_SIM_TESTS_CUPTI_TEST_UTIL_H_
#define PROF_TESTDATA_SIM_TESTS_CUPTI_TEST_UTIL_H_

#include <cupti.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace simtest {

struct Collected {
  std::mutex mutex;
  std::vector<std::vector<uint8_t>> records;  // copies, in delivery order
  std::vector<size_t> records_per_buffer;
  std::vector<std::thread::id> delivering_threads;
};

inline Collected& TheCollected() {
  static Collected collected;
  return collected;
}

inline void CUPTIAPI RequestBuffer(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 64 * 1024;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

inline void CUPTIAPI CompleteBuffer(CUcontext, uint32_t, uint8_t* buffer, size_t,
                                    size_t valid_size) {
  Collected& collected = TheCollected();
  std::lock_guard<std::mutex> lock(collected.mutex);
  CUpti_Activity* record = nullptr;
  size_t count = 0;
  while (cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
    size_t size = record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
                      ? sizeof(CUpti_ActivityKernel10)
                      : 96;  // large enough for every other record, all <= 96 bytes
    auto* bytes = reinterpret_cast<uint8_t*>(record);
    collected.records.emplace_back(
        bytes, bytes + std::min(size, valid_size - static_cast<size_t>(bytes - buffer)));
    ++count;
  }
  collected.records_per_buffer.push_back(count);
  collected.delivering_threads.push_back(std::this_thread::get_id());
  std::free(buffer);
}

// All collected records of one type and kind, copied out.
template <typename Record>
std::vector<Record> RecordsOfKind(CUpti_ActivityKind kind) {
  Collected& collected = TheCollected();
  std::lock_guard<std::mutex> lock(collected.mutex);
  std::vector<Record> out;
  for (const auto& bytes : collected.records) {
    if (reinterpret_cast<const CUpti_Activity*>(bytes.data())->kind != kind) continue;
    Record record;
    std::memset(&record, 0, sizeof(record));
    std::memcpy(&record, bytes.data(), std::min(sizeof(record), bytes.size()));
    out.push_back(record);
  }
  return out;
}

inline void ClearCollected() {
  Collected& collected = TheCollected();
  std::lock_guard<std::mutex> lock(collected.mutex);
  collected.records.clear();
  collected.records_per_buffer.clear();
  collected.delivering_threads.clear();
}

inline size_t CollectedCount() {
  Collected& collected = TheCollected();
  std::lock_guard<std::mutex> lock(collected.mutex);
  return collected.records.size();
}

}  // namespace simtest

#endif  // PROF_TESTDATA_SIM_TESTS_CUPTI_TEST_UTIL_H_
