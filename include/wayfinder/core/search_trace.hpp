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

class SearchTrace {
 public:
  void record(TraceEvent event, NodeId node, NodeId parent, Cost g) { events_.push_back({node, parent, event, g}); }
  void clear() { events_.clear(); }
  [[nodiscard]] const std::vector<TraceRecord>& events() const { return events_; }
  [[nodiscard]] std::size_t size() const { return events_.size(); }

 private:
  std::vector<TraceRecord> events_;
};

}  // namespace wayfinder
