#include "analyzer/tree/range_tree.h"

#include <algorithm>
#include <tuple>

namespace prof::analyzer {
namespace {

// A range's sort key, copied next to its index: a sort that compared through the index
// read two scattered ranges per comparison, and on a million ranges it was most of the
// tree's time.
struct RangeKey {
  uint64_t thread_id;
  uint64_t start_ns;
  uint64_t end_ns;
  uint32_t index;
};

// Thread by thread, enclosing ranges before the ranges they hold: by start, then longest
// first, then index (so no two keys tie and every sort gives one order). Inline: SortKeys
// calls it once a range, and the call cost more than the comparison.
inline bool KeyBefore(const RangeKey& x, const RangeKey& y) {
  return std::tie(x.thread_id, x.start_ns, y.end_ns, x.index) <
         std::tie(y.thread_id, y.start_ns, x.end_ns, y.index);
}

// Sorts `keys` by KeyBefore. A thread's ranges are written as they end, so they arrive
// nearly in order: only an enclosing range (a step, after the hundreds it holds) comes
// late. Those few are set aside, sorted alone and merged back, O(n + k log k) rather than
// a full sort; when they are many (threads interleaved in the file), a full sort.
void SortKeys(std::vector<RangeKey>* keys) {
  std::vector<RangeKey>& all = *keys;
  std::vector<RangeKey> late;
  size_t kept = 0;
  for (size_t read = 0; read < all.size(); ++read) {
    if (kept == 0 || !KeyBefore(all[read], all[kept - 1])) {
      all[kept++] = all[read];  // kept <= read: it overwrites a key already read
      continue;
    }
    late.push_back(all[read]);
    if (late.size() > all.size() / 8 + 16) {
      // Slots [kept, read] are stale: the keys read so far are the kept ones and `late`.
      std::copy(late.begin(), late.end(), all.begin() + kept);
      std::sort(all.begin(), all.end(), KeyBefore);
      return;
    }
  }
  std::sort(late.begin(), late.end(), KeyBefore);
  // Merge from the back, where the kept run's slots are already free. The late keys are a
  // few enclosing ranges and the kept ones all the others: each late key's place is found
  // by a search, and the kept keys past it move as one block, not one by one.
  size_t out = all.size();
  for (size_t from_late = late.size(); from_late > 0; --from_late) {
    const RangeKey& key = late[from_late - 1];
    const size_t place =
        std::upper_bound(all.begin(), all.begin() + kept, key, KeyBefore) - all.begin();
    std::copy_backward(all.begin() + place, all.begin() + kept, all.begin() + out);
    out -= kept - place;
    kept = place;
    all[--out] = key;
  }
}

// The tree's ranges (all but marks), by KeyBefore.
std::vector<uint32_t> SortedRanges(const std::vector<HostRange>& ranges) {
  // Written through a pointer, not push_back: the list's end, stored for each key, made
  // the compiler reload the ranges' storage for each range.
  std::vector<RangeKey> keys(ranges.size());
  RangeKey* key = keys.data();
  const HostRange* const range = ranges.data();
  for (uint32_t i = 0; i < ranges.size(); ++i) {
    if (range[i].type == RangeType::kMark) continue;
    *key++ = {range[i].thread_id, range[i].start_ns, range[i].end_ns, i};
  }
  keys.resize(key - keys.data());
  SortKeys(&keys);
  std::vector<uint32_t> order;
  order.reserve(keys.size());
  for (const RangeKey& key : keys) order.push_back(key.index);
  return order;
}

// Stack nesting of one model's ranges; fills tree->parent.
void NestRanges(const std::vector<HostRange>& ranges, RangeTree* tree, DataQuality* quality) {
  std::vector<uint32_t> open;
  uint64_t thread = 0;
  for (uint32_t index : tree->preorder) {
    const HostRange& range = ranges[index];
    if (open.empty() || range.thread_id != thread) open.clear();
    thread = range.thread_id;
    while (!open.empty() && range.start_ns >= ranges[open.back()].end_ns) open.pop_back();
    int32_t parent = open.empty() ? kNoIndex : static_cast<int32_t>(open.back());
    if (parent != kNoIndex && range.end_ns > ranges[parent].end_ns) {
      // Partial overlap: the innermost open range that holds it whole becomes the parent.
      ++quality->reparented_ranges;
      parent = kNoIndex;
      for (auto it = open.rbegin(); it != open.rend(); ++it) {
        if (ranges[*it].end_ns >= range.end_ns) {
          parent = static_cast<int32_t>(*it);
          break;
        }
      }
    }
    tree->parent[index] = parent;
    open.push_back(index);
  }
}

// The calls by (thread, start), for a model whose calls are not in that order.
std::vector<uint32_t> SortedCalls(const std::vector<ApiCall>& calls) {
  std::vector<uint32_t> order(calls.size());
  for (uint32_t i = 0; i < calls.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::tie(calls[a].thread_id, calls[a].start_ns) <
           std::tie(calls[b].thread_id, calls[b].start_ns);
  });
  return order;
}

// One thread's ranges as the call sweep meets them: the ranges opened so far (`current`,
// the innermost holding the last call, and its ancestors through `parent`) and the next
// range to open. The end of `current` and the start of the next range are kept beside
// them, so a call that opens and closes nothing, most calls, reads no range at all.
class OpenRanges {
 public:
  OpenRanges(const TraceModel& model, const RangeTree& tree)
      : ranges_(model.ranges.data()),
        preorder_(tree.preorder.data()),
        range_count_(tree.preorder.size()),
        parent_(tree.parent.data()) {}

  // Skips to `thread`'s ranges (threads come in increasing order), none open.
  void StartThread(uint64_t thread) {
    thread_ = thread;
    while (next_ < range_count_ && ranges_[preorder_[next_]].thread_id < thread) ++next_;
    current_ = kNoIndex;
    current_end_ = UINT64_MAX;
    next_start_ = NextStart();
  }

  // The innermost range holding `start` (at least the previous call's start).
  int32_t Holding(uint64_t start) {
    if (start >= next_start_) {
      // Open every range of this thread that starts at or before the call.
      while (next_ < range_count_) {
        const HostRange& range = ranges_[preorder_[next_]];
        if (range.thread_id != thread_ || range.start_ns > start) break;
        current_ = static_cast<int32_t>(preorder_[next_++]);
      }
      current_end_ = EndOf(current_);
      next_start_ = NextStart();
    }
    while (start >= current_end_ && current_ != kNoIndex) {
      current_ = parent_[current_];
      current_end_ = EndOf(current_);
    }
    return current_;
  }

  // The end of the range Holding returned (UINT64_MAX: none, which holds every call whole).
  uint64_t HoldingEnd() const { return current_end_; }

 private:
  uint64_t EndOf(int32_t range) const {
    return range == kNoIndex ? UINT64_MAX : ranges_[range].end_ns;
  }

  // UINT64_MAX when the thread has no range left: Holding then checks the open loop itself.
  uint64_t NextStart() const {
    if (next_ == range_count_) return UINT64_MAX;
    const HostRange& range = ranges_[preorder_[next_]];
    return range.thread_id == thread_ ? range.start_ns : UINT64_MAX;
  }

  const HostRange* const ranges_;
  const uint32_t* const preorder_;
  const size_t range_count_;
  const int32_t* const parent_;
  uint64_t thread_ = 0;
  size_t next_ = 0;
  int32_t current_ = kNoIndex;
  uint64_t current_end_ = UINT64_MAX;
  uint64_t next_start_ = UINT64_MAX;
};

// `CallAt(i)` is the index of the i-th call of the sweep: a template, so the sweep in place
// tests no order list for each of millions of calls. Each parent also goes to
// `call_range[call]`, and each start to `call_start[call]` (both sized like the calls).
template <typename CallAt>
bool SweepCallsIn(TraceModel* model, const RangeTree& tree, int32_t* call_range,
                  uint64_t* call_start, CallAt call_at) {
  // The calls' storage in a local: the parents written through `call_range` would
  // otherwise make the compiler reload the list's address for each of millions of calls.
  const ApiCall* const calls = model->api_calls.data();
  const size_t call_count = model->api_calls.size();
  if (call_count == 0) return true;
  OpenRanges open(*model, tree);
  // The first call's thread is the first thread, whatever its id.
  uint64_t thread = calls[call_at(0)].thread_id, last_start = 0;
  open.StartThread(thread);
  uint64_t straddling = 0;
  for (size_t i = 0; i < call_count; ++i) {
    const size_t index = call_at(i);
    const ApiCall& call = calls[index];
    if (call.thread_id != thread) {
      if (call.thread_id < thread) return false;
      thread = call.thread_id;
      open.StartThread(thread);
    } else if (call.start_ns < last_start) {
      return false;
    }
    last_start = call.start_ns;
    const int32_t range = open.Holding(call.start_ns);
    call_range[index] = range;
    call_start[index] = call.start_ns;
    straddling += call.end_ns > open.HoldingEnd();
  }
  model->quality.straddling_api_calls += straddling;
  return true;
}

// Sweeps ranges (pre-order) and calls (by start) of each thread together: the calls in
// `order`, or in place when it is null. In place, returns false at the first call out of
// (thread, start) order, the model left for a sweep in order to redo; the agent writes
// each thread's calls in time order, so the check rides in the sweep instead of being a
// pass over millions of calls of its own.
bool SweepCalls(TraceModel* model, RangeTree* tree, const std::vector<uint32_t>* order) {
  int32_t* const call_range = tree->call_range.data();
  uint64_t* const call_start = tree->call_start.data();
  if (order == nullptr)
    return SweepCallsIn(model, *tree, call_range, call_start, [](size_t i) { return i; });
  const uint32_t* const call_order = order->data();
  return SweepCallsIn(model, *tree, call_range, call_start,
                      [call_order](size_t i) { return call_order[i]; });
}

// Fills tree->call_range (each call's range) and tree->call_start.
void AttributeCalls(TraceModel* model, RangeTree* tree) {
  tree->call_range.assign(model->api_calls.size(), kNoIndex);
  tree->call_start.resize(model->api_calls.size());
  if (SweepCalls(model, tree, nullptr)) return;
  const std::vector<uint32_t> order = SortedCalls(model->api_calls);
  SweepCalls(model, tree, &order);
}

// `call_range`: AttributeCalls's packed parents (RangeTree::call_range). Read through the
// 80-byte calls, a record's parent was a cache miss each, half of the tree's time on a large
// window.
void SumDeviceTime(const TraceModel& model, const std::vector<int32_t>& call_range_list,
                   RangeTree* tree) {
  // The lists' storage in locals: the sums written through them would otherwise make the
  // compiler reload each list's address for each of millions of records.
  const int32_t* const call_range = call_range_list.data();
  uint64_t* const device_ns = tree->device_ns.data();
  uint64_t* const kernel_ns = tree->kernel_ns.data();
  for (const DeviceActivity& activity : model.device_activities) {
    if (activity.api_call == kNoIndex || activity.kind == DeviceKind::kSynchronization) continue;
    const int32_t range = call_range[activity.api_call];
    if (range == kNoIndex) continue;
    const uint64_t duration = activity.end_ns - activity.start_ns;
    device_ns[range] += duration;
    if (activity.kind == DeviceKind::kKernel) kernel_ns[range] += duration;
  }
  // Children follow their parents in pre-order, so a reverse sweep sums whole subtrees.
  for (auto it = tree->preorder.rbegin(); it != tree->preorder.rend(); ++it) {
    const int32_t parent = tree->parent[*it];
    if (parent == kNoIndex) continue;
    tree->device_ns[parent] += tree->device_ns[*it];
    tree->kernel_ns[parent] += tree->kernel_ns[*it];
  }
}

}  // namespace

RangeTree BuildRangeTree(TraceModel* model) {
  RangeTree tree;
  const size_t count = model->ranges.size();
  tree.parent.assign(count, kNoIndex);
  tree.kernel_ns.assign(count, 0);
  tree.device_ns.assign(count, 0);
  tree.preorder = SortedRanges(model->ranges);
  model->quality.reparented_ranges = 0;
  model->quality.straddling_api_calls = 0;
  NestRanges(model->ranges, &tree, &model->quality);
  AttributeCalls(model, &tree);
  SumDeviceTime(*model, tree.call_range, &tree);
  return tree;
}

}  // namespace prof::analyzer
