// A group of cable cells: interleaved cells are independent and bit-identical to a lone cell; hh
// spikes under a clamp; threshold crossings are interpolated; events act in the next step.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "cable/cable_group.hpp"
#include "cable/mechanisms.hpp"
#include "cable_cells.hpp"
#include "core/errors.hpp"

namespace ranvier::cable {
namespace {

using Crossings = std::vector<std::pair<uint32_t, double>>;

TEST(CableGroup, InterleavedCellsEqualALoneCell) {
  auto d = std::make_shared<const Description>(testing::ball_and_stick(7));
  CableGroup one(d, 1), many(d, 40);  // 40: five blocks of 8 in two groups of four, the last padded
  Crossings c1, cn;
  for (int s = 0; s < 2000; ++s) {
    if (s % 100 == 7) {
      one.add_event(0, 0, 0.01, s * d->dt);
      one.add_event(0, 1, 0.005, s * d->dt);
      for (size_t c = 0; c < many.cells(); ++c)
        many.add_event(c, 0, 0.01, s * d->dt), many.add_event(c, 1, 0.005, s * d->dt);
    }
    one.step(s * d->dt, c1);
    many.step(s * d->dt, cn);
  }
  ASSERT_GE(c1.size(), 1u);
  ASSERT_EQ(cn.size(), c1.size() * many.cells());
  for (size_t c = 0; c < many.cells(); ++c)
    for (size_t i = 0; i < one.cvs_per_cell(); ++i) {
      const double a = one.voltage(0, i), b = many.voltage(c, i);
      ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "cell " << c << " node " << i;
    }
  for (size_t k = 0; k < cn.size(); ++k) EXPECT_EQ(cn[k].second, c1[k / many.cells()].second);
}

// Every scalar that may differ between cells, cell i's from i: each cell of one group equals a
// lone cell of its own description, bit for bit; uniform and varying cells share a group.
TEST(CableGroup, CellsWithTheirOwnValuesEqualLoneCells) {
  auto d = std::make_shared<const Description>(testing::ball_and_stick(7));
  auto vary = [](size_t i, Description& c) {
    if (i % 3 == 2) return;  // some cells keep the description's values
    const double f = 1.0 + 0.1 * double(i % 5);
    c.cm *= f, c.Ra *= f, c.V_init -= double(i % 4), c.celsius += double(i % 3), c.threshold -= double(i % 2);
    c.ion_e["na"] = 50.0 + double(i % 3);
    c.densities[0].params["gnabar"] = 0.12 * f;
    c.densities[1].params["g"] = 0.001 / f;
    c.synapses[0].params["tau"] = 2.0 * f;
    c.synapses[1].params["tau2"] = 2.0 + double(i % 4);
    c.clamps[0].amplitude = 0.1 * f, c.clamps[0].delay = double(i % 7);
  };
  const size_t n = 37;
  CableGroup group(d, n, vary);
  std::vector<CableGroup> lone;
  for (size_t i = 0; i < n; ++i) {
    auto mine = std::make_shared<Description>(*d);
    vary(i, *mine);
    lone.emplace_back(mine, 1);
  }
  Crossings all;
  std::vector<Crossings> each(n);
  for (int s = 0; s < 1200; ++s) {
    for (size_t i = 0; i < n && s % 150 == 3; ++i)
      group.add_event(i, 1, 0.004, s * d->dt), lone[i].add_event(0, 1, 0.004, s * d->dt);
    group.step(s * d->dt, all);
    for (size_t i = 0; i < n; ++i) lone[i].step(s * d->dt, each[i]);
  }
  size_t spikes = 0;
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < group.cvs_per_cell(); ++k) {
      const double a = lone[i].voltage(0, k), b = group.voltage(i, k);
      ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "cell " << i << " node " << k;
    }
    Crossings mine;
    for (const auto& [cell, t] : all)
      if (cell == i) mine.emplace_back(0, t);
    EXPECT_EQ(mine, each[i]) << "cell " << i;
    spikes += mine.size();
  }
  EXPECT_GT(spikes, n);
  EXPECT_NE(each[0], each[1]);  // the values made a difference
}

TEST(CableGroup, CellsMayNotDifferInTheirTree) {
  auto d = std::make_shared<const Description>(testing::ball_and_stick(7));
  EXPECT_THROW(CableGroup(d, 3, [](size_t i, Description& c) { c.branches[1].n_cv += uint32_t(i); }),
               BadParameterError);
  EXPECT_THROW(CableGroup(d, 3, [](size_t i, Description& c) { c.cm = 1.0 - double(i); }), BadParameterError);
}

TEST(CableGroup, EventsReachOnlyTheirCellInTheNextStep) {
  auto d = std::make_shared<Description>(testing::ball_and_stick(7));
  d->clamps.clear();
  CableGroup group(std::move(d), 12);
  const size_t at = group.cv_of({1, 0.5});
  Crossings crossings;
  group.step(0.0, crossings);
  const double rest = group.voltage(3, at);
  group.add_event(10, 0, 0.01, 0.025);
  group.step(0.025, crossings);
  EXPECT_GT(group.voltage(10, at), rest + 0.1);
  for (size_t c = 0; c < group.cells(); ++c) {
    if (c != 10) {
      EXPECT_EQ(group.voltage(c, at), group.voltage(3, at));
    }
  }
  EXPECT_THROW(group.add_event(12, 0, 1.0, 0.05), BadParameterError);
  EXPECT_THROW(group.add_event(0, 2, 1.0, 0.05), BadParameterError);
}

TEST(CableGroup, HodgkinHuxleySpikesUnderAClamp) {
  auto d = std::make_shared<Description>(testing::single_compartment(0, 0));
  d->densities = {{"hh", 0, {}}};
  d->clamps = {{{0, 0.5}, 5.0, 40.0, 0.3}};  // 0.3 nA on 1257 µm²: 24 µA/cm²
  CableGroup group(d, 1);
  Crossings spikes;
  double v_rest_drift = 0;
  for (int s = 0; s < 2400; ++s) {  // 60 ms
    group.step(s * d->dt, spikes);
    if (s * d->dt < 5.0) v_rest_drift = std::max(v_rest_drift, std::fabs(group.voltage(0, 0) + 65.0));
  }
  EXPECT_LT(v_rest_drift, 0.1);  // gates start at their steady state, and hh rests within 0.1 mV of -65
  ASSERT_GE(spikes.size(), 3u);  // repetitive firing
  EXPECT_GT(spikes[0].second, 5.0);
  EXPECT_LT(spikes[0].second, 10.0);
  EXPECT_LT(spikes.back().second, 46.0);  // none after the clamp ends (45 ms) beyond the last upstroke
  for (size_t k = 1; k < spikes.size(); ++k) EXPECT_GT(spikes[k].second - spikes[k - 1].second, 5.0);
}

TEST(CableGroup, DetectorInterpolationIsExactForARamp) {
  // No membrane mechanism: C dV/dt = I, which backward Euler follows exactly; V crosses -10 mV at
  // t = delay' + (thr - V_init) C / I where the clamp starts with the step holding t + dt/2 >= delay.
  auto d = std::make_shared<Description>(testing::single_compartment(0, 0));
  d->clamps = {{{0, 0.5}, 1.0, 1e9, 1.0}};
  CableGroup group(d, 3);
  const double C = 1.0 * M_PI * 20 * 20 * 1e-5;  // nF
  Crossings crossings;
  for (int s = 0; s < 400; ++s) group.step(s * d->dt, crossings);
  ASSERT_EQ(crossings.size(), 3u);
  const double expected = 1.0 + (-10.0 - -65.0) * C / 1.0;
  for (const auto& [cell, t] : crossings) EXPECT_NEAR(t, expected, 1e-9) << "cell " << cell;
}

TEST(CableGroup, ClampWindowAsNeuron) {
  // IClamp is evaluated at t + dt/2: on for steps with delay <= t + dt/2 < delay + duration.
  auto d = std::make_shared<Description>(testing::single_compartment(0, 0));
  d->clamps = {{{0, 0.5}, 0.1, 0.05, 1.0}};  // on in the steps from t = 0.1 and 0.125 only
  CableGroup group(d, 1);
  Crossings crossings;
  const double C = M_PI * 20 * 20 * 1e-5;
  std::vector<double> v;
  for (int s = 0; s < 10; ++s) group.step(s * 0.025, crossings), v.push_back(group.voltage(0, 0));
  int on = 0;
  for (size_t s = 0; s < v.size(); ++s) {
    const double before = s ? v[s - 1] : -65.0, mid = s * 0.025 + 0.0125;
    const bool expected = 0.1 <= mid && mid < 0.15;
    EXPECT_NEAR(v[s] - before, expected ? 0.025 * 1.0 / C : 0.0, 1e-9) << "step " << s;
    on += expected;
  }
  EXPECT_EQ(on, 2);
}

TEST(CableGroup, Exp2SynPeakIsTheWeight) {
  // NEURON's normalisation: an event of weight w gives a peak conductance of w at tp.
  const Exp2Factor f = exp2syn_factor(0.5, 2.0);
  const double tp = (0.5 * 2.0) / (2.0 - 0.5) * std::log(2.0 / 0.5);
  EXPECT_NEAR(f.factor * (std::exp(-tp / 2.0) - std::exp(-tp / 0.5)), 1.0, 1e-14);
  EXPECT_EQ(exp2syn_factor(2.0, 2.0).tau1, 0.9999 * 2.0);  // tau1 kept below tau2
}

TEST(CableGroup, ResetAndBytes) {
  auto d = std::make_shared<const Description>(testing::ball_and_stick(20));
  CableGroup group(d, 1000);
  EXPECT_EQ(group.cvs_per_cell(), 22u);  // soma, junction, 20 dendrite CVs
  EXPECT_EQ(group.ports(), 2u);
  EXPECT_GT(group.bytes(), 1000 * 22 * 8u);
  group.voltage(999, 5) = 0.0;
  group.reset();
  EXPECT_EQ(group.voltage(999, 5), -65.0);
}

}  // namespace
}  // namespace ranvier::cable
