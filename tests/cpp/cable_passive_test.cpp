// A sealed passive cable against the cable equation's analytic solutions.
#include <gtest/gtest.h>

#include <cmath>

#include "cable/cable_group.hpp"
#include "cable_cells.hpp"

namespace ranvier::cable {
namespace {

// 1 mm of 1 µm cable, Ra = 100 Ω·cm, g = 1e-4 S/cm²: λ = sqrt(d / (4 Ra g)) = 500 µm, L = 2λ.
constexpr double kLength = 1000, kDiam = 1, kRa = 100, kG = 1e-4, kE = -65, kI = 0.01;  // µm, Ω·cm, S/cm², mV, nA

// Steady state under kI nA into x = 0 (the zero-area node there), relative to rest, at each CV centre; and the
// largest relative error against V(x) = I r_a λ cosh((L - x)/λ) / sinh(L/λ), r_a = 4 Ra / (π d²).
double steady_state_error(uint32_t n_cv) {
  auto d = std::make_shared<Description>();
  d->branches = {{"cable", -1, 1.0, kLength, kDiam, n_cv}};
  d->Ra = kRa;
  d->V_init = kE;
  d->dt = 10.0;  // backward Euler's fixed point is the discrete steady state whatever dt
  d->densities = {{"pas", 0, {{"g", kG}, {"e", kE}}}};
  d->clamps = {{{0, 0.0}, 0.0, 1e9, kI}};
  CableGroup group(d, 1);
  std::vector<std::pair<uint32_t, double>> crossings;
  for (int s = 0; s < 3000; ++s) group.step(s * d->dt, crossings);
  const double lambda = std::sqrt(kDiam * 1e-4 / (4 * kRa * kG));  // cm
  const double r_a = 4 * kRa / (M_PI * kDiam * kDiam * 1e-8);      // Ω/cm
  const double L = kLength * 1e-4;
  double worst = 0;
  for (uint32_t k = 0; k < n_cv; ++k) {
    const double x = (k + 0.5) / n_cv * L;
    const double exact = kI * 1e-9 * r_a * lambda * std::cosh((L - x) / lambda) / std::sinh(L / lambda) * 1e3;  // mV
    worst = std::max(worst, std::fabs(group.voltage(0, group.cv_of({0, (k + 0.5) / n_cv})) - kE - exact) / exact);
  }
  return worst;
}

TEST(CablePassive, SteadyStateIsSecondOrderInSpace) {
  const double e25 = steady_state_error(25), e50 = steady_state_error(50), e100 = steady_state_error(100);
  std::printf("steady state, largest relative error: 25 CVs %.3e, 50 CVs %.3e, 100 CVs %.3e\n", e25, e50, e100);
  // CV centres carry the second-order error of the finite-volume scheme: a quarter per halving of h.
  EXPECT_NEAR(e25 / e50, 4.0, 0.2);
  EXPECT_NEAR(e50 / e100, 4.0, 0.2);
  // (h/λ)² / 12 with h = L / n: the size of the midpoint rule's error for cosh.
  EXPECT_LT(e100, std::pow(kLength / 100 / 500, 2) / 12 * 2);
}

// Tapered branches over 200 µm on a leaky isopotential soma: a truncated cone (diameter 3 -> 1 µm)
// and a kinked taper (3 -> 2.2 -> 1 µm, the kink at x = 0.3, inside a CV). Their CVs' membrane
// adds up to the cones' lateral areas π (ra + rb) sqrt(h² + (ra - rb)²), and, the branch having
// no membrane, a current into its tip meets exactly Ra ∫ ds / (π r(s)²) (Ra h / (π ra rb) per
// cone) up to each CV centre, for any number of CVs.
TEST(CablePassive, TaperedBranchIsTruncatedCones) {
  constexpr double L = 200, g_soma = 1e-3;
  using Taper = std::vector<std::pair<double, double>>;
  for (const Taper& taper : {Taper{{0.0, 3.0}, {1.0, 1.0}}, Taper{{0.0, 3.0}, {0.3, 2.2}, {1.0, 1.0}}}) {
    // Exact resistance (MΩ) from 0 to x and area of the whole branch, cone by cone.
    auto exact = [&](double x, bool area) {
      double sum = 0;
      for (size_t k = 1; k < taper.size() && taper[k - 1].first < x; ++k) {
        const double x0 = taper[k - 1].first, x1 = std::min(x, taper[k].first),
                     slope = (taper[k].second - taper[k - 1].second) / (taper[k].first - x0);
        const double ra = taper[k - 1].second / 2, rb = (taper[k - 1].second + slope * (x1 - x0)) / 2,
                     h = (x1 - x0) * L;
        sum += area ? M_PI * (ra + rb) * std::sqrt(h * h + (ra - rb) * (ra - rb)) : 1e-2 * kRa * h / (M_PI * ra * rb);
      }
      return sum;
    };
    for (uint32_t n : {1u, 3u, 8u}) {
      auto d = std::make_shared<Description>();
      d->branches = {{"soma", -1, 1.0, 20.0, 20.0, 1}, {"cone", 0, 1.0, L, taper[0].second, n, taper}};
      d->Ra = kRa;
      d->V_init = kE;
      d->dt = 10.0;  // the fixed point of backward Euler is the steady state
      d->densities = {{"pas", 0, {{"g", g_soma}, {"e", kE}}}};
      d->clamps = {{{1, 1.0}, 0.0, 1e9, kI}};
      CableGroup group(d, 1);
      const Layout& layout = group.layout();
      double area = 0;
      for (uint32_t k = 0; k < n; ++k) area += layout.area[layout.first_cv[1] + k];
      EXPECT_NEAR(area / exact(1.0, true), 1.0, 1e-14) << taper.size() << " points, " << n << " CVs";
      std::vector<std::pair<uint32_t, double>> crossings;
      for (int s = 0; s < 3000; ++s) group.step(s * d->dt, crossings);
      const double v_soma = kE + kI / (g_soma * M_PI * 20.0 * 20.0 * 1e-2);  // nA / µS = mV
      EXPECT_NEAR(group.voltage(0, group.cv_of({0, 0.5})), v_soma, 1e-9);
      const double r_soma_half = 1e-2 * kRa * 10.0 / (M_PI * 10.0 * 10.0);  // MΩ
      for (double x : {0.5 / n, 1.0 - 0.5 / n, 1.0}) {
        const double expected = v_soma + kI * (r_soma_half + exact(x, false));
        EXPECT_NEAR(group.voltage(0, group.cv_of({1, x})), expected, 1e-9 * (expected - kE))
            << taper.size() << " points, " << n << " CVs, x " << x;
      }
    }
  }
}

// An isopotential cell charged from rest by a constant current: backward Euler gives exactly
// V_n = V_inf + (V_0 - V_inf) (1 + dt/tau)^-n, and V(t) = V_inf + (V_0 - V_inf) exp(-t/tau) to O(dt).
double transient_error(double dt, bool against_discrete) {
  const double g = 1e-3, e = -70;  // tau = cm / g = 1 ms
  auto d = std::make_shared<Description>(testing::single_compartment(g, e));
  d->dt = dt;
  d->V_init = e;
  d->clamps = {{{0, 0.5}, 0.0, 1e9, 0.05}};
  CableGroup group(d, 1);
  const double area = M_PI * 20 * 20, G = g * area * 1e-2, v_inf = e + 0.05 / G, tau = 1.0;
  std::vector<std::pair<uint32_t, double>> crossings;
  double worst = 0;
  const int steps = int(std::lround(5.0 / dt));
  for (int s = 1; s <= steps; ++s) {
    group.step((s - 1) * dt, crossings);
    const double expected = against_discrete ? v_inf + (e - v_inf) * std::pow(1 + dt / tau, -s)
                                             : v_inf + (e - v_inf) * std::exp(-s * dt / tau);
    worst = std::max(worst, std::fabs(group.voltage(0, 0) - expected) / (v_inf - e));
  }
  return worst;
}

TEST(CablePassive, ChargingOfAnIsopotentialCell) {
  EXPECT_LT(transient_error(0.025, true), 1e-12);
  const double e1 = transient_error(0.05, false), e2 = transient_error(0.025, false);
  std::printf("charging, largest error relative to the jump: dt 0.05 %.3e, dt 0.025 %.3e\n", e1, e2);
  EXPECT_NEAR(e1 / e2, 2.0, 0.1);        // first order in time
  EXPECT_LT(e2, 0.025 / 1.0 / 2 * 1.1);  // ≈ (dt/tau) / (2e), below dt / (2 tau)
}

}  // namespace
}  // namespace ranvier::cable
