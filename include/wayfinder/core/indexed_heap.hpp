#pragma once
// A binary min-heap of nodes with decrease-key. Each entry carries its own keys so that
// comparisons never leave the heap array; the position of every node in the heap is written
// back through a caller-supplied function, which lets the search keep it beside the node's
// other state (one cache line per node instead of two arrays).

#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/core/types.hpp"

namespace wayfinder {

/// Entries are ordered by one 64-bit key (see heap_key), so that each comparison in the heap is
/// a single integer comparison.
struct HeapEntry {
  std::uint64_t key;
  NodeId node;
};
static_assert(sizeof(HeapEntry) == 16, "four entries per cache line");

/// Bits of a key that hold the tie rank.
inline constexpr int heap_tie_bits = 20;

/// Rounds a non-negative priority to 32 significant bits. Priorities that are equal in exact
/// arithmetic (g + h along different move orders, sums of 1 and sqrt 2) often differ in the last
/// bits of a double, which would make tie-breaking random; rounded, they compare equal and the
/// tie rule decides, as in a textbook A*. The rounding is monotonic, so the order of unequal
/// priorities is kept except that values within a relative 2^-32 become ties.
inline Cost rounded_priority(Cost priority) {
  const auto bits = std::bit_cast<std::uint64_t>(priority);
  constexpr std::uint64_t low = (std::uint64_t{1} << heap_tie_bits) - 1;
  return std::bit_cast<Cost>((bits + (std::uint64_t{1} << (heap_tie_bits - 1))) & ~low);
}

/// The key of an entry: the bit pattern of the rounded priority (for non-negative doubles the
/// bit patterns sort like the values), whose low 20 bits are then zero and carry a tie rank:
/// `tie_fraction` in [0, 1], larger first.
inline std::uint64_t heap_key(Cost priority, double tie_fraction) {
  constexpr double ranks = static_cast<double>((std::uint64_t{1} << heap_tie_bits) - 1);
  const double clamped = tie_fraction < 0.0 ? 0.0 : (tie_fraction > 1.0 ? 1.0 : tie_fraction);
  return std::bit_cast<std::uint64_t>(rounded_priority(priority)) |
         static_cast<std::uint64_t>((1.0 - clamped) * ranks);
}

/// The (rounded) priority of a key.
inline Cost key_priority(std::uint64_t key) {
  return std::bit_cast<Cost>(key & ~((std::uint64_t{1} << heap_tie_bits) - 1));
}

class IndexedHeap {
 public:
  [[nodiscard]] bool empty() const { return entries_.empty(); }
  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  [[nodiscard]] const HeapEntry& top() const { return entries_.front(); }
  void clear() { entries_.clear(); }
  void reserve(std::size_t n) { entries_.reserve(n); }

  /// Adds an entry; `set_position(node, index)` is called for every entry that moves.
  template <class SetPosition>
  WAYFINDER_FORCE_INLINE void push(const HeapEntry& entry, SetPosition&& set_position) {
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
  void decrease(std::uint32_t position, std::uint64_t key, SetPosition&& set_position) {
    entries_[position].key = key;
    sift_up(position, set_position);
  }

  /// The heap's order: smaller key first.
  static bool before(const HeapEntry& a, const HeapEntry& b) { return a.key < b.key; }

 private:

  template <class SetPosition>
  WAYFINDER_FORCE_INLINE void sift_up(std::uint32_t index, SetPosition& set_position) {
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
