#pragma once
// A record of what a search did, for debug drawing and the viewer. Searches take a pointer to
// a trace; a null pointer selects a build of the loop without any tracing code.

#include <cstdint>
#include <vector>

#include "wayfinder/core/types.hpp"

namespace wayfinder {

enum class TraceEvent : std::uint8_t {
  opened,   ///< first reached and put on the open list
  updated,  ///< reached again with a cheaper cost
  closed,   ///< taken off the open list and expanded
};

struct TraceRecord {
  NodeId node = invalid_node;
  NodeId parent = invalid_node;
  TraceEvent event = TraceEvent::opened;
  Cost g = 0.0;
};

/// The events of a search, in order. A search of a large world makes many millions of events;
/// set_max_events() bounds what is kept (and so the memory), while recorded() still counts all.
class SearchTrace {
 public:
  void record(TraceEvent event, NodeId node, NodeId parent, Cost g) {
    if (events_.size() < max_events_) events_.push_back({node, parent, event, g});
    ++recorded_;
  }
  /// Keeps at most the first `max_events` events of the next searches (no limit by default).
  void set_max_events(std::size_t max_events) { max_events_ = max_events; }
  void clear() {
    events_.clear();
    recorded_ = 0;
  }
  /// The events kept: the first min(recorded(), max_events) events.
  [[nodiscard]] const std::vector<TraceRecord>& events() const { return events_; }
  [[nodiscard]] std::size_t size() const { return events_.size(); }
  /// Every event recorded since the last clear(), kept or not.
  [[nodiscard]] std::size_t recorded() const { return recorded_; }

 private:
  std::vector<TraceRecord> events_;
  std::size_t max_events_ = static_cast<std::size_t>(-1);
  std::size_t recorded_ = 0;
};

}  // namespace wayfinder
