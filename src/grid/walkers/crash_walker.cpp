#include "wayfinder/grid/walkers/crash_walker.hpp"

#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "grid/walkers/grid_walker_lines.hpp"
#include "grid/walkers/walker_step_clock.hpp"

namespace wayfinder {

using walker_detail::direction_of;
using walker_detail::move_dx;
using walker_detail::move_dy;
using walker_detail::npos;
using walker_detail::octile_distance;
using walker_detail::may_move;

namespace {

std::string cell_text(Cell c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }

WallHand other_hand(WallHand hand) { return hand == WallHand::left ? WallHand::right : WallHand::left; }

/// The step limit for a walk on `map`: `asked`, or default_walker_moves_per_cell x its cells.
std::uint64_t resolved_step_limit(const GridMap& map, std::uint64_t asked) {
  if (asked != 0) return asked;
  const std::uint64_t cells = map.cell_count();
  const std::uint64_t most = std::numeric_limits<std::uint64_t>::max() / default_walker_moves_per_cell;
  return cells > most ? std::numeric_limits<std::uint64_t>::max() : cells * default_walker_moves_per_cell;
}

}  // namespace

// ---- CrashWalker ----------------------------------------------------------------------------

SearchStatus CrashWalker::start(NodeId start, NodeId goal, WallHand hand, const SearchOptions& options,
                                std::uint64_t step_limit) {
  options_ = options;
  step_limit_ = resolved_step_limit(map_, step_limit);
  goal_ = goal;
  hand_ = hand == WallHand::automatic ? WallHand::right : hand;
  hand_chosen_ = hand != WallHand::automatic;
  hand_switched_ = false;
  mode_ = Mode::on_line;
  line_at_ = 0;
  hit_index_ = 0;
  wall_ = 0;
  walk_.clear();
  walked_cost_ = 0.0;
  closest_ = 0;
  closest_distance_ = 0.0;
  stats_ = {};
  report_.begin();
  line_.clear();
  if (start >= map_.cell_count() || goal >= map_.cell_count())
    return report_.finish(RunOutcome::invalid_input(), "start or goal cell id out of range");
  if (std::optional<std::string> problem = budget_problem(options.budget))
    return report_.finish(RunOutcome::invalid_input(), std::move(*problem));
  const Cell from = map_.cell_of(start);
  const Cell to = map_.cell_of(goal);
  walker_detail::straight_line(from, to, diagonal_, line_);
  walk_.push_back(start);
  closest_distance_ = octile_distance(from, to);
  if (options_.trace != nullptr) options_.trace->record(TraceEvent::opened, start, invalid_node, 0.0);
  if (start == goal) report_.finish(RunOutcome::goal_reached());
  return report_.status();
}

bool CrashWalker::move_allowed(Cell from, int direction) const {
  return walker_detail::move_allowed(map_, diagonal_, from, direction);
}

int CrashWalker::follow_move(Cell at, int wall, WallHand hand, int& next_wall) const {
  // Sweep round the walker from the wall towards the free side: for the right hand that is
  // anticlockwise (decreasing direction numbers), so the first allowed move is the one that
  // keeps closest to the wall. This is Moore-neighbour tracing of the free cells along the
  // obstacle; the wall as seen from the new cell is the last cell the sweep passed over, which
  // is always next to it (two neighbouring directions of a cell are one move apart).
  const int turn = hand == WallHand::right ? -1 : 1;
  for (int k = 0; k < 8; ++k) {
    const int direction = ((wall + turn * k) % 8 + 8) % 8;
    if (!move_allowed(at, direction)) continue;
    if (k == 0) {
      // The wall cell itself was free (a diagonal the rule had refused): the wall ended, so the
      // walker turns round its corner and looks for it a quarter turn to the hand's side.
      next_wall = ((direction - 2 * turn) % 8 + 8) % 8;
    } else {
      const int passed = ((direction - turn) % 8 + 8) % 8;
      next_wall = direction_of(move_dx[passed] - move_dx[direction], move_dy[passed] - move_dy[direction]);
    }
    return direction;
  }
  return -1;
}

bool CrashWalker::may_leave_at(std::size_t index) const {
  if (index + 1 >= line_.size()) return true;
  return walker_detail::step_allowed(map_, diagonal_, line_[index], line_[index + 1]);
}

std::size_t CrashWalker::line_index_of(Cell cell) const {
  return walker_detail::index_on_line(line_, diagonal_, cell);
}

WallHand CrashWalker::choose_hand(Cell at, int wall) {
  // Follow the wall both ways in thought, for as many moves as it takes to cross the map, and
  // take the hand that first meets the m-line closer to the goal (where Bug2 would leave); if
  // neither does, the hand that came closer to the goal. Ties go to the right hand.
  const Cell goal = map_.cell_of(goal_);
  const std::uint64_t lookahead = static_cast<std::uint64_t>(map_.width()) + static_cast<std::uint64_t>(map_.height());
  std::uint64_t moves_to_leave[2] = {npos, npos};
  double closest[2] = {octile_distance(at, goal), octile_distance(at, goal)};
  for (int side = 0; side < 2; ++side) {
    const WallHand hand = side == 0 ? WallHand::right : WallHand::left;
    Cell c = at;
    int w = wall;
    for (std::uint64_t m = 1; m <= lookahead; ++m) {
      int next_wall = 0;
      const int direction = follow_move(c, w, hand, next_wall);
      if (direction < 0) break;
      ++stats_.generated;
      c = {c.x + move_dx[direction], c.y + move_dy[direction]};
      w = next_wall;
      closest[side] = std::min(closest[side], octile_distance(c, goal));
      const std::size_t index = line_index_of(c);
      if (c == goal || (index != npos && index > hit_index_ && may_leave_at(index))) {
        moves_to_leave[side] = m;
        break;
      }
    }
  }
  if (moves_to_leave[0] != moves_to_leave[1]) return moves_to_leave[1] < moves_to_leave[0] ? WallHand::left : WallHand::right;
  return closest[1] < closest[0] ? WallHand::left : WallHand::right;
}

void CrashWalker::begin_following(Cell at, int wall) {
  mode_ = Mode::following_wall;
  wall_ = wall;
  hand_switched_ = false;
  saved_ = {map_.id_of(at), wall};
  power_ = 1;
  lambda_ = 0;
}

void CrashWalker::make_move(NodeId to, bool diagonal) {
  const NodeId from = walk_.back();
  walked_cost_ += grid_move_cost(map_, from, to, diagonal);
  walk_.push_back(to);
  ++stats_.expanded;
  ++stats_.generated;
  if (options_.trace != nullptr) options_.trace->record(TraceEvent::closed, to, from, walked_cost_);
  const double distance = octile_distance(map_.cell_of(to), map_.cell_of(goal_));
  if (distance < closest_distance_) {
    closest_distance_ = distance;
    closest_ = walk_.size() - 1;
  }
  if (to == goal_) report_.finish(RunOutcome::goal_reached());
}

SearchStatus CrashWalker::step(const StepBudget& step_budget) {
  if (!report_.running()) return report_.status();
  const SearchClock clock(options_.budget, step_budget, stats_.microseconds);
  const Cell goal = map_.cell_of(goal_);
  std::uint64_t done = 0;
  while (report_.running()) {
    if (!may_move(clock, done, stats_.expanded, options_, report_, "moves")) break;
    if (stats_.expanded >= step_limit_) {
      report_.finish({SearchStatus::budget_exhausted, StopReason::expansion_limit},
             "step limit reached: " + std::to_string(step_limit_) + " moves without reaching the goal");
      break;
    }
    const Cell at = map_.cell_of(walk_.back());
    if (mode_ == Mode::on_line) {
      const Cell next = line_[line_at_ + 1];
      const int direction = direction_of(next.x - at.x, next.y - at.y);
      if (move_allowed(at, direction)) {
        ++line_at_;
        make_move(map_.id_of(next), next.x != at.x && next.y != at.y);
        ++done;
      } else {
        // Hit an obstacle: the blocked cell (or refused diagonal) ahead is the wall.
        hit_index_ = line_at_;
        if (!hand_chosen_) {
          hand_ = choose_hand(at, direction);
          hand_chosen_ = true;
        }
        begin_following(at, direction);
      }
    } else {
      int next_wall = 0;
      const int direction = follow_move(at, wall_, hand_, next_wall);
      if (direction < 0) {
        report_.finish({SearchStatus::no_path, StopReason::gave_up},
                       "the walker is boxed in at " + cell_text(at) + ": no move from there is allowed");
        break;
      }
      const Cell next{at.x + move_dx[direction], at.y + move_dy[direction]};
      wall_ = next_wall;
      make_move(map_.id_of(next), move_dx[direction] != 0 && move_dy[direction] != 0);
      ++done;
      if (!report_.running()) break;
      const std::size_t index = line_index_of(next);
      if (index != npos && index > hit_index_ && may_leave_at(index)) {
        // Back on the m-line, closer to the goal than the hit and free ahead: leave the wall.
        mode_ = Mode::on_line;
        line_at_ = index;
        continue;
      }
      const FollowState now{map_.id_of(next), wall_};
      if (now == saved_) {
        if (hand_switched_) {
          report_.finish({SearchStatus::no_path, StopReason::gave_up},
                         "the walker looped: it went round the obstacle it hit at " + cell_text(line_[hit_index_]) +
                     " with both hands without meeting the straight line to " + cell_text(goal) +
                     " any closer; the goal is unreachable or hidden from this rule");
          break;
        }
        // A loop: try the other hand from here, once per obstacle.
        hand_ = other_hand(hand_);
        hand_switched_ = true;
        saved_ = now;
        power_ = 1;
        lambda_ = 0;
      } else if (++lambda_ == power_) {
        saved_ = now;
        power_ *= 2;
        lambda_ = 0;
      }
    }
  }
  stats_.microseconds = clock.microseconds();
  return report_.status();
}

void CrashWalker::result(PathResult& out) const {
  report_.write(out, stats_);
  std::size_t count = 0;
  if (report_.status() == SearchStatus::found) count = walk_.size();
  if (report_.status() == SearchStatus::partial) count = closest_ + 1;
  out.nodes.assign(walk_.begin(), walk_.begin() + static_cast<std::ptrdiff_t>(count));
  out.cost = report_.status() == SearchStatus::found ? walked_cost_ : walker_detail::walk_cost(map_, walk_, count);
}

// ---- FourWayCrashWalker ---------------------------------------------------------------------

namespace {
constexpr const char* four_way_names[4] = {"right hand from the start", "left hand from the start",
                                           "right hand from the goal", "left hand from the goal"};
}  // namespace

SearchStatus FourWayCrashWalker::start(NodeId start, NodeId goal, const SearchOptions& options,
                                       std::uint64_t step_limit) {
  options_ = options;
  moves_ = 0;
  turn_ = 0;
  winner_ = -1;
  report_.begin();
  microseconds_ = 0.0;
  // The four walkers know only their step limit; the budget is the race's, over all moves.
  SearchOptions each = options;
  each.budget = Budget{};
  each.return_partial = false;
  walkers_[0].start(start, goal, WallHand::right, each, step_limit);
  walkers_[1].start(start, goal, WallHand::left, each, step_limit);
  walkers_[2].start(goal, start, WallHand::right, each, step_limit);
  walkers_[3].start(goal, start, WallHand::left, each, step_limit);
  if (walkers_[0].status() == SearchStatus::invalid_input) {
    PathResult why;
    walkers_[0].result(why);
    report_.finish(RunOutcome::invalid_input(), std::move(why.message));
  } else if (walkers_[0].status() == SearchStatus::found) {
    winner_ = 0;
    report_.finish(RunOutcome::goal_reached());
  }
  return report_.status();
}

SearchStatus FourWayCrashWalker::step(const StepBudget& step_budget) {
  if (!report_.running()) return report_.status();
  const SearchClock clock(options_.budget, step_budget, microseconds_);
  std::uint64_t done = 0;
  while (report_.running()) {
    if (!may_move(clock, done, moves_, options_, report_, "moves of the four walkers")) break;
    // The next walker still under way, in turn.
    int walker = -1;
    for (int k = 0; k < 4 && walker < 0; ++k) {
      const int candidate = (turn_ + k) % 4;
      if (walkers_[candidate].status() == SearchStatus::in_progress) walker = candidate;
    }
    if (walker < 0) {
      finish_when_all_failed();
      break;
    }
    turn_ = (walker + 1) % 4;
    const std::uint64_t before = walkers_[walker].stats().expanded;
    walkers_[walker].step(StepBudget::expansions(1));
    const std::uint64_t moved = walkers_[walker].stats().expanded - before;
    moves_ += moved;
    done += moved;
    if (walkers_[walker].status() == SearchStatus::found) {
      winner_ = walker;
      report_.finish(RunOutcome::goal_reached());
    }
  }
  microseconds_ = clock.microseconds();
  return report_.status();
}

void FourWayCrashWalker::finish_when_all_failed() {
  bool all_no_path = true;
  std::string message = "all four walkers failed:";
  for (int k = 0; k < 4; ++k) {
    PathResult why;
    walkers_[k].result(why);
    if (why.status != SearchStatus::no_path) all_no_path = false;
    message += std::string(k == 0 ? " " : "; ") + four_way_names[k] + ": " + why.message;
  }
  report_.finish(all_no_path ? RunOutcome{SearchStatus::no_path, StopReason::gave_up}
                             : RunOutcome{SearchStatus::budget_exhausted, StopReason::expansion_limit},
                 std::move(message));
}

SearchStats FourWayCrashWalker::stats() const {
  SearchStats total;
  for (const CrashWalker& walker : walkers_) {
    total.expanded += walker.stats().expanded;
    total.generated += walker.stats().generated;
  }
  total.microseconds = microseconds_;
  return total;
}

void FourWayCrashWalker::result(PathResult& out) const {
  report_.write(out, stats());
  if (report_.status() == SearchStatus::found && winner_ >= 0) {
    const std::vector<NodeId>& walk = walkers_[winner_].walked();
    if (winner_ < 2)
      out.nodes.assign(walk.begin(), walk.end());
    else
      out.nodes.assign(walk.rbegin(), walk.rend());  // a walk from the goal, turned round
  } else if (report_.status() == SearchStatus::partial) {
    // The walk from the start that came closest to the goal, up to that cell.
    const CrashWalker& best =
        walkers_[1].closest_distance() < walkers_[0].closest_distance() ? walkers_[1] : walkers_[0];
    out.nodes.assign(best.walked().begin(), best.walked().begin() + static_cast<std::ptrdiff_t>(best.closest_index() + 1));
  }
  // Move costs are the same both ways (grid_rules.hpp), so a reversed walk costs what it cost.
  out.cost = walker_detail::walk_cost(map_, out.nodes, out.nodes.size());
}

}  // namespace wayfinder
