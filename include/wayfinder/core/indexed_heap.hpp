#pragma once
// A binary min-heap of nodes whose keys can change and which can be removed. Each entry carries
// its own key so that comparisons never leave the heap array; the position of every node in the
// heap is written back through a caller-supplied function, which lets the search keep it beside
// the node's other state (one cache line per node instead of two arrays).

#include <cstdint>
#include <utility>
#include <vector>

#include "wayfinder/core/bit_copy.hpp"
#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/core/types.hpp"

namespace wayfinder {

/// A node and its key; `Key` needs only a strict weak order (operator<).
template <class Key>
struct BasicHeapEntry {
  Key key;
  NodeId node;
};

/// The searches' entries are ordered by one 64-bit key (see heap_key), so that each comparison in
/// the heap is a single integer comparison.
using HeapEntry = BasicHeapEntry<std::uint64_t>;
static_assert(sizeof(HeapEntry) == 16, "four entries per cache line");

/// Bits of a key that hold the tie rank.
inline constexpr int heap_tie_bits = 20;

/// Rounds a non-negative priority to 32 significant bits. Priorities that are equal in exact
/// arithmetic (g + h along different move orders, sums of 1 and sqrt 2) often differ in the last
/// bits of a double, which would make tie-breaking random; rounded, they compare equal and the
/// tie rule decides, as in a textbook A*. The rounding is monotonic, so the order of unequal
/// priorities is kept except that values within a relative 2^-32 become ties.
inline Cost rounded_priority(Cost priority) {
  const auto bits = bit_copy<std::uint64_t>(priority);
  constexpr std::uint64_t low = (std::uint64_t{1} << heap_tie_bits) - 1;
  return bit_copy<Cost>((bits + (std::uint64_t{1} << (heap_tie_bits - 1))) & ~low);
}

/// The key of an entry: the bit pattern of the rounded priority (for non-negative doubles the
/// bit patterns sort like the values), whose low 20 bits are then zero and carry a tie rank:
/// `tie_fraction` in [0, 1], larger first.
inline std::uint64_t heap_key(Cost priority, double tie_fraction) {
  constexpr double ranks = static_cast<double>((std::uint64_t{1} << heap_tie_bits) - 1);
  const double clamped = tie_fraction < 0.0 ? 0.0 : (tie_fraction > 1.0 ? 1.0 : tie_fraction);
  return bit_copy<std::uint64_t>(rounded_priority(priority)) |
         static_cast<std::uint64_t>((1.0 - clamped) * ranks);
}

/// The (rounded) priority of a key.
inline Cost key_priority(std::uint64_t key) {
  return bit_copy<Cost>(key & ~((std::uint64_t{1} << heap_tie_bits) - 1));
}

/// The heap over any key type. `set_position(node, index)`, passed to every operation that
/// moves entries, is called for each entry that moves; positions are indices into the heap, valid
/// until the next operation.
template <class Key>
class BasicIndexedHeap {
 public:
  using Entry = BasicHeapEntry<Key>;

  [[nodiscard]] bool empty() const { return entries_.empty(); }
  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  [[nodiscard]] const Entry& top() const { return entries_.front(); }
  /// The entry at `position` (as last written through set_position).
  [[nodiscard]] const Entry& at(std::uint32_t position) const { return entries_[position]; }
  void clear() { entries_.clear(); }
  void reserve(std::size_t n) { entries_.reserve(n); }

  /// Adds an entry; `set_position(node, index)` is called for every entry that moves.
  template <class SetPosition>
  WAYFINDER_FORCE_INLINE void push(const Entry& entry, SetPosition&& set_position) {
    entries_.push_back(entry);
    sift_up(static_cast<std::uint32_t>(entries_.size() - 1), set_position);
  }

  /// Removes and returns the smallest entry. The hole left at the root is moved down to a leaf
  /// along the smaller children and the last entry sifted up from there (Floyd's bottom-up
  /// variant, Wegener 1993): the last entry nearly always belongs near the bottom, so this
  /// saves about half the comparisons of a top-down sift.
  template <class SetPosition>
  Entry pop(SetPosition&& set_position) {
    const Entry smallest = entries_.front();
    const Entry last = entries_.back();
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

  /// Lowers the key of the entry at `position` (the key must not increase).
  template <class SetPosition>
  void decrease(std::uint32_t position, const Key& key, SetPosition&& set_position) {
    entries_[position].key = key;
    sift_up(position, set_position);
  }

  /// Gives the entry at `position` any new key, lower or higher.
  template <class SetPosition>
  void update(std::uint32_t position, const Key& key, SetPosition&& set_position) {
    const bool lower = key < entries_[position].key;
    entries_[position].key = key;
    if (lower)
      sift_up(position, set_position);
    else
      sift_down(position, set_position);
  }

  /// Removes the entry at `position`; the caller marks its node as no longer queued (the removed
  /// node's position is not written).
  template <class SetPosition>
  void remove(std::uint32_t position, SetPosition&& set_position) {
    const Entry last = entries_.back();
    entries_.pop_back();
    if (position == entries_.size()) return;  // it was the last entry
    const bool lower = last.key < entries_[position].key;
    entries_[position] = last;
    if (lower)
      sift_up(position, set_position);
    else
      sift_down(position, set_position);
  }

  /// The heap's order: smaller key first.
  static bool before(const Entry& a, const Entry& b) { return a.key < b.key; }

 private:

  template <class SetPosition>
  void sift_down(std::uint32_t index, SetPosition& set_position) {
    const Entry moving = entries_[index];
    const auto count = static_cast<std::uint32_t>(entries_.size());
    while (true) {
      std::uint32_t child = 2 * index + 1;
      if (child >= count) break;
      if (child + 1 < count && before(entries_[child + 1], entries_[child])) ++child;
      if (!before(entries_[child], moving)) break;
      entries_[index] = entries_[child];
      set_position(entries_[index].node, index);
      index = child;
    }
    entries_[index] = moving;
    set_position(moving.node, index);
  }

  template <class SetPosition>
  WAYFINDER_FORCE_INLINE void sift_up(std::uint32_t index, SetPosition& set_position) {
    const Entry moving = entries_[index];
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

  std::vector<Entry> entries_;
};

/// The open list of the engine and the searches built like it.
using IndexedHeap = BasicIndexedHeap<std::uint64_t>;

}  // namespace wayfinder
