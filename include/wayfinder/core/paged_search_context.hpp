#pragma once
// Per-thread, reusable search state for worlds whose node ids span far more nodes than a search
// ever reaches (voxel worlds: a 2048 x 256 x 2048 box has a billion blocks). The records live in
// pages of `page_size` consecutive node ids, allocated the first time a search touches a node
// of the page, so memory follows the region searches have explored, not the size of the world.
// A page keeps the records and heap positions of its nodes side by side; within a page the
// access is as direct as in the dense SearchContext, at the price of one extra pointer load.
//
// Like SearchContext, a new query only increments a generation counter: pages stay allocated
// and are reused by the next query (release_pages() gives the memory back).

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "wayfinder/core/force_inline.hpp"
#include "wayfinder/core/indexed_heap.hpp"
#include "wayfinder/core/search_context.hpp"
#include "wayfinder/core/types.hpp"

namespace wayfinder {

class PagedSearchContext {
  struct Page;

 public:
  /// Node ids per page. 4096 records of 16 bytes plus their heap positions and closed flags:
  /// about 80.5 KiB a page.
  static constexpr int page_bits = 12;
  static constexpr std::size_t page_size = std::size_t{1} << page_bits;

  PagedSearchContext() = default;

  /// Starts a new query over node ids 0..node_count-1: sizes the page table (8 bytes per page
  /// of ids, allocated or not) and invalidates every record in O(1).
  void prepare(std::size_t node_count) {
    const std::size_t pages_needed = (node_count + page_size - 1) >> page_bits;
    if (pages_.size() < pages_needed) pages_.resize(pages_needed);
    open_.clear();
    if (++generation_ == max_generation) {  // wrapped: old stamps could alias, so clear them once
      for (auto& page : pages_)
        if (page) {
          for (auto& record : page->records) record.stamp = 0;
          page->closed_generation = 0;
        }
      generation_ = 1;
    }
  }

  /// True if prepare(node_count) needs no new page table.
  [[nodiscard]] bool ready_for(std::size_t node_count) const {
    return pages_.size() >= ((node_count + page_size - 1) >> page_bits);
  }

  /// True if `node` has been reached in the current query.
  [[nodiscard]] bool reached(NodeId node) const {
    const Page* page = pages_[node >> page_bits].get();
    return page != nullptr && (page->records[node & page_mask].stamp >> 2) == generation_;
  }

  /// The record of a node reached in the current query.
  [[nodiscard]] const NodeRecord& record(NodeId node) const { return pages_[node >> page_bits]->records[node & page_mask]; }
  [[nodiscard]] NodeRecord& record(NodeId node) { return pages_[node >> page_bits]->records[node & page_mask]; }

  /// The record of `node`, initialised to "unreached" if the current query has not touched it;
  /// allocates the node's page on first use.
  WAYFINDER_FORCE_INLINE NodeRecord& touch(NodeId node) {
    std::unique_ptr<Page>& slot = pages_[node >> page_bits];
    if (!slot) [[unlikely]] allocate(slot);
    NodeRecord& record = slot->records[node & page_mask];
    record.renew(generation_);
    return record;
  }

  /// Marks a reached node closed (expanded). Besides its record's state, the page keeps the
  /// closed flags of its nodes in 16-bit words (closed_words), so that a domain that knows how its
  /// neighbours' ids lie can leave out the closed ones in a few word reads.
  void close(NodeId node) {
    Page& page = *pages_[node >> page_bits];
    page.records[node & page_mask].set_state(NodeRecord::State::closed);
    if (page.closed_generation != generation_) {
      page.closed_words.fill(0);
      page.closed_generation = generation_;
    }
    page.closed_words[(node & page_mask) >> 4] |= static_cast<std::uint16_t>(1u << (node & 15u));
  }

  /// The closed flags of the page holding `node`: bit i of word w is node (node & ~(page_size - 1))
  /// + 16 w + i. Null if no node of the page is closed in the current query.
  [[nodiscard]] const std::uint16_t* closed_words(NodeId node) const {
    const Page* page = pages_[node >> page_bits].get();
    return page != nullptr && page->closed_generation == generation_ ? page->closed_words.data() : nullptr;
  }

  /// touch() through a handle that holds the page table and generation in registers while a
  /// search expands one node (valid until the next prepare()).
  class TouchHandle {
   public:
    WAYFINDER_FORCE_INLINE NodeRecord& touch(NodeId node) const {
      std::unique_ptr<Page>& slot = pages_[node >> page_bits];
      if (!slot) [[unlikely]] owner_->allocate(slot);
      NodeRecord& record = slot->records[node & page_mask];
      record.renew(generation_);
      return record;
    }

   private:
    friend class PagedSearchContext;
    TouchHandle(PagedSearchContext* owner, std::unique_ptr<Page>* pages, std::uint32_t generation)
        : owner_(owner), pages_(pages), generation_(generation) {}
    PagedSearchContext* owner_;
    std::unique_ptr<Page>* pages_;
    std::uint32_t generation_;
  };
  [[nodiscard]] TouchHandle touch_handle() { return {this, pages_.data(), generation_}; }

  [[nodiscard]] Cost g(NodeId node) const { return reached(node) ? record(node).g : infinite_cost; }

  [[nodiscard]] std::uint32_t heap_position(NodeId node) const {
    return pages_[node >> page_bits]->heap_positions[node & page_mask];
  }
  void set_heap_position(NodeId node, std::uint32_t position) {
    pages_[node >> page_bits]->heap_positions[node & page_mask] = position;
  }

  IndexedHeap& open() { return open_; }
  [[nodiscard]] const IndexedHeap& open() const { return open_; }

  /// Pages allocated so far (by this and earlier queries).
  [[nodiscard]] std::size_t allocated_pages() const { return allocated_pages_; }
  /// Bytes held by the allocated pages and the page table.
  [[nodiscard]] std::size_t memory_bytes() const {
    return allocated_pages_ * sizeof(Page) + pages_.capacity() * sizeof(std::unique_ptr<Page>);
  }
  /// Frees every page (a long-lived context that once explored a huge region can shrink back).
  void release_pages() {
    for (auto& page : pages_) page.reset();
    allocated_pages_ = 0;
  }

 private:
  static constexpr NodeId page_mask = static_cast<NodeId>(page_size - 1);

  struct Page {
    std::array<NodeRecord, page_size> records;
    std::array<std::uint32_t, page_size> heap_positions;
    std::array<std::uint16_t, page_size / 16> closed_words;  ///< valid when closed_generation is current
    std::uint32_t closed_generation = 0;
  };

  void allocate(std::unique_ptr<Page>& slot) {
    slot = std::make_unique<Page>();
    for (auto& record : slot->records) record = NodeRecord{0, invalid_node, 0};  // stamp 0: never current
    ++allocated_pages_;
  }

  std::vector<std::unique_ptr<Page>> pages_;
  IndexedHeap open_;
  std::size_t allocated_pages_ = 0;
  static constexpr std::uint32_t max_generation = 1u << 30;
  std::uint32_t generation_ = 0;
};

}  // namespace wayfinder
