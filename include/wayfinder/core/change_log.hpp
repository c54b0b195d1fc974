#pragma once
// A world's revision counter and the log of what its edits changed, for every kind of world
// (grid cells, voxel blocks). An edit that changes anything increments the revision once; each
// position it changed is logged with that revision. Planners ask for the changes since the
// revision they planned at and update only what changed (D* Lite and friends); query objects
// compare revisions to notice a world edited under a stepped search.
//
// The log keeps the latest `limit` changes and drops older ones in halves, so its memory stays
// bounded however long a game runs; since() says when it no longer reaches back far enough.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace wayfinder {

/// What a change log needs of its entries: a `revision` member, the world's revision once the
/// edit was made (set by ChangeLog::record). Each world adds where the change was and what was
/// there before (GridCellChange, VoxelBlockChange).
template <class Change>
concept LoggedChange = requires(Change change) { change.revision = std::uint64_t{}; };

template <LoggedChange ChangeType>
class ChangeLog {
 public:
  using Change = ChangeType;
  static constexpr std::size_t limit = std::size_t{1} << 16;

  [[nodiscard]] std::uint64_t revision() const { return revision_; }

  /// Logs a change made by the edit under way (the one that will be revision() + 1).
  void record(Change change) {
    if (changes_.size() >= limit) {
      const std::size_t dropped = changes_.size() / 2;
      floor_ = changes_[dropped - 1].revision;
      changes_.erase(changes_.begin(), changes_.begin() + static_cast<std::ptrdiff_t>(dropped));
    }
    change.revision = revision_ + 1;
    changes_.push_back(change);
  }
  /// Ends an edit that changed something.
  void commit() { ++revision_; }

  /// The changes made after `revision`, oldest first, or nullopt when the log does not reach
  /// back that far (or the revision is not one the world had). Valid until the next edit.
  [[nodiscard]] std::optional<std::span<const Change>> since(std::uint64_t revision) const {
    if (revision < floor_ || revision > revision_) return std::nullopt;
    const auto first = std::upper_bound(changes_.begin(), changes_.end(), revision,
                                        [](std::uint64_t r, const Change& change) { return r < change.revision; });
    // (pointer, count) rather than an iterator pair, which emscripten 3.1.6's libc++ lacks.
    return std::span<const Change>(changes_.data() + (first - changes_.begin()),
                                   static_cast<std::size_t>(changes_.end() - first));
  }

  /// Empties the log and restarts the revision at 0.
  void clear() {
    changes_.clear();
    changes_.shrink_to_fit();
    revision_ = 0;
    floor_ = 0;
  }

 private:
  std::vector<Change> changes_;
  std::uint64_t revision_ = 0;
  std::uint64_t floor_ = 0;  ///< since(r) is complete for every r >= floor_
};

}  // namespace wayfinder
