// A crowd updated on several threads gives bit for bit what one thread gives (run under
// ThreadSanitizer by CI: label "threads").

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "crowd_test_support.hpp"
#include "wayfinder/crowd/crowd.hpp"

using namespace wayfinder;

namespace {

/// Runs `scenario` for `steps` ticks on one thread and on `threads`, and compares the final
/// positions bit for bit.
void expect_same_positions(tools::CrowdScenario scenario, std::size_t steps, std::size_t threads) {
  scenario.settings.min_agents_per_thread = 1;  // small crowds split too
  tools::CrowdRunOptions options;
  options.steps = steps;
  options.threads = 1;
  const std::vector<Point> one = wayfinder::testing::run_generated(scenario, options).final_positions;
  options.threads = threads;
  const std::vector<Point> many = wayfinder::testing::run_generated(scenario, options).final_positions;
  ASSERT_EQ(one.size(), many.size());
  for (std::size_t i = 0; i < one.size(); ++i) EXPECT_EQ(one[i], many[i]) << "agent " << i;
}

}  // namespace

TEST(CrowdThreads, FourThreadsMatchOne) {
  expect_same_positions(wayfinder::testing::generated(tools::CrowdScenarioKind::random, 48, 11), 60, 4);
}

TEST(CrowdThreads, DenseCircleOnThreeThreadsMatchesOne) {
  // The middle of a circle swap: many agents in contact, so the collision pass runs its rounds.
  expect_same_positions(wayfinder::testing::generated(tools::CrowdScenarioKind::circle, 40), 120, 3);
}

TEST(CrowdThreads, AMovedCrowdKeepsItsThreadsAndItsResults) {
  // The helper threads live with the crowd's state: a crowd moved to another object updates on
  // them as before, and gives what one thread gives.
  tools::CrowdScenario scenario = wayfinder::testing::generated(tools::CrowdScenarioKind::circle, 12);
  const NavMesh mesh = NavMesh::build(scenario.geometry);
  auto run = [&](std::size_t threads) {
    CrowdSettings settings = scenario.settings;
    settings.threads = threads;
    settings.min_agents_per_thread = 1;
    Crowd first(mesh, settings);
    for (const tools::CrowdScenarioAgent& agent : scenario.agents)
      first.set_target(first.add_agent(agent.start, agent.settings), agent.goal);
    for (int k = 0; k < 20; ++k) first.update(0.1);
    Crowd moved(std::move(first));
    for (int k = 0; k < 40; ++k) moved.update(0.1);
    std::vector<Point> positions;
    for (const CrowdAgent& agent : moved.agents()) positions.push_back(agent.position);
    return positions;
  };
  const std::vector<Point> one = run(1), three = run(3);
  ASSERT_EQ(one.size(), three.size());
  for (std::size_t i = 0; i < one.size(); ++i) EXPECT_EQ(one[i], three[i]) << "agent " << i;
}
