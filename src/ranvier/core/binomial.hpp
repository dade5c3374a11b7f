// Binomial(n, p) deviates, exact for any n: inversion where n p < 10, else Hormann's (1993)
// transformed rejection with squeeze (BTRS), whose cost does not grow with n. Attempt j reads
// the uniforms at first + 2j and first + 2j + 1 of the stream, so a deviate depends only on
// the stream and `first` (callers that draw many from one stream space them 2^16 apart: an
// attempt is accepted with probability above 0.7).
#pragma once
#include <cmath>
#include <cstdint>

#include "core/rng.hpp"

namespace ranvier {

inline uint64_t binomial(const Stream& s, uint64_t n, double p, uint64_t first = 0) {
  if (n == 0 || p <= 0.0) return 0;
  if (p >= 1.0) return n;
  if (p > 0.5) return n - binomial(s, n, 1.0 - p, first);
  const double q = 1.0 - p, np = double(n) * p;
  if (np < 10.0) {  // inversion: walk the pmf from 0
    const double ratio = p / q;
    double pmf = std::exp(double(n) * std::log1p(-p)), u = s.uniform(first);
    uint64_t k = 0;
    while (u > pmf && k < n) {
      u -= pmf;
      ++k;
      pmf *= ratio * double(n - k + 1) / double(k);
    }
    return k;
  }
  const double spq = std::sqrt(np * q), b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p;
  const double c = np + 0.5, v_r = 0.92 - 4.2 / b, alpha = (2.83 + 5.1 / b) * spq, lpq = std::log(p / q);
  const double m = std::floor(double(n + 1) * p);
  const double h = std::lgamma(m + 1.0) + std::lgamma(double(n) - m + 1.0);
  for (uint64_t attempt = 0;; ++attempt) {
    const double u = s.uniform(first + 2 * attempt) - 0.5, us = 0.5 - std::fabs(u);
    double v = s.uniform(first + 2 * attempt + 1);
    const double k = std::floor((2.0 * a / us + b) * u + c);
    if (k < 0.0 || k > double(n)) continue;
    if (us >= 0.07 && v <= v_r) return uint64_t(k);
    v = std::log(v * alpha / (a / (us * us) + b));
    if (v <= h - std::lgamma(k + 1.0) - std::lgamma(double(n) - k + 1.0) + (k - m) * lpq) return uint64_t(k);
  }
}

}  // namespace ranvier
