#include "goal_box_build.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

namespace wayfinder {

namespace {

// One thread's searches, one per source cell, each in two passes (docs/grid.md, "Goal bounding").
//
// 1. The costs, by canonical Dijkstra (Sturtevant & Rabin 2016, "Canonical Orderings on Grids",
//    IJCAI; Rabin & Sturtevant 2016, "Combining Bounding Boxes and JPS to Prune Grid
//    Pathfinding", AAAI). Only jump points enter the open list: the source and the cells where
//    a straight ray has a forced neighbour (straight_ray_stops), where an optimal path may turn;
//    a jump point sends a ray in each of its moves. A straight ray walks straight on; a diagonal
//    ray walks diagonally and sends the two straight rays of its components from each cell it
//    passes (without corner cutting a diagonal move has no forced neighbour). A ray stops where
//    it cannot move on, at a cell it does not improve and at a jump point, which it puts on the
//    open list. A cell's cost is a + b*sqrt2 (a straight steps, b diagonal ones): two costs are
//    equal exactly when their (a, b) are, and the open list orders by the value, whose rounding
//    error (below 1e-9 for any path on a 2^15 side map) is far below the smallest difference
//    between two distinct costs (above 1e-6).
// 2. The first moves, from the graph of optimal predecessors: a cell's set of optimal first
//    moves is the union of those of its neighbours whose cost plus the step equals its own (for
//    the source's neighbours, the step's direction), found depth-first. This is the set a plain
//    Dijkstra search gives (ties included), so the boxes do not depend on the costs' pass. That
//    pass also checks that no step improves a cost (Bellman's condition) and that no passable
//    neighbour of a reached cell was left unreached; if one does, a plain Dijkstra search from
//    the cells so improved makes the costs exact before the moves are taken again. On
//    ht_chantry the canonical pass left nothing to mend in any of its 7,461 searches; the check
//    costs one comparison per step and keeps the boxes exact whatever the pass's stopping rules
//    might leave out.
class FirstMoveSearch {
 public:
  // `moves_out`: per cell of the padded grid, the bit (1 << d) of each direction d a move leaves
  // it in (0 for blocked cells). `stops`: per cell, the straight directions in which a ray
  // arriving there stops (straight_ray_stops).
  FirstMoveSearch(const std::vector<std::uint8_t>& moves_out, const std::vector<std::uint8_t>& stops,
                  int padded_width)
      : moves_out_(moves_out), stops_(stops), steps_(moves_out.size()), cost_(moves_out.size()), moves_(moves_out.size()),
        reached_stamp_(moves_out.size(), 0), labelled_stamp_(moves_out.size(), 0) {
    for (int d = 0; d < jump_direction_count; ++d)
      offset_[d] = jump_direction_dy[d] * padded_width + jump_direction_dx[d];
  }

  // Labels every cell reached from `source` (a padded index) with its set of optimal first
  // moves and widens `boxes` (the source's 8) to hold it; `padded_width` places the cells.
  void run(std::size_t source, int padded_width, GoalBox* boxes) {
    ++reach_generation_;
    reached_.clear();
    heap_.clear();
    improve(source, 0);
    push(source);
    expand_jump_points();
    while (!label_first_moves(source)) make_costs_exact();
    widen_boxes(padded_width, boxes);
  }

 private:
  struct Entry {
    double cost;
    std::size_t cell;
    bool operator<(const Entry& other) const { return cost > other.cost; }  // a min-heap
  };
  // Row by row over the padded grid, so that each cell's coordinates come from the loops: per
  // direction, the columns of the cells whose label holds it, and the first and last rows that
  // have one.
  void widen_boxes(int padded_width, GoalBox* boxes) const {
    const int width = padded_width - 2;
    const int height = static_cast<int>(moves_out_.size() / static_cast<std::size_t>(padded_width)) - 2;
    int min_x[jump_direction_count];
    int max_x[jump_direction_count];
    int min_y[jump_direction_count];
    int max_y[jump_direction_count];
    std::fill(std::begin(min_x), std::end(min_x), width);
    std::fill(std::begin(max_x), std::end(max_x), -1);
    std::fill(std::begin(min_y), std::end(min_y), height);
    std::fill(std::begin(max_y), std::end(max_y), -1);
    for (int y = 0; y < height; ++y) {
      const std::size_t row = static_cast<std::size_t>(y + 1) * static_cast<std::size_t>(padded_width) + 1;
      unsigned in_row = 0;
      for (int x = 0; x < width; ++x) {
        const std::size_t cell = row + static_cast<std::size_t>(x);
        if (reached_stamp_[cell] != reach_generation_) continue;
        const unsigned label = moves_[cell];
        in_row |= label;
        for (unsigned bits = label; bits != 0; bits &= bits - 1) {
          const int d = std::countr_zero(bits);
          min_x[d] = std::min(min_x[d], x);
          max_x[d] = std::max(max_x[d], x);
        }
      }
      for (unsigned bits = in_row; bits != 0; bits &= bits - 1) {
        const int d = std::countr_zero(bits);
        min_y[d] = std::min(min_y[d], y);
        max_y[d] = y;
      }
    }
    for (int d = 0; d < jump_direction_count; ++d) {
      if (max_x[d] < 0) continue;
      const GoalBox found{static_cast<std::int16_t>(min_x[d]), static_cast<std::int16_t>(min_y[d]),
                          static_cast<std::int16_t>(max_x[d]), static_cast<std::int16_t>(max_y[d])};
      GoalBox& box = boxes[d];
      box = box.empty() ? found
                        : GoalBox{std::min(box.min_x, found.min_x), std::min(box.min_y, found.min_y),
                                  std::max(box.max_x, found.max_x), std::max(box.max_y, found.max_y)};
    }
  }
  // A cost as its steps, the straight ones in the high half of the word and the diagonal ones
  // in the low half: two costs are equal exactly when their words are.
  using Steps = std::uint64_t;
  static constexpr Steps straight_step = Steps{1} << 32;
  static constexpr Steps diagonal_step = 1;
  static constexpr double sqrt2 = 1.4142135623730950488;
  static double value(Steps steps) {
    return static_cast<double>(steps >> 32) + static_cast<double>(steps & 0xffffffffU) * sqrt2;
  }
  static constexpr Steps step_of(int direction) { return (direction & 1) != 0 ? diagonal_step : straight_step; }
  static constexpr double step_cost(int direction) { return (direction & 1) != 0 ? sqrt2 : 1.0; }
  [[nodiscard]] std::size_t step(std::size_t cell, int direction) const {
    return cell + static_cast<std::size_t>(static_cast<std::ptrdiff_t>(offset_[direction]));
  }

  // Gives `cell` the cost `steps` when it has none yet or a higher one; whether it did.
  bool improve(std::size_t cell, Steps steps) {
    const double cost = value(steps);
    if (reached_stamp_[cell] != reach_generation_) {
      reached_stamp_[cell] = reach_generation_;
      reached_.push_back(cell);
    } else if (!(cost < cost_[cell])) {
      return false;
    }
    steps_[cell] = steps;
    cost_[cell] = cost;
    return true;
  }
  void push(std::size_t cell) {
    heap_.push_back({cost_[cell], cell});
    std::push_heap(heap_.begin(), heap_.end());
  }
  // Pops the cheapest entry whose cost is still its cell's (entries left behind by a later
  // improvement are skipped), or returns false.
  bool pop(std::size_t& cell) {
    while (!heap_.empty()) {
      std::pop_heap(heap_.begin(), heap_.end());
      const Entry top = heap_.back();
      heap_.pop_back();
      if (top.cost == cost_[top.cell]) {
        cell = top.cell;
        return true;
      }
    }
    return false;
  }

  void expand_jump_points() {
    std::size_t at = 0;
    while (pop(at)) {
      const std::uint8_t out = moves_out_[at];
      for (int d = 0; d < jump_direction_count; ++d) {
        if ((out & (1u << d)) == 0) continue;
        if ((d & 1) != 0)
          diagonal_ray(at, d);
        else
          straight_ray(at, d);
      }
    }
  }
  void straight_ray(std::size_t cell, int direction) {
    Steps steps = steps_[cell];
    while ((moves_out_[cell] & (1u << direction)) != 0) {
      cell = step(cell, direction);
      steps += straight_step;
      if (!improve(cell, steps)) return;
      if ((stops_[cell] & (1u << direction)) != 0) {
        push(cell);
        return;
      }
    }
  }
  void diagonal_ray(std::size_t cell, int direction) {
    // A diagonal's straight components: the directions on either side of it.
    const int first_side = direction - 1;
    const int second_side = (direction + 1) % jump_direction_count;
    Steps steps = steps_[cell];
    while ((moves_out_[cell] & (1u << direction)) != 0) {
      cell = step(cell, direction);
      steps += diagonal_step;
      if (!improve(cell, steps)) return;
      straight_ray(cell, first_side);
      straight_ray(cell, second_side);
    }
  }

  // The second pass (see the class's comment); false, with the improved cells on the open
  // list, when a step improves a cost.
  bool label_first_moves(std::size_t source) {
    ++label_generation_;
    labelled_stamp_[source] = label_generation_;
    moves_[source] = 0;
    for (const std::size_t start : reached_) {
      if (labelled_stamp_[start] == label_generation_) continue;
      stack_.clear();
      stack_.push_back(start);
      while (!stack_.empty()) {
        const std::size_t cell = stack_.back();
        if (labelled_stamp_[cell] == label_generation_) {
          stack_.pop_back();
          continue;
        }
        Label label{steps_[cell], cost_[cell], 0, false};
        if (!take_neighbours(cell, source, label, std::make_integer_sequence<int, jump_direction_count>{})) {
          seed_exact_costs();
          return false;
        }
        if (label.waiting) continue;
        const std::uint8_t moves = label.moves;
        moves_[cell] = moves;
        labelled_stamp_[cell] = label_generation_;
        stack_.pop_back();
      }
    }
    return true;
  }
  // What the second pass gathers about one cell from its neighbours.
  struct Label {
    Steps steps;        ///< the cell's cost
    double cost;        ///< the same as a number
    std::uint8_t moves;  ///< the first moves of its labelled optimal predecessors
    bool waiting;        ///< an optimal predecessor is not labelled yet (it is on the stack)
  };
  // Takes the 8 neighbours of `cell` into `label`, the direction a compile-time constant in each
  // (this is the build's innermost loop); false when a step improves the cell's cost or a
  // neighbour was not reached.
  template <int... direction>
  bool take_neighbours(std::size_t cell, std::size_t source, Label& label, std::integer_sequence<int, direction...>) {
    const std::uint8_t out = moves_out_[cell];
    return (take_neighbour<direction>(cell, source, out, label) && ...);
  }
  template <int direction>
  bool take_neighbour(std::size_t cell, std::size_t source, std::uint8_t out, Label& label) {
    if ((out & (1u << direction)) == 0) return true;
    // Moves are symmetric (no corner cutting needs the same side cells both ways), so the
    // neighbour in `direction` reaches `cell` in the opposite direction.
    const std::size_t previous = step(cell, direction);
    if (reached_stamp_[previous] != reach_generation_) return false;
    if (steps_[previous] + step_of(direction) == label.steps) {
      if (previous == source) {
        label.moves |= static_cast<std::uint8_t>(1u << ((direction + jump_direction_count / 2) % jump_direction_count));
      } else if (labelled_stamp_[previous] == label_generation_) {
        label.moves |= moves_[previous];
      } else {
        stack_.push_back(previous);
        label.waiting = true;
      }
      return true;
    }
    // Distinct costs differ by far more than the rounding of this sum: a true improvement.
    return !(cost_[previous] + step_cost(direction) < label.cost);
  }
  // Puts on the open list every cell a step from a reached cell improves.
  void seed_exact_costs() {
    heap_.clear();
    const std::size_t count = reached_.size();
    for (std::size_t i = 0; i < count; ++i) relax_neighbours(reached_[i]);
  }
  // A plain Dijkstra search from the open list: afterwards no step improves a cost.
  void make_costs_exact() {
    std::size_t at = 0;
    while (pop(at)) relax_neighbours(at);
  }
  void relax_neighbours(std::size_t cell) {
    const std::uint8_t out = moves_out_[cell];
    for (int d = 0; d < jump_direction_count; ++d) {
      if ((out & (1u << d)) == 0) continue;
      const std::size_t next = step(cell, d);
      if (improve(next, steps_[cell] + step_of(d))) push(next);
    }
  }

  const std::vector<std::uint8_t>& moves_out_;
  const std::vector<std::uint8_t>& stops_;
  int offset_[jump_direction_count] = {};
  std::vector<Steps> steps_;  ///< each reached cell's cost, exactly
  std::vector<double> cost_;  ///< the same as a number, to order by
  std::vector<std::uint8_t> moves_;  ///< the optimal first moves, once labelled
  std::vector<std::uint32_t> reached_stamp_;
  std::vector<std::uint32_t> labelled_stamp_;
  std::uint32_t reach_generation_ = 0;
  std::uint32_t label_generation_ = 0;
  std::vector<std::size_t> reached_;  ///< the cells reached, in the order they were
  std::vector<std::size_t> stack_;
  std::vector<Entry> heap_;
};

// The jump points of straight rays (Harabor & Grastien 2014, "Improving Jump Point Search",
// ICAPS, without corner cutting): per cell of the padded grid, the bit (1 << d) of each straight
// direction d in which a ray arriving there stops, because a side cell is free while the cell
// behind it is blocked, so that an optimal path may turn there.
std::vector<std::uint8_t> straight_ray_stops(const GridMap& map, int padded_width) {
  std::vector<std::uint8_t> stops(static_cast<std::size_t>(padded_width) * static_cast<std::size_t>(map.height() + 2), 0);
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) {
      if (!map.passable_unchecked(x, y)) continue;
      std::uint8_t out = 0;
      for (int d = 0; d < jump_direction_count; d += 2) {
        const int dx = jump_direction_dx[d];
        const int dy = jump_direction_dy[d];
        for (const int side : {(d + 2) % jump_direction_count, (d + 6) % jump_direction_count}) {
          const int sx = jump_direction_dx[side];
          const int sy = jump_direction_dy[side];
          if (map.passable(x + sx, y + sy) && !map.passable(x - dx + sx, y - dy + sy))
            out = static_cast<std::uint8_t>(out | (1u << d));
        }
      }
      stops[static_cast<std::size_t>(y + 1) * static_cast<std::size_t>(padded_width) + static_cast<std::size_t>(x + 1)] =
          out;
    }
  return stops;
}

}  // namespace

bool first_move_exists(const GridMap& map, int x, int y, int direction) {
  const int dx = jump_direction_dx[direction];
  const int dy = jump_direction_dy[direction];
  if (!map.passable(x + dx, y + dy)) return false;
  return dx == 0 || dy == 0 || (map.passable(x + dx, y) && map.passable(x, y + dy));
}

std::size_t build_goal_boxes(const GridMap& map, NodeId first, NodeId last, GoalBox* boxes,
                             const GridGoalBounds::Progress& progress, int threads, CanonicalTurns turns) {
  threads = std::max(threads, 1);
  const int width = map.width();
  const int height = map.height();
  const int padded_width = width + 2;
  // The moves leaving each cell of a padded grid (a border of blocked cells), so that the
  // searches need no bounds checks.
  std::vector<std::uint8_t> moves_out(static_cast<std::size_t>(padded_width) * static_cast<std::size_t>(height + 2), 0);
  std::vector<NodeId> sources;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      if (map.passable_unchecked(x, y)) {
        std::uint8_t out = 0;
        for (int d = 0; d < jump_direction_count; ++d)
          if (first_move_exists(map, x, y, d)) out = static_cast<std::uint8_t>(out | (1u << d));
        moves_out[static_cast<std::size_t>(y + 1) * static_cast<std::size_t>(padded_width) +
                  static_cast<std::size_t>(x + 1)] = out;
        const NodeId cell = map.id_of(x, y);
        if (cell >= first && cell < last) sources.push_back(cell);
      }
  const std::vector<std::uint8_t> stops = turns == CanonicalTurns::at_forced_neighbours
                                              ? straight_ray_stops(map, padded_width)
                                              : std::vector<std::uint8_t>(moves_out.size(), 0);
  // Sources are handed out in chunks; each writes only its own cell's boxes, so the result does
  // not depend on the threads' order, nor on which range of sources a build covers.
  constexpr std::size_t chunk = 64;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  const std::size_t total = sources.size();
  auto work = [&](bool reports) {
    FirstMoveSearch search(moves_out, stops, padded_width);
    while (true) {
      const std::size_t begin = next.fetch_add(chunk);
      if (begin >= total) break;
      const std::size_t end = std::min(total, begin + chunk);
      for (std::size_t i = begin; i < end; ++i) {
        const NodeId cell = sources[i];
        const std::size_t x = cell % static_cast<NodeId>(width);
        const std::size_t y = cell / static_cast<NodeId>(width);
        search.run((y + 1) * static_cast<std::size_t>(padded_width) + x + 1, padded_width,
                   boxes + static_cast<std::size_t>(cell - first) * jump_direction_count);
      }
      const std::size_t now = done.fetch_add(end - begin) + (end - begin);
      if (reports && progress) progress(now, total);
    }
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back(work, false);
  try {
    work(true);
  } catch (...) {
    // A progress callback that throws stops the build: the helpers finish their chunk and stop.
    next.store(total);
    for (std::thread& helper : helpers) helper.join();
    throw;
  }
  for (std::thread& helper : helpers) helper.join();
  if (progress) progress(total, total);
  return total;
}

}  // namespace wayfinder
