#pragma once
// Per-thread, reusable search state over dense node ids. Every node record carries the
// generation (query number) that last wrote it; starting a new query only increments the
// generation, so a reset costs O(1) instead of clearing millions of records. The arrays are
// ZeroedArrays: sizing them for a world of millions of nodes costs microseconds, and only the
// memory pages a search touches are ever committed.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/core/indexed_heap.hpp"
#include "wayfinder/core/types.hpp"
#include "wayfinder/core/zeroed_array.hpp"

namespace wayfinder {

struct NodeRecord {
  enum class State : std::uint32_t { unqueued = 0, open = 1, closed = 2 };

  Cost g;              ///< best known cost from the start
  NodeId parent;       ///< predecessor on the best known path
  std::uint32_t stamp; ///< generation (query number) that last wrote this record, times 4, plus State

  [[nodiscard]] State state() const { return static_cast<State>(stamp & 3u); }
  void set_state(State state) { stamp = (stamp & ~3u) | static_cast<std::uint32_t>(state); }
  /// The first touch in query `generation` makes the record unreached (infinite g, no parent,
  /// unqueued); later touches in the same query leave it as it is.
  WAYFINDER_FORCE_INLINE void renew(std::uint32_t generation) {
    if ((stamp >> 2) != generation) {
      g = infinite_cost;
      parent = invalid_node;
      stamp = generation << 2;  // State::unqueued
    }
  }
};

static_assert(sizeof(NodeRecord) == 16, "keep node records small: they are the search's working set");

class SearchContext {
 public:
  SearchContext() = default;
  explicit SearchContext(std::size_t node_count) { prepare(node_count); }

  /// Starts a new query over `node_count` nodes: grows the arrays if needed and invalidates
  /// every record in O(1). All-zero records (stamp 0) are unreached: generations start at 1.
  void prepare(std::size_t node_count) {
    open_.clear();
    if (generation_ + 1 == max_generation) {
      // Wrapped: old stamps could alias. Fresh zeroed arrays instead of rewriting every stamp,
      // so that the pages no recent search touched are given back.
      const std::size_t size = std::max(records_.size(), node_count);
      records_.reset_zeroed(size);
      heap_positions_.reset_zeroed(size);
      generation_ = 0;
    } else if (records_.size() < node_count) {
      records_.reset_zeroed(node_count);
      heap_positions_.reset_zeroed(node_count);
    }
    ++generation_;
  }

  /// True if prepare(node_count) needs no new memory.
  [[nodiscard]] bool ready_for(std::size_t node_count) const { return records_.size() >= node_count; }

  /// True if `node` has been reached in the current query.
  [[nodiscard]] bool reached(NodeId node) const { return (records_[node].stamp >> 2) == generation_; }

  /// The record of a node reached in the current query.
  [[nodiscard]] const NodeRecord& record(NodeId node) const { return records_[node]; }
  [[nodiscard]] NodeRecord& record(NodeId node) { return records_[node]; }

  /// The record of `node`, initialised to "unreached" if the current query has not touched it.
  NodeRecord& touch(NodeId node) {
    NodeRecord& record = records_[node];
    record.renew(generation_);
    return record;
  }

  [[nodiscard]] Cost g(NodeId node) const { return reached(node) ? records_[node].g : infinite_cost; }

  /// Where an open node sits in the open list. Kept apart from the records: the heap rewrites
  /// it for every entry it moves, and a 4-byte array stays in cache where 24-byte records do not.
  [[nodiscard]] std::uint32_t heap_position(NodeId node) const { return heap_positions_[node]; }
  void set_heap_position(NodeId node, std::uint32_t position) { heap_positions_[node] = position; }

  IndexedHeap& open() { return open_; }
  [[nodiscard]] const IndexedHeap& open() const { return open_; }
  [[nodiscard]] std::size_t capacity() const { return records_.size(); }
  /// Bytes reserved for the node arrays: an upper bound on what they hold, since only the
  /// pages searches have touched are committed.
  [[nodiscard]] std::size_t reserved_bytes() const {
    return records_.reserved_bytes() + heap_positions_.reserved_bytes();
  }
  /// What Budget::max_memory_bytes counts for a dense context: its reserved arrays.
  [[nodiscard]] std::size_t memory_bytes() const { return reserved_bytes(); }
  /// Frees the node arrays (the next query sizes them again).
  void release() {
    records_.release();
    heap_positions_.release();
  }

 private:
  ZeroedArray<NodeRecord> records_;
  ZeroedArray<std::uint32_t> heap_positions_;
  IndexedHeap open_;
  static constexpr std::uint32_t max_generation = 1u << 30;
  std::uint32_t generation_ = 0;
};

}  // namespace wayfinder
