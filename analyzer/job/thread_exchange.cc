#include "analyzer/job/thread_exchange.h"

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace prof::analyzer {
namespace {

// Mailboxes boxes[to][from], and a barrier between writing them and reading them.
class Hub {
 public:
  explicit Hub(int size) : size_(size), boxes_(size, std::vector<std::string>(size)) {}

  int size() const { return size_; }
  void Put(int to, int from, std::string blob) {
    std::lock_guard<std::mutex> lock(mutex_);
    boxes_[to][from] = std::move(blob);
  }
  std::vector<std::string> Take(int to) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::string> mine(size_);
    mine.swap(boxes_[to]);
    boxes_[to].resize(size_);
    return mine;
  }
  void Wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const uint64_t generation = generation_;
    if (++arrived_ == size_) {
      arrived_ = 0;
      ++generation_;
      all_arrived_.notify_all();
      return;
    }
    all_arrived_.wait(lock, [&] { return generation_ != generation; });
  }

 private:
  const int size_;
  std::mutex mutex_;
  std::condition_variable all_arrived_;
  int arrived_ = 0;
  uint64_t generation_ = 0;
  std::vector<std::vector<std::string>> boxes_;
};

class ThreadExchange : public Exchange {
 public:
  ThreadExchange(Hub* hub, int rank) : hub_(hub), rank_(rank) {}
  int Rank() const override { return rank_; }
  int Size() const override { return hub_->size(); }

  std::vector<std::string> AllToAll(std::vector<std::string> blobs) override {
    for (int to = 0; to < Size(); ++to) hub_->Put(to, rank_, std::move(blobs[to]));
    hub_->Wait();  // every box written
    std::vector<std::string> mine = hub_->Take(rank_);
    hub_->Wait();  // every box read before the next exchange writes again
    return mine;
  }

  std::vector<std::string> AllGather(const std::string& blob) override {
    return AllToAll(std::vector<std::string>(Size(), blob));
  }

 private:
  Hub* hub_;
  int rank_;
};

}  // namespace

void RunOnThreads(int processes, const std::function<void(Exchange&)>& body) {
  Hub hub(processes);
  std::vector<std::thread> threads;
  for (int rank = 0; rank < processes; ++rank) {
    threads.emplace_back([&hub, &body, rank] {
      ThreadExchange exchange(&hub, rank);
      body(exchange);
    });
  }
  for (std::thread& thread : threads) thread.join();
}

}  // namespace prof::analyzer
