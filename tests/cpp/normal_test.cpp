// Normal deviates by the ziggurat: the layers, the distribution (moments, tails, chi-square
// and Kolmogorov-Smirnov against the exact CDF) and the batched draws of connection values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "connect/drawn_values.hpp"
#include "core/rng.hpp"
#include "core/value_spec.hpp"
#include "stats.hpp"

namespace ranvier {
namespace {

double cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

std::vector<double> draws(int n) {
  const Stream s(2024, Purpose::connect_weight, 3, 77);
  std::vector<double> z(static_cast<size_t>(n));
  s.normals(0, z.size(), z.data());
  return z;
}

TEST(Ziggurat, LayersHaveEqualAreas) {
  const Ziggurat& z = ziggurat;
  const double v = z.x[0] * z.f[1];  // the base: its rectangle of height f(r), tail included
  EXPECT_EQ(z.x[1], Ziggurat::r);
  for (int i = 1; i < Ziggurat::layers; ++i) {
    EXPECT_GT(z.x[i], z.x[i + 1]);
    EXPECT_NEAR(z.x[i] * (z.f[i + 1] - z.f[i]), v, 1e-9 * v) << "layer " << i;
  }
}

TEST(Normal, MomentsAndTails) {
  constexpr int n = 1000000;
  const std::vector<double> z = draws(n);
  double sum = 0, sum2 = 0, sum4 = 0;
  for (double x : z) sum += x, sum2 += x * x, sum4 += x * x * x * x;
  EXPECT_NEAR(sum / n, 0.0, 5 / std::sqrt(double(n)));
  EXPECT_NEAR(sum2 / n, 1.0, 5 * std::sqrt(2.0 / n));
  EXPECT_NEAR(sum4 / n, 3.0, 5 * std::sqrt(96.0 / n));  // var(z^4) = 105 - 9
  // beyond the base (3.65: the tail's own sampler) and in the wedges of the top layers
  for (double t : {0.5, 1.0, 2.0, 3.0, Ziggurat::r, 4.5}) {
    const double p = std::erfc(t / std::sqrt(2.0));
    const double count = double(std::count_if(z.begin(), z.end(), [t](double x) { return std::abs(x) > t; }));
    EXPECT_NEAR(count, n * p, 5 * std::sqrt(n * p * (1 - p)) + 1) << "|z| > " << t;
  }
}

TEST(Normal, ChiSquareAndKolmogorovSmirnov) {
  constexpr int n = 1000000;
  std::vector<double> z = draws(n);
  // 80 bins of width 0.1 in [-4, 4) and the two beyond
  std::vector<double> observed(82, 0.0);
  for (double x : z) observed[size_t(std::clamp(std::floor((x + 4.0) * 10.0) + 1.0, 0.0, 81.0))] += 1;
  double chi2 = 0;
  for (size_t b = 0; b < observed.size(); ++b) {
    const double lo = b == 0 ? -INFINITY : -4.0 + 0.1 * double(b - 1), hi = b == 81 ? INFINITY : -4.0 + 0.1 * double(b);
    const double expected = n * (cdf(hi) - cdf(lo));
    chi2 += (observed[b] - expected) * (observed[b] - expected) / expected;
  }
  EXPECT_LT(chi2, chi2_critical(81));
  std::sort(z.begin(), z.end());
  double d = 0;
  for (size_t i = 0; i < z.size(); ++i)
    d = std::max({d, std::abs(cdf(z[i]) - double(i) / n), std::abs(cdf(z[i]) - double(i + 1) / n)});
  EXPECT_LT(std::sqrt(double(n)) * d, 1.95);  // Kolmogorov's distribution: P(> 1.95) = 0.001
}

TEST(Normal, BatchesEqualSingleDraws) {
  const Stream s(5, Purpose::connect_delay, 1, 2);
  for (uint64_t first : {0, 1, 2, 1000001}) {
    for (size_t n : {1, 2, 7, 64}) {
      std::vector<double> out(n);
      s.normals(first, n, out.data());
      for (size_t i = 0; i < n; ++i) EXPECT_EQ(out[i], s.normal(first + i)) << first << " + " << i;
    }
  }
}

ValueSpec redrawn_normal(double mean, double std, double min, double max) {
  ValueSpec v;
  v.kind = ValueSpec::Kind::normal;
  v.p0 = mean, v.p1 = std, v.min = min, v.max = max;
  return v;
}

TEST(DrawnValues, EqualTheSpecsValuesWhereverTheWindowsBegin) {
  const ValueSpec spec = redrawn_normal(1.5, 0.75, 0.05, INFINITY);
  DrawnValues drawn(spec, 11, Purpose::connect_delay, 4);
  // runs (windows), one value per owner and jumps (single draws), owners revisited
  const std::vector<std::pair<uint32_t, uint64_t>> order = {{7, 0}, {7, 1}, {7, 2},  {7, 40}, {7, 41}, {8, 0},
                                                            {9, 5}, {9, 6}, {7, 42}, {7, 3},  {9, 7}};
  std::vector<std::pair<uint32_t, uint64_t>> all = order;
  for (uint64_t k = 0; k < 100; ++k) all.push_back({12, k});
  for (auto [owner, index] : all) {
    const double v = drawn(owner, index, 0);
    EXPECT_EQ(v, spec.value(0, Stream(11, Purpose::connect_delay, 4, owner), index)) << owner << ", " << index;
    EXPECT_GE(v, 0.05);
  }
}

TEST(DrawnValues, RedrawKeepsTheBoundsAndGivesUpAfterTheCap) {
  const ValueSpec sign = redrawn_normal(-1.0, 2.0, -INFINITY, 0.0);
  DrawnValues drawn(sign, 1, Purpose::connect_weight, 1);
  constexpr int n = 10000;
  double sum = 0;
  for (uint64_t k = 0; k < n; ++k) {
    const double w = drawn(3, k, 0);
    EXPECT_LT(w, 0.0);
    sum += w;
  }
  // the normal truncated above 0: mean mu - sigma phi(a) / Phi(a), a = -mu / sigma
  const double a = 0.5, ratio = std::exp(-0.5 * a * a) / std::sqrt(2 * M_PI) / cdf(a);
  const double mean = -1.0 - 2.0 * ratio, var = 4.0 * (1.0 - a * ratio - ratio * ratio);
  EXPECT_NEAR(sum / n, mean, 5 * std::sqrt(var / n));
  const ValueSpec unreachable = redrawn_normal(0.0, 1.0, 40.0, 41.0);
  DrawnValues never(unreachable, 1, Purpose::connect_weight, 1);
  try {
    never(0, 0, 0);
    FAIL() << "no error";
  } catch (const BadParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("[40.000000, 41.000000)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ranvier
