// One thread's open PyTorch operators (RecordFunctions) between their start and end
// callbacks, turned into whole ranges as torch.profiler's tables count them.
//
// Design rule: the names and counts are those of torch.profiler's key_averages, the rules
// the replay of torch's own collection applies (python/src/libprof/_torch/aten_replay.py):
//   - utility names (_filter_name: aten::is_leaf, [memory], ...) are no ranges and no
//     children of anything;
//   - EventList._remove_dup_nodes: a call that is the only child of a call of the same
//     name is folded away (autocast's aten::bmm around the kernel's aten::bmm), to a fixed
//     point. On the stack: a first child named as its parent is held pending in the
//     parent; a second child records it; the parent's end drops it when it stayed the
//     only one. A chain A > A > A folds from the inside out, as torch folds it from the
//     outside in.
// Names are only read while their RecordFunction lives (a record_function's name is a
// string it owns): a range is handed to the sink at its end, and a pending child is
// recorded under its parent's name (the same text) while the parent is still open.
//
// Cost: Start and End are a few loads and stores on a fixed array and one strlen at the
// start (the length then settles most of the utility test, lets a first child's name be
// compared only with a parent's of its length, and goes to the sink, so the record needs
// no strlen of its own). No allocation, no lock. Threads: one stack per thread, never
// shared. Fork: the child inherits the forking thread's stack as it is (Reset when
// observing starts again). Each call is known by its RecordFunction's address (unique
// while it lives), so an end finds its own call: the innermost one, nearly always. Where
// it is not (callbacks removed and added again inside a call; torch 1.13's
// record_function, whose range starts inside the operator that opens it and outlives it)
// the call is taken out from under the calls above it, which become its parent's children
// (counted: out_of_order).
// Limits: kDepth levels; deeper calls are counted (overflowed) and not recorded, their
// ends matched by count. An end without a start (callbacks added inside a call, or removed
// and added again) is counted (unmatched) and ignored.
#ifndef PROF_AGENT_TORCH_OPERATOR_STACK_H_
#define PROF_AGENT_TORCH_OPERATOR_STACK_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace prof {

class OperatorStack {
 public:
  // Receives each whole range: user is true for a record_function range (torch's
  // USER_SCOPE, a user range), false for an operator; length: strlen(name). End takes any
  // callable of this signature: a template, so the observer's sink is inlined into its end
  // (through this function pointer it was one more indirect call and frame an operator).
  using Sink = void (*)(bool user, const char* name, size_t length, uint64_t start_ns,
                        uint64_t end_ns);

  static constexpr int kDepth = 128;

  // call: the RecordFunction's address. start_ns 0: the call is not recorded (the agent
  // was not recording at its start), but still counts as its parent's child.
  void Start(const void* call, const char* name, bool user, uint64_t start_ns);
  template <typename SinkFunction>
  void End(const void* call, uint64_t end_ns, SinkFunction&& sink);
  // End for the innermost open call (IsInnermost: the caller knows), without looking for
  // it: the usual end, ~15 instructions an operator less (callgrind).
  template <typename SinkFunction>
  void EndInnermost(uint64_t end_ns, SinkFunction&& sink);
  void Reset() { depth_ = overflow_ = 0; }
  // Whether `call` is the innermost open call: an end's usual case, where the caller
  // needs no other test that it was pushed.
  bool IsInnermost(const void* call) const {
    return depth_ > 0 && levels_[depth_ - 1].call == call;
  }

  int depth() const { return depth_; }
  uint64_t folded() const { return folded_; }
  uint64_t overflowed() const { return overflowed_; }
  uint64_t unmatched() const { return unmatched_; }
  uint64_t out_of_order() const { return out_of_order_; }

 private:
  struct Level {
    const void* call;
    const char* name;
    uint64_t start_ns;
    uint64_t pending_start_ns;  // a first child named as this call, held (pending)
    uint64_t pending_end_ns;
    uint32_t children;  // counted children (utility names are none)
    uint32_t length;    // strlen(name), cut at UINT32_MAX (names are cut shorter later)
    bool user;
    bool utility;
    bool pending;
    bool pending_user;
  };

  // The rest of an end, `ended` taken off the stack from `index`.
  template <typename SinkFunction>
  void Ended(int index, const Level& ended, uint64_t end_ns, SinkFunction&& sink);

  Level levels_[kDepth];
  int depth_ = 0;
  int overflow_ = 0;  // open calls past kDepth
  uint64_t folded_ = 0;
  uint64_t overflowed_ = 0;
  uint64_t unmatched_ = 0;
  uint64_t out_of_order_ = 0;
};

// torch.profiler's _filter_name: utility operators that are no rows of its tables.
bool IsUtilityOperatorName(const char* name);

// The utilities' lengths, and their seventh characters (& 63), as bits (operator_stack.cc
// lists the utilities; all are 8 to 63 characters long).
extern const uint64_t kUtilityLengthBits;
extern const uint64_t kUtilitySeventhBits;

// Whether a name of this length (strlen(name)) may be a utility's: false for most
// operators' names, so IsUtilityOperatorName is called for few.
inline bool MayBeUtility(const char* name, size_t length) {
  return length < 64 && ((kUtilityLengthBits >> length) & 1) != 0 &&
         ((kUtilitySeventhBits >> (name[6] & 63)) & 1) != 0;  // length >= 8 here
}

// Inline (into the observer's start callback): out of line, its call and frame were ~20
// instructions an operator (callgrind).
inline void OperatorStack::Start(const void* call, const char* name, bool user, uint64_t start_ns) {
  if (depth_ == kDepth) {
    ++overflow_;
    ++overflowed_;
    return;
  }
  Level& level = levels_[depth_++];
  level.call = call;
  level.name = name ? name : "";
  const size_t length = std::strlen(level.name);
  level.length = length < UINT32_MAX ? static_cast<uint32_t>(length) : UINT32_MAX;
  level.start_ns = start_ns;
  level.children = 0;
  level.user = user;
  // The length and a character first: few operators' names pass both (~40 instructions an
  // operator where every name went through IsUtilityOperatorName).
  level.utility = MayBeUtility(level.name, length) && IsUtilityOperatorName(level.name);
  level.pending = false;
}

template <typename SinkFunction>
inline void OperatorStack::End(const void* call, uint64_t end_ns, SinkFunction&& sink) {
  int index = depth_ - 1;  // nearly always the innermost call: found at once
  while (index >= 0 && levels_[index].call != call) --index;
  if (index < 0) {
    if (overflow_ > 0) {
      --overflow_;
    } else {
      ++unmatched_;
    }
    return;
  }
  const Level ended = levels_[index];  // a copy: the calls above it move down
  if (index != depth_ - 1) ++out_of_order_;
  for (int above = index + 1; above < depth_; ++above) levels_[above - 1] = levels_[above];
  --depth_;
  Ended(index, ended, end_ns, sink);
}

template <typename SinkFunction>
inline void OperatorStack::EndInnermost(uint64_t end_ns, SinkFunction&& sink) {
  const int index = --depth_;
  Ended(index, levels_[index], end_ns, sink);  // in place: nothing above it moves
}

template <typename SinkFunction>
inline void OperatorStack::Ended(int index, const Level& ended, uint64_t end_ns,
                                 SinkFunction&& sink) {
  if (ended.pending) ++folded_;  // its only child, named as itself: folded away
  if (ended.utility) return;
  if (index > 0) {
    Level& parent = levels_[index - 1];
    ++parent.children;
    if (parent.pending) {  // a second child: the first one is no duplicate
      parent.pending = false;
      sink(parent.pending_user, parent.name, parent.length, parent.pending_start_ns,
           parent.pending_end_ns);
    }
    // Names of unequal lengths differ: most first children are told apart without a compare.
    if (parent.children == 1 && ended.length == parent.length &&
        std::memcmp(ended.name, parent.name, ended.length) == 0) {
      if (ended.start_ns == 0) return;  // not recorded anyway
      parent.pending = true;
      parent.pending_user = ended.user;
      parent.pending_start_ns = ended.start_ns;
      parent.pending_end_ns = end_ns;
      return;
    }
  }
  if (ended.start_ns != 0) sink(ended.user, ended.name, ended.length, ended.start_ns, end_ns);
}

}  // namespace prof

#endif  // PROF_AGENT_TORCH_OPERATOR_STACK_H_
