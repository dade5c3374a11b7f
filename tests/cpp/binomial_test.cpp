// Binomial deviates (inversion and BTRS): chi-square against the exact pmf in both regimes and
// for p > 1/2, the mean and variance at a huge n, and a multinomial chain's exact total.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/binomial.hpp"
#include "stats.hpp"

namespace ranvier {
namespace {

double pmf(uint64_t n, double p, uint64_t k) {
  return std::exp(std::lgamma(double(n) + 1) - std::lgamma(double(k) + 1) - std::lgamma(double(n - k) + 1) +
                  double(k) * std::log(p) + double(n - k) * std::log1p(-p));
}

// Chi-square of `draws` deviates against the pmf, bins merged until each expects >= 20.
void expect_binomial(uint64_t n, double p, int draws) {
  std::vector<double> observed(n + 1, 0.0);
  for (int i = 0; i < draws; ++i) {
    const uint64_t k = binomial(Stream(99, Purpose::connect_count, 1, uint32_t(i)), n, p);
    ASSERT_LE(k, n);
    observed[k] += 1.0;
  }
  double chi2 = 0.0, expected = 0.0, seen = 0.0;
  int bins = 0;
  for (uint64_t k = 0; k <= n; ++k) {
    expected += draws * pmf(n, p, k);
    seen += observed[k];
    if (expected >= 20.0 || k == n) {
      chi2 += (seen - expected) * (seen - expected) / expected;
      ++bins;
      expected = seen = 0.0;
    }
  }
  EXPECT_LT(chi2, chi2_critical(bins - 1)) << "n = " << n << ", p = " << p;
}

TEST(Binomial, InversionRegimeMatchesThePmf) { expect_binomial(60, 0.1, 200000); }
TEST(Binomial, RejectionRegimeMatchesThePmf) { expect_binomial(2000, 0.3, 200000); }
TEST(Binomial, AboveOneHalfMatchesThePmf) { expect_binomial(500, 0.85, 200000); }

TEST(Binomial, HugeNHasTheRightMeanAndVariance) {
  const uint64_t n = uint64_t(3) << 30;
  const double p = 1.0 / 77169.0;
  const int draws = 100000;
  double sum = 0.0, sq = 0.0;
  for (int i = 0; i < draws; ++i) {
    const double k = double(binomial(Stream(5, Purpose::connect_count, 2, uint32_t(i)), n, p));
    sum += k, sq += k * k;
  }
  const double mean = sum / draws, var = sq / draws - mean * mean, np = double(n) * p;
  EXPECT_NEAR(mean, np, 5.0 * std::sqrt(np * (1 - p) / draws));
  EXPECT_NEAR(var / (np * (1 - p)), 1.0, 0.03);  // the variance's relative standard error is ~0.0045
}

TEST(Binomial, EdgesAreExact) {
  const Stream s(1, Purpose::connect_count, 1, 1);
  EXPECT_EQ(binomial(s, 0, 0.5), 0u);
  EXPECT_EQ(binomial(s, 17, 0.0), 0u);
  EXPECT_EQ(binomial(s, 17, 1.0), 17u);
}

}  // namespace
}  // namespace ranvier
