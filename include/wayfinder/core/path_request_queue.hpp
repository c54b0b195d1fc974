#pragma once
// A frame-budgeted queue of path requests, for any world (the job of Detour's dtPathQueue):
// agents submit requests and get a ticket, the game calls update() once a frame with a budget,
// agents poll their ticket and take the result, or cancel it. The policy (start order, turns,
// how far a frame can overrun its budget) is in docs/threads.md.
//
// A queue is used by one thread (the game's); the world is shared read-only as everywhere. The
// results equal find_path's for the same requests.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "wayfinder/core/budget.hpp"
#include "wayfinder/core/path_query.hpp"
#include "wayfinder/core/path_result.hpp"

namespace wayfinder {

/// Names one request in a PathRequestQueue. The default ticket (id 0) is never issued.
struct PathTicket {
  std::uint64_t id = 0;
  explicit operator bool() const { return id != 0; }
  friend bool operator==(PathTicket, PathTicket) = default;
};

enum class TicketState : std::uint8_t {
  unknown,    ///< never issued by this queue, cancelled, or its result already taken
  waiting,    ///< submitted, not started yet
  searching,  ///< started; advanced by update()
  finished,   ///< the result is ready for take_result()
};

/// What one update() did.
struct QueueUpdate {
  std::uint64_t expansions = 0;  ///< expansions of all searches this frame
  std::size_t started = 0;       ///< searches begun this frame
  std::size_t finished = 0;      ///< searches that ended this frame
  double microseconds = 0.0;     ///< wall time of the update
};

struct PathRequestQueueSettings {
  /// Searches advanced in turns at once (each holds one query object).
  std::size_t max_active = 4;
  /// The most expansions one search gets in one turn.
  std::uint64_t slice_expansions = 256;
};

template <class World>
  requires PathQuery<QueryFor<World>, World, RequestFor<World>>
class PathRequestQueue {
 public:
  using Query = QueryFor<World>;
  using Request = RequestFor<World>;

  /// Query objects made with `make_query()`, one per slot on its first use (a configured query,
  /// e.g. one given the world's shared derived data). Throws std::invalid_argument if
  /// max_active or slice_expansions is 0.
  template <class Factory>
    requires QueryFactory<Factory, Request> && std::same_as<FactoryQuery<Factory>, Query>
  explicit PathRequestQueue(Factory make_query, PathRequestQueueSettings settings = {})
      : make_query_([make = std::move(make_query)] { return std::unique_ptr<Query>(new Query(make())); }),
        settings_(settings) {
    if (settings.max_active == 0) throw std::invalid_argument("PathRequestQueue: max_active must be at least 1");
    if (settings.slice_expansions == 0)
      throw std::invalid_argument("PathRequestQueue: slice_expansions must be at least 1");
    slots_.resize(settings.max_active);
  }
  /// The world's default query objects (default_query_factory). Lifetime: the queue keeps a
  /// reference to `world`, which must outlive it.
  explicit PathRequestQueue(const World& world, PathRequestQueueSettings settings = {})
      : PathRequestQueue(default_query_factory(world), settings) {}
  explicit PathRequestQueue(const World&& world, PathRequestQueueSettings settings = {}) = delete;

  /// Queues a request; it starts in a later update().
  PathTicket submit(const Request& request) {
    const PathTicket ticket{++last_ticket_};
    entries_.emplace(ticket.id, Entry{request, TicketState::waiting, {}});
    waiting_.push_back(ticket.id);
    return ticket;
  }

  /// Advances the searches until the budget (expansions, time or both) is spent or no search is
  /// left. An unlimited budget runs every queued search to its end.
  QueueUpdate update(const StepBudget& budget) {
    const auto began = std::chrono::steady_clock::now();
    QueueUpdate report;
    std::uint64_t expansions_left = budget.max_expansions;
    auto time_left = [&]() -> std::chrono::nanoseconds {
      if (!budget.timed()) return std::chrono::nanoseconds{0};
      return budget.max_time - std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - began);
    };
    auto budget_left = [&] { return expansions_left > 0 && (!budget.timed() || time_left().count() > 0); };

    std::size_t idle_turns = 0;  // consecutive slots with nothing to do: all idle ends the frame
    while (budget_left() && idle_turns < slots_.size()) {
      Slot& slot = slots_[next_slot_];
      next_slot_ = (next_slot_ + 1) % slots_.size();
      if (slot.ticket == 0 && !start_next(slot, report)) {
        ++idle_turns;
        continue;
      }
      if (slot.ticket == 0) {  // started and finished at once (invalid input, a trivial query)
        idle_turns = 0;
        continue;
      }
      idle_turns = 0;
      StepBudget turn;
      turn.max_expansions = std::min(settings_.slice_expansions, expansions_left);
      if (budget.timed()) {
        turn.max_time = time_left();
        if (turn.max_time.count() <= 0) break;  // spent while starting the search
      }
      const std::uint64_t before = slot.query->stats().expanded;
      const SearchStatus status = slot.query->step(turn);
      const std::uint64_t done = slot.query->stats().expanded - before;
      report.expansions += done;
      expansions_left -= std::min(done, expansions_left);
      if (status != SearchStatus::in_progress) finish(slot, report);
    }
    report.microseconds = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count();
    return report;
  }

  [[nodiscard]] TicketState state(PathTicket ticket) const {
    const auto found = entries_.find(ticket.id);
    return found == entries_.end() ? TicketState::unknown : found->second.state;
  }

  /// Moves a finished request's result into `out` and forgets the ticket. False (and `out`
  /// untouched) if the ticket is not finished.
  bool take_result(PathTicket ticket, PathResult& out) {
    const auto found = entries_.find(ticket.id);
    if (found == entries_.end() || found->second.state != TicketState::finished) return false;
    out = std::move(found->second.result);
    entries_.erase(found);
    return true;
  }

  /// Drops a request wherever it is (waiting, searching or finished). False if the ticket is
  /// unknown.
  bool cancel(PathTicket ticket) {
    const auto found = entries_.find(ticket.id);
    if (found == entries_.end()) return false;
    if (found->second.state == TicketState::searching)
      for (Slot& slot : slots_)
        if (slot.ticket == ticket.id) slot.ticket = 0;
    // A waiting ticket stays in waiting_ and is skipped when its turn comes.
    entries_.erase(found);
    return true;
  }

  [[nodiscard]] std::size_t waiting_count() const { return count(TicketState::waiting); }
  [[nodiscard]] std::size_t searching_count() const { return count(TicketState::searching); }
  [[nodiscard]] std::size_t finished_count() const { return count(TicketState::finished); }
  /// True when no request is waiting or being searched.
  [[nodiscard]] bool idle() const {
    for (const Slot& slot : slots_)
      if (slot.ticket != 0) return false;
    for (const std::uint64_t id : waiting_)
      if (entries_.contains(id)) return false;
    return true;
  }

  [[nodiscard]] const PathRequestQueueSettings& settings() const { return settings_; }

 private:
  struct Entry {
    Request request;
    TicketState state;
    PathResult result;
  };
  struct Slot {
    std::unique_ptr<Query> query;  // made on first use
    std::uint64_t ticket = 0;      // 0: free
  };

  // Begins the oldest waiting request on `slot`. False if none is waiting.
  bool start_next(Slot& slot, QueueUpdate& report) {
    while (!waiting_.empty()) {
      const std::uint64_t id = waiting_.front();
      waiting_.pop_front();
      const auto found = entries_.find(id);
      if (found == entries_.end()) continue;  // cancelled while waiting
      if (!slot.query) slot.query = make_query_();
      found->second.state = TicketState::searching;
      slot.ticket = id;
      ++report.started;
      if (slot.query->begin(found->second.request) != SearchStatus::in_progress) finish(slot, report);
      return true;
    }
    return false;
  }

  void finish(Slot& slot, QueueUpdate& report) {
    Entry& entry = entries_.at(slot.ticket);
    slot.query->result(entry.result);
    entry.state = TicketState::finished;
    slot.ticket = 0;
    ++report.finished;
  }

  [[nodiscard]] std::size_t count(TicketState state) const {
    std::size_t n = 0;
    for (const auto& [id, entry] : entries_) n += entry.state == state ? 1 : 0;
    return n;
  }

  std::function<std::unique_ptr<Query>()> make_query_;
  PathRequestQueueSettings settings_;
  std::vector<Slot> slots_;
  std::deque<std::uint64_t> waiting_;
  std::unordered_map<std::uint64_t, Entry> entries_;
  std::size_t next_slot_ = 0;
  std::uint64_t last_ticket_ = 0;
};

}  // namespace wayfinder
