// x^mu from PowerTable against std::pow (the C library's, which NEST's STDP synapses call):
// the relative error bound over the double range and the weights' range, the values std::pow
// answers alike (mu = 0, 1; zero, subnormal, negative, infinite and NaN x; exponents without
// tables), and the drift of a power-law STDP weight over 10^6 updates.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/power.hpp"

namespace ranvier {
namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// 4 rounding errors (the two tabulated powers, the sum and the product) of at most half an
// ulp each, the tables' as std::pow has them (0.52 ulp): below 4.2 x 2^-53 relative.
constexpr double bound = 4.2 * 0x1p-53;

TEST(PowerTable, WithinFourRoundingsOfStdPow) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> log_x(-700.0, 700.0), weight(0.0, 200.0);
  for (double mu : {0.4, 0.05, 0.7, 0.999, 1.5, -0.3, 2.0, 3.7, 4.0}) {
    const PowerTable table(mu);
    double worst = 0.0;
    for (int i = 0; i < 400000; ++i) {
      const double x = i % 2 ? std::exp(log_x(rng)) : weight(rng);
      const double exact = std::pow(x, mu);
      if (exact == 0.0 || std::isinf(exact)) continue;
      worst = std::max(worst, std::fabs(table(x) - exact) / exact);
    }
    EXPECT_LT(worst, bound) << "mu = " << mu;
    EXPECT_GT(worst, 0.0) << "mu = " << mu << " answered by std::pow alone: no table";
  }
}

TEST(PowerTable, AnswersAsStdPowWhereItHasNoTable) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const double xs[] = {0.0, -0.0, 1e-310, -2.0, -1e-310, inf, -inf, nan, 0.5, 45.61, 1e300, 1e-300};
  // 0 and 1 answer exactly; 7.5 and -0.8 have no table (their series would need more terms)
  for (double mu : {0.0, 1.0, 7.5, -0.8, 0.4, 2.5}) {
    const PowerTable table(mu);
    for (double x : xs) {
      const bool tabulated = std::isnormal(x) && x > 0.0 && mu != 0.0 && mu != 1.0 && mu != 7.5 && mu != -0.8;
      if (!tabulated) EXPECT_TRUE(same_bits(table(x), std::pow(x, mu))) << x << "^" << mu;
    }
  }
  for (double x : xs) {
    EXPECT_TRUE(same_bits(power(x, 1.0), std::pow(x, 1.0))) << x;
    EXPECT_TRUE(same_bits(power(x, 0.0), std::pow(x, 0.0))) << x;
  }
}

// stdp_pl_synapse_hom's rule (brunel-small's parameters) driven by random traces, once with
// the table and once with std::pow: the weights part by at most 1e-14 relative over 10^6
// facilitations and depressions (each step moves a weight by ~1 %; a step's difference is
// below an ulp of the weight and they do not compound).
TEST(PowerTable, PowerLawWeightDriftOverAMillionUpdates) {
  const double lambda = 0.1, alpha = 0.0513, mu = 0.4;
  const PowerTable table(mu);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> k_plus(0.0, 2.0), k_minus(0.0, 3.0);
  double tabulated = 45.61, exact = 45.61, drift = 0.0;
  for (int i = 0; i < 1000000; ++i) {
    const double kp = k_plus(rng), km = k_minus(rng);
    tabulated += lambda * table(tabulated) * kp;
    exact += lambda * std::pow(exact, mu) * kp;
    tabulated = std::max(0.0, tabulated - lambda * alpha * tabulated * km);
    exact = std::max(0.0, exact - lambda * alpha * exact * km);
    drift = std::max(drift, std::fabs(tabulated - exact) / exact);
  }
  EXPECT_LT(drift, 1e-14);
  EXPECT_GT(exact, 1.0);  // the weight kept moving, far from the floor
}

}  // namespace
}  // namespace ranvier
