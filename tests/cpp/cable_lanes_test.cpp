// The lanes' own exp against libm's, and hh's rates at the values hh.mod gives.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "cable/lanes.hpp"

namespace ranvier::cable {
namespace {

TEST(CableLanes, ExpWithinTwoUlp) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-700.0, 700.0), small(-3.0, 3.0);
  double worst = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    Lanes x;
    for (size_t l = 0; l < kLanes; ++l) x[l] = l % 2 ? u(rng) : small(rng);
    const Lanes y = exp_lanes(x);
    for (size_t l = 0; l < kLanes; ++l) {
      const double exact = std::exp(x[l]);
      const double ulps = std::fabs(y[l] - exact) / (std::nextafter(exact, INFINITY) - exact);
      worst = std::max(worst, ulps);
    }
  }
  EXPECT_LE(worst, 2.0);
  EXPECT_EQ(exp_lanes(broadcast(0.0))[3], 1.0);
  EXPECT_TRUE(std::isfinite(exp_lanes(broadcast(1000.0))[0]));  // clamped, no overflow to inf
  EXPECT_GE(exp_lanes(broadcast(-1000.0))[0], 0.0);
}

TEST(CableLanes, HodgkinHuxleyRates) {
  // At -65 mV and 6.3 °C, by hand from hh.mod: alpha_m = 0.1 * 25 / (exp(2.5) - 1), beta_m = 4, ...
  const HHRates r = hh_rates(broadcast(-65.0), broadcast(hh_q10(6.3)));
  const double am = 0.1 * 25 / (std::exp(2.5) - 1), bm = 4.0;
  const double ah = 0.07, bh = 1 / (std::exp(3.0) + 1);
  const double an = 0.01 * 10 / (std::exp(1.0) - 1), bn = 0.125;
  EXPECT_NEAR(r.minf[0], am / (am + bm), 1e-15);
  EXPECT_NEAR(r.mrate[0], am + bm, 1e-14);
  EXPECT_NEAR(r.hinf[0], ah / (ah + bh), 1e-15);
  EXPECT_NEAR(r.ninf[0], an / (an + bn), 1e-15);
  EXPECT_NEAR(r.nrate[5], an + bn, 1e-15);
  // vtrap's removable singularity: alpha_n at -55 mV is 0.01 * 10 = 0.1
  EXPECT_NEAR(0.01 * vtrap(broadcast(0.0), 10.0)[0], 0.1, 1e-15);
  EXPECT_DOUBLE_EQ(hh_q10(16.3), 3.0);
}

}  // namespace
}  // namespace ranvier::cable
