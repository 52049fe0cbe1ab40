// How the processes of one analysis talk (the job view sharded by communicator,
// sharded_collectives.h): every process calls each operation in the same order. Over MPI,
// mpi/mpi_exchange.h (MPI_Alltoallv, MPI_Allgatherv); in tests, threads
// (thread_exchange.h). No MPI here, so the analyzer builds without MPI headers.
//
// Records travel as their bytes (PutRecords/GetRecords): every process runs the same
// binary, so trivially copyable structs keep their layout.
#ifndef PROF_ANALYZER_JOB_EXCHANGE_H_
#define PROF_ANALYZER_JOB_EXCHANGE_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace prof::analyzer {

class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual int Rank() const = 0;
  virtual int Size() const = 0;
  // `blobs[p]` goes to process p (Size() of them); returns what each process sent to this
  // one, by sender.
  virtual std::vector<std::string> AllToAll(std::vector<std::string> blobs) = 0;
  // Every process's `blob`, by process.
  virtual std::vector<std::string> AllGather(const std::string& blob) = 0;
};

// Appends `records` to `out` as one section (its byte count, then the bytes).
template <typename T>
void PutRecords(const std::vector<T>& records, std::string* out) {
  static_assert(std::is_trivially_copyable_v<T>);
  const uint64_t bytes = records.size() * sizeof(T);
  out->append(reinterpret_cast<const char*>(&bytes), sizeof(bytes));
  if (bytes > 0) out->append(reinterpret_cast<const char*>(records.data()), bytes);
}

// The section at `*at` of `in`, appended to `records`; `*at` moves past it. A short or
// damaged section yields what is whole.
template <typename T>
void GetRecords(const std::string& in, size_t* at, std::vector<T>* records) {
  static_assert(std::is_trivially_copyable_v<T>);
  uint64_t bytes = 0;
  if (*at + sizeof(bytes) > in.size()) return;
  std::memcpy(&bytes, in.data() + *at, sizeof(bytes));
  *at += sizeof(bytes);
  const size_t whole = std::min<uint64_t>(bytes, in.size() - *at) / sizeof(T);
  const size_t first = records->size();
  records->resize(first + whole);
  if (whole > 0)  // an empty vector's data() may be null, which memcpy must not get
    std::memcpy(static_cast<void*>(records->data() + first), in.data() + *at, whole * sizeof(T));
  *at += bytes;
}

// Sends `outgoing[p]` to process p (one list per process); returns every record sent to
// this one, by sender, each sender's in its order.
template <typename T>
std::vector<T> RouteRecords(Exchange& exchange, std::vector<std::vector<T>> outgoing) {
  std::vector<std::string> blobs(exchange.Size());
  for (size_t to = 0; to < outgoing.size(); ++to) {
    PutRecords(outgoing[to], &blobs[to]);
    std::vector<T>().swap(outgoing[to]);
  }
  std::vector<T> received;
  for (const std::string& blob : exchange.AllToAll(std::move(blobs))) {
    size_t at = 0;
    GetRecords(blob, &at, &received);
  }
  return received;
}

// Every process's `value`, by process (a small struct: counts, a minimum).
template <typename T>
std::vector<T> GatherAll(Exchange& exchange, const T& value) {
  std::string mine;
  PutRecords(std::vector<T>{value}, &mine);
  std::vector<T> all;
  for (const std::string& blob : exchange.AllGather(mine)) {
    size_t at = 0;
    GetRecords(blob, &at, &all);
  }
  return all;
}

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_JOB_EXCHANGE_H_
