// Per-name aggregation shared by the Operator, Kernel, Memory Manipulation and
// UserDefined tables: items in first-seen order, a stable sort by paddle's SortedKeys,
// and paddle's display-name shortening. State grows with distinct names, not events.
#ifndef PROF_ANALYZER_SUMMARY_NAMED_ITEMS_H_
#define PROF_ANALYZER_SUMMARY_NAMED_ITEMS_H_

#include <string>
#include <vector>

#include "analyzer/model/string_pool.h"
#include "analyzer/summary/analysis_context.h"

namespace prof::analyzer {

struct NamedItem {
  NameId name = 0;
  DurationStats cpu;
  DurationStats gpu;  // all device activity ("general GPU time") unless a table says otherwise
};

template <typename Item>
class NamedItemsCursor;

// Items keyed by name, remembering first-seen order. Name ids are dense (a StringPool),
// so the index is a plain array by id: one load per event instead of a hash lookup, and
// still sized by the number of distinct names.
template <typename Item>
class NamedItems {
 public:
  Item& Get(NameId name) { return items_[Slot(name)]; }
  // The index in items() of `name`'s item, added when new: unlike a reference, it stays
  // valid while items are added.
  uint32_t Slot(NameId name) {
    if (name >= slot_of_name_.size()) slot_of_name_.resize(name + 1, kAbsent);
    uint32_t& slot = slot_of_name_[name];
    if (slot == kAbsent) {
      slot = static_cast<uint32_t>(items_.size());
      items_.emplace_back();
      items_.back().name = name;
    }
    return slot;
  }
  const std::vector<Item>& items() const { return items_; }
  std::vector<Item>& items() { return items_; }
  bool empty() const { return items_.empty(); }

 private:
  friend class NamedItemsCursor<Item>;
  static constexpr uint32_t kAbsent = ~uint32_t{0};
  std::vector<uint32_t> slot_of_name_;
  std::vector<Item> items_;
};

// NamedItems::Get for a walk over millions of records: the index and the items as the
// walk's own pointers, which stay in registers, refreshed only when a new name adds an
// item (which may move them). Through NamedItems::Get the walk reloaded both vectors for
// every record, as the adding path may write anywhere.
template <typename Item>
class NamedItemsCursor {
 public:
  NamedItemsCursor() = default;  // of no items: assign one before Get
  explicit NamedItemsCursor(NamedItems<Item>* items) : items_(items) { Refresh(); }

  Item& Get(NameId name) {
    if (name < slot_count_ && slots_[name] != NamedItems<Item>::kAbsent) {
      return data_[slots_[name]];
    }
    Item& item = items_->Get(name);
    Refresh();
    return item;
  }

 private:
  void Refresh() {
    slots_ = items_->slot_of_name_.data();
    slot_count_ = items_->slot_of_name_.size();
    data_ = items_->items_.data();
  }

  NamedItems<Item>* items_ = nullptr;
  const uint32_t* slots_ = nullptr;
  size_t slot_count_ = 0;
  Item* data_ = nullptr;
};

// Indices of `items` in display order for `key` (stable: ties keep first-seen order).
template <typename Item>
std::vector<size_t> SortedOrder(const std::vector<Item>& items, SortKey key) {
  std::vector<size_t> order(items.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const bool ascending = SortsAscending(key);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const double x = SortValue(key, items[a].cpu, items[a].gpu);
    const double y = SortValue(key, items[b].cpu, items[b].gpu);
    return ascending ? x < y : x > y;
  });
  return order;
}

// Cuts `name` to `width` characters: the first width-3 and "..." (paddle's rule).
std::string Shorten(absl::string_view name, size_t width);

// paddle's kernel display name: "prefix<...>(args)" loses "(args)".
std::string KernelDisplayName(absl::string_view name);

// Keeps at most `top` entries of `order` (0: all).
void KeepTop(int top, std::vector<size_t>* order);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_NAMED_ITEMS_H_
