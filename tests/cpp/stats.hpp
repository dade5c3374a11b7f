// Statistics the distribution tests share.
#pragma once
#include <cmath>

namespace ranvier {

// Upper critical value of chi-square with k degrees of freedom at p = 0.001 (Wilson and Hilferty 1931).
inline double chi2_critical(int k) {
  const double a = 2.0 / (9.0 * k);
  return k * std::pow(1.0 - a + 3.09 * std::sqrt(a), 3);
}

}  // namespace ranvier
