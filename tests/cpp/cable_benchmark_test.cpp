// Micro benchmark of the cable engine, disabled by default (not a timed test): 1000 ball-and-stick
// cells (soma hh 1 CV, dendrite pas 20 CVs, dt 0.025 ms) firing under a clamp. Run with
//   build/unit/unit_tests --gtest_also_run_disabled_tests --gtest_filter='*CableBenchmark*'
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>

#include "cable/cable_group.hpp"
#include "cable_cells.hpp"

namespace ranvier::cable {
namespace {

TEST(CableBenchmark, DISABLED_BallAndStickNsPerCvStep) {
  constexpr size_t cells = 1000;
  constexpr int steps = 4000;  // 100 ms
  auto d = std::make_shared<Description>(testing::ball_and_stick(20));
  d->clamps = {{{0, 0.5}, 0.0, 1e9, 0.3}};
  CableGroup group(d, cells);
  std::vector<std::pair<uint32_t, double>> spikes;
  for (int s = 0; s < 400; ++s) group.step(s * d->dt, spikes);  // warm up
  spikes.clear();
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();  // this process's CPU time: less affected by other jobs
  for (int s = 0; s < steps; ++s) {
    for (size_t c = s % 10; c < cells; c += 10) group.add_event(c, 0, 0.001);  // some synaptic traffic
    group.step((400 + s) * d->dt, spikes);
  }
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  const double cpu_ns = double(std::clock() - cpu_start) / CLOCKS_PER_SEC * 1e9;
  const double cv_steps = cells * 21.0 * steps;  // 21 CVs per cell, not counting the zero-area junction node
  std::printf("%zu cells, %d steps: %.2f ns per CV-step (wall), %.2f (CPU time); %zu nodes per cell, %zu spikes, "
              "%zu bytes\n",
              cells, steps, ns / cv_steps, cpu_ns / cv_steps, group.cvs_per_cell(), spikes.size(), group.bytes());
  EXPECT_GT(spikes.size(), cells);
}

}  // namespace
}  // namespace ranvier::cable
