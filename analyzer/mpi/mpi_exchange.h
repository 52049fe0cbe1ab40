// The sharded job view's Exchange (job/exchange.h) over MPI_COMM_WORLD: AllToAll by
// MPI_Alltoallv, AllGather by MPI_Allgatherv. MPI counts are ints, so blobs of any size
// travel in rounds of at most 1 GiB per process.
#ifndef PROF_ANALYZER_MPI_MPI_EXCHANGE_H_
#define PROF_ANALYZER_MPI_MPI_EXCHANGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/job/exchange.h"

namespace prof::analyzer {

class MpiExchange : public Exchange {
 public:
  explicit MpiExchange(uint64_t round_bytes = uint64_t{1} << 30);  // after MPI_Init
  int Rank() const override { return rank_; }
  int Size() const override { return size_; }
  std::vector<std::string> AllToAll(std::vector<std::string> blobs) override;
  std::vector<std::string> AllGather(const std::string& blob) override;

 private:
  uint64_t round_bytes_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_MPI_MPI_EXCHANGE_H_
