#pragma once
// A binary min-heap of nodes with decrease-key. Each entry carries its own keys so that
// comparisons never leave the heap array; the position of every node in the heap is written
// back through a caller-supplied function, which lets the search keep it beside the node's
// other state (one cache line per node instead of two arrays).

#include <cstdint>
#include <utility>
#include <vector>

#include "wayfinder/core/types.hpp"

namespace wayfinder {

struct HeapEntry {
  Cost priority;  ///< ordered ascending (f = g_weight * g + h_weight * h)
  float tie;      ///< among equal priorities, the larger tie value comes first (larger g)
  NodeId node;
};
static_assert(sizeof(HeapEntry) == 16, "four entries per cache line");

class IndexedHeap {
 public:
  [[nodiscard]] bool empty() const { return entries_.empty(); }
  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  [[nodiscard]] const HeapEntry& top() const { return entries_.front(); }
  void clear() { entries_.clear(); }
  void reserve(std::size_t n) { entries_.reserve(n); }

  /// Adds an entry; `set_position(node, index)` is called for every entry that moves.
  template <class SetPosition>
  [[gnu::always_inline]] void push(const HeapEntry& entry, SetPosition&& set_position) {
    entries_.push_back(entry);
    sift_up(static_cast<std::uint32_t>(entries_.size() - 1), set_position);
  }

  /// Removes and returns the smallest entry. The hole left at the root is moved down to a leaf
  /// along the smaller children and the last entry sifted up from there (Floyd's bottom-up
  /// variant, Wegener 1993): the last entry nearly always belongs near the bottom, so this
  /// saves about half the comparisons of a top-down sift.
  template <class SetPosition>
  HeapEntry pop(SetPosition&& set_position) {
    const HeapEntry smallest = entries_.front();
    const HeapEntry last = entries_.back();
    entries_.pop_back();
    const auto count = static_cast<std::uint32_t>(entries_.size());
    if (count == 0) return smallest;
    std::uint32_t hole = 0;
    while (true) {
      std::uint32_t child = 2 * hole + 1;
      if (child >= count) break;
      // Branch-free choice of the smaller child: which one wins is a coin flip the branch
      // predictor cannot learn.
      if (child + 1 < count) child += static_cast<std::uint32_t>(before(entries_[child + 1], entries_[child]));
      entries_[hole] = entries_[child];
      set_position(entries_[hole].node, hole);
      hole = child;
    }
    entries_[hole] = last;
    sift_up(hole, set_position);
    return smallest;
  }

  /// Lowers the keys of the entry at `position` (priority must not increase).
  template <class SetPosition>
  void decrease(std::uint32_t position, Cost priority, float tie, SetPosition&& set_position) {
    entries_[position].priority = priority;
    entries_[position].tie = tie;
    sift_up(position, set_position);
  }

  /// The heap's order: smaller priority first, then larger tie value.
  static bool before(const HeapEntry& a, const HeapEntry& b) {
    return (a.priority < b.priority) | ((a.priority == b.priority) & (a.tie > b.tie));
  }

 private:

  template <class SetPosition>
  [[gnu::always_inline]] void sift_up(std::uint32_t index, SetPosition& set_position) {
    const HeapEntry moving = entries_[index];
    while (index > 0) {
      const std::uint32_t parent = (index - 1) / 2;
      if (!before(moving, entries_[parent])) break;
      entries_[index] = entries_[parent];
      set_position(entries_[index].node, index);
      index = parent;
    }
    entries_[index] = moving;
    set_position(moving.node, index);
  }

  std::vector<HeapEntry> entries_;
};

}  // namespace wayfinder
