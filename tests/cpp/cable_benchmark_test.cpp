// Micro benchmark of the cable engine, disabled by default (not a timed test): 1000 ball-and-stick
// cells (soma hh 1 CV, dendrite pas 20 CVs, dt 0.025 ms) firing under a clamp, all alike or with
// their own Ra, V_init, gnabar and clamp amplitude (every constant table per lane). Run with
//   build/unit/unit_tests --gtest_also_run_disabled_tests --gtest_filter='*CableBenchmark*'
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>

#include "cable/cable_group.hpp"
#include "cable_cells.hpp"

namespace ranvier::cable {
namespace {

void ball_and_stick_ns_per_cv_step(const CableGroup::Variation& vary) {
  constexpr size_t cells = 1000;
  constexpr int steps = 4000;  // 100 ms
  auto d = std::make_shared<Description>(testing::ball_and_stick(20));
  d->clamps = {{{0, 0.5}, 0.0, 1e9, 0.3}};
  CableGroup group(d, cells, vary);
  std::vector<std::pair<uint32_t, double>> spikes;
  for (int s = 0; s < 400; ++s) group.step(s * d->dt, spikes);  // warm up
  spikes.clear();
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();  // this process's CPU time: less affected by other jobs
  for (int s = 0; s < steps; ++s) {
    for (size_t c = s % 10; c < cells; c += 10)
      group.add_event(c, 0, 0.001, (400 + s) * d->dt);  // some synaptic traffic
    group.step((400 + s) * d->dt, spikes);
  }
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  const double cpu_ns = double(std::clock() - cpu_start) / CLOCKS_PER_SEC * 1e9;
  const double cv_steps = cells * 21.0 * steps;  // 21 CVs per cell, not counting the zero-area junction node
  std::printf(
      "%zu cells%s, %d steps: %.2f ns per CV-step (wall), %.2f (CPU time); %zu nodes per cell, %zu spikes, "
      "%zu bytes\n",
      cells, vary ? " (per-cell values)" : "", steps, ns / cv_steps, cpu_ns / cv_steps, group.cvs_per_cell(),
      spikes.size(), group.bytes());
  EXPECT_GT(spikes.size(), cells);
}

TEST(CableBenchmark, DISABLED_BallAndStickNsPerCvStep) { ball_and_stick_ns_per_cv_step({}); }

TEST(CableBenchmark, DISABLED_BallAndStickWithPerCellValuesNsPerCvStep) {
  ball_and_stick_ns_per_cv_step([](size_t i, Description& d) {
    const double f = 0.9 + 0.2 * double(i % 11) / 10.0;
    d.Ra *= f, d.V_init -= f, d.densities[0].params["gnabar"] = 0.12 * f, d.clamps[0].amplitude *= f;
  });
}

}  // namespace
}  // namespace ranvier::cable
