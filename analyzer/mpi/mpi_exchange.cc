#include "analyzer/mpi/mpi_exchange.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>

namespace prof::analyzer {

// round_bytes: what a process sends (and receives) in one round, all destinations
// together, so the displacements of one MPI_Alltoallv stay ints.
MpiExchange::MpiExchange(uint64_t round_bytes) : round_bytes_(round_bytes) {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

std::vector<std::string> MpiExchange::AllToAll(std::vector<std::string> blobs) {
  std::vector<uint64_t> send_sizes(size_), receive_sizes(size_);
  for (int to = 0; to < size_; ++to) send_sizes[to] = blobs[to].size();
  MPI_Alltoall(send_sizes.data(), 1, MPI_UINT64_T, receive_sizes.data(), 1, MPI_UINT64_T,
               MPI_COMM_WORLD);
  // Each pair moves at most `share` bytes a round; every process runs the most rounds any needs.
  const uint64_t share = std::max<uint64_t>(1, round_bytes_ / size_);
  uint64_t rounds = 0;
  for (int p = 0; p < size_; ++p) {
    rounds = std::max(rounds, (std::max(send_sizes[p], receive_sizes[p]) + share - 1) / share);
  }
  MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  std::vector<std::string> received(size_);
  for (int from = 0; from < size_; ++from) received[from].reserve(receive_sizes[from]);
  std::vector<int> send_counts(size_), send_at(size_), receive_counts(size_), receive_at(size_);
  std::string send_buffer, receive_buffer;
  for (uint64_t round = 0; round < rounds; ++round) {
    const uint64_t offset = round * share;
    send_buffer.clear();
    int receive_total = 0;
    for (int p = 0; p < size_; ++p) {
      const uint64_t send = send_sizes[p] > offset ? std::min(share, send_sizes[p] - offset) : 0;
      const uint64_t receive =
          receive_sizes[p] > offset ? std::min(share, receive_sizes[p] - offset) : 0;
      send_at[p] = static_cast<int>(send_buffer.size());
      send_counts[p] = static_cast<int>(send);
      if (send > 0) send_buffer.append(blobs[p], offset, send);
      if (offset + send >= send_sizes[p]) std::string().swap(blobs[p]);  // all sent: freed
      receive_at[p] = receive_total;
      receive_counts[p] = static_cast<int>(receive);
      receive_total += static_cast<int>(receive);
    }
    receive_buffer.resize(receive_total);
    MPI_Alltoallv(send_buffer.data(), send_counts.data(), send_at.data(), MPI_BYTE,
                  receive_buffer.data(), receive_counts.data(), receive_at.data(), MPI_BYTE,
                  MPI_COMM_WORLD);
    if (round + 1 == rounds) std::string().swap(send_buffer);
    for (int p = 0; p < size_; ++p)
      received[p].append(receive_buffer, receive_at[p], receive_counts[p]);
  }
  return received;
}

std::vector<std::string> MpiExchange::AllGather(const std::string& blob) {
  uint64_t size = blob.size();
  std::vector<uint64_t> sizes(size_);
  MPI_Allgather(&size, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
  uint64_t total = 0;
  for (uint64_t each : sizes) total += each;
  // Large: the same bytes to everyone, through AllToAll's rounds.
  if (total >= round_bytes_) return AllToAll(std::vector<std::string>(size_, blob));
  std::vector<int> counts(size_), at(size_);
  int offset = 0;
  for (int p = 0; p < size_; ++p) {
    counts[p] = static_cast<int>(sizes[p]);
    at[p] = offset;
    offset += counts[p];
  }
  std::string all(total, '\0');
  MPI_Allgatherv(blob.data(), static_cast<int>(size), MPI_BYTE, all.data(), counts.data(),
                 at.data(), MPI_BYTE, MPI_COMM_WORLD);
  std::vector<std::string> blobs(size_);
  for (int p = 0; p < size_; ++p) blobs[p] = all.substr(at[p], counts[p]);
  return blobs;
}

}  // namespace prof::analyzer
