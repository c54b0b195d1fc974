// A crowd updated on several threads gives bit for bit what one thread gives (run under
// ThreadSanitizer by CI: label "threads").

#include <gtest/gtest.h>

#include <vector>

#include "crowd_test_support.hpp"

using namespace wayfinder;

TEST(CrowdThreads, FourThreadsMatchOne) {
  const tools::CrowdScenario scenario = wayfinder::testing::generated(tools::CrowdScenarioKind::random, 48, 11);
  tools::CrowdRunOptions options;
  options.steps = 60;
  options.threads = 1;
  const std::vector<Point> one = wayfinder::testing::run_generated(scenario, options).final_positions;
  options.threads = 4;
  const std::vector<Point> four = wayfinder::testing::run_generated(scenario, options).final_positions;
  ASSERT_EQ(one.size(), four.size());
  for (std::size_t i = 0; i < one.size(); ++i) EXPECT_EQ(one[i], four[i]) << "agent " << i;
}

TEST(CrowdThreads, DenseCircleOnThreeThreadsMatchesOne) {
  // The middle of a circle swap: many agents in contact, so the collision pass runs its rounds.
  const tools::CrowdScenario scenario = wayfinder::testing::generated(tools::CrowdScenarioKind::circle, 40);
  tools::CrowdRunOptions options;
  options.steps = 120;
  options.threads = 1;
  const std::vector<Point> one = wayfinder::testing::run_generated(scenario, options).final_positions;
  options.threads = 3;
  const std::vector<Point> three = wayfinder::testing::run_generated(scenario, options).final_positions;
  ASSERT_EQ(one.size(), three.size());
  for (std::size_t i = 0; i < one.size(); ++i) EXPECT_EQ(one[i], three[i]) << "agent " << i;
}
