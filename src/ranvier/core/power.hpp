// x^mu where plastic synapses raise weights to an exponent at every event (power-law and
// Guetig STDP). The C library's pow takes ~15 ns here and is most of such an event's cost.
// power() is std::pow with mu = 0 and mu = 1 answered exactly (1 and x, as std::pow has them);
// PowerTable is x^mu for one exponent fixed before a run, from tables and a short series,
// within 5e-16 relative of std::pow (tests/cpp/power_test.cpp measures both bounds).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace ranvier {

inline double power(double x, double mu) {
  if (mu == 1.0) return x;
  if (mu == 0.0) return 1.0;
  return std::pow(x, mu);
}

// x = 2^e m with m in [1, 2): x^mu = (2^e)^mu c^mu (1 + d)^mu, where c is the centre of m's
// interval among 2^9 of [1, 2) and d = m / c - 1, |d| <= 2^-10. The two powers come from
// tables of std::pow's values; (1 + d)^mu from its binomial series to degree 5, whose remainder
// is below 2^-63 relative where |binom(mu, 6)| <= 1/8. Other exponents, and x that is zero,
// subnormal, negative, infinite, NaN or in a binade whose power is near the ends of the double
// range, go to power().
class PowerTable {
 public:
  explicit PowerTable(double mu);
  double exponent() const { return mu_; }
  double operator()(double x) const {
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof x);
    const double scale = binade_[bits >> 52];  // indexed by sign and exponent: 0 where power() answers
    if (scale == 0.0) return power(x, mu_);
    const Interval& c = intervals_[(bits >> (52 - interval_bits)) & (intervals - 1)];
    const uint64_t m_bits = (bits & ((uint64_t(1) << 52) - 1)) | (uint64_t(1023) << 52);
    double m;
    std::memcpy(&m, &m_bits, sizeof m);
    const double d = (m - c.centre) * c.inverse;  // m - c is exact
    const double d2 = d * d;
    const double q = d * ((b_[0] + b_[1] * d) + d2 * ((b_[2] + b_[3] * d) + d2 * b_[4]));
    return scale * (c.power + c.power * q);
  }

 private:
  static constexpr int interval_bits = 9;
  static constexpr size_t intervals = size_t(1) << interval_bits;
  struct Interval {
    double centre, inverse, power;  // c, 1 / c, c^mu
  };
  double mu_;
  double b_[5] = {};            // binom(mu, n) for n = 1..5
  std::vector<double> binade_;  // (2^e)^mu by the top 12 bits of x
  std::vector<Interval> intervals_;
};

inline PowerTable::PowerTable(double mu) : mu_(mu), binade_(4096, 0.0) {
  double b = 1.0;
  for (int n = 1; n <= 5; ++n) b_[n - 1] = b *= (mu - (n - 1)) / n;
  const double remainder = b * (mu - 5.0) / 6.0;  // binom(mu, 6)
  if (mu == 0.0 || mu == 1.0 || !(std::fabs(remainder) <= 0.125)) return;
  intervals_.resize(intervals);
  for (size_t i = 0; i < intervals; ++i) {
    const double centre = 1.0 + (double(i) + 0.5) / double(intervals);
    intervals_[i] = {centre, 1.0 / centre, std::pow(centre, mu)};
  }
  // c^mu lies within 2^-6 and 2^6 (|mu| <= 5.6 here), so a binade's power kept within 2^-1000
  // and 2^1000 leaves the product a normal double.
  for (int e = 1; e < 2047; ++e) {
    const double scale = std::pow(std::ldexp(1.0, e - 1023), mu);
    if (scale >= 0x1p-1000 && scale <= 0x1p1000) binade_[size_t(e)] = scale;
  }
}

}  // namespace ranvier
