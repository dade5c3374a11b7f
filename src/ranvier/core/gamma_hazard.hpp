// The hazard of a gamma renewal process: x^(a-1) e^(-x) / Gamma(a, x), the density of a gamma
// variable of shape a at x over its survival (Gamma(a, x) is the upper incomplete gamma
// function), for a >= 1 and x >= 0. Below x = a + 1 the lower function's power series gives
// Gamma(a, x) = Gamma(a) - gamma(a, x) (its terms shrink fast there and Q(a, x) is not small);
// above it the continued fraction of Gamma(a, x) e^x x^-a, evaluated with the modified Lentz
// method, gives the ratio without forming e^(-x) at all (Press et al., Numerical Recipes, 6.2).
// Both are summed to a relative 1e-15.
#pragma once
#include <cfloat>
#include <cmath>

namespace ranvier {

// The power series of the lower incomplete gamma function, gamma(a, x) = e^-x x^a times this sum
// of x^n / (a (a+1) ... (a+n)) over n, summed to a relative 1e-15 (it converges for every x > 0,
// fast below x = a + 1).
inline double lower_gamma_series(double a, double x) {
  constexpr double eps = 1e-15;
  constexpr int max_terms = 1000;
  double term = 1.0 / a, sum = term;
  for (int n = 1; n < max_terms && std::abs(term) > std::abs(sum) * eps; ++n) {
    term *= x / (a + n);
    sum += term;
  }
  return sum;
}

inline double gamma_hazard(double a, double x) {
  constexpr double eps = 1e-15, tiny = 1e-300;
  constexpr int max_terms = 1000;
  if (!(x > 0.0)) return a == 1.0 ? 1.0 : 0.0;
  if (x < a + 1.0) {
    const double sum = lower_gamma_series(a, x);
    const double log_density = (a - 1.0) * std::log(x) - x;  // of x^(a-1) e^-x
    const double lower = std::exp(log_density + std::log(x) + std::log(sum));
    return std::exp(log_density) / (std::tgamma(a) - lower);
  }
  // Gamma(a, x) = e^-x x^a / (x + 1 - a - 1 (1 - a) / (x + 3 - a - 2 (2 - a) / (x + 5 - a - ...)))
  double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, fraction = d;
  for (int n = 1; n < max_terms; ++n) {
    const double an = -n * (n - a);
    b += 2.0;
    d = an * d + b;
    d = std::abs(d) < tiny ? 1.0 / tiny : 1.0 / d;
    c = b + an / c;
    if (std::abs(c) < tiny) c = tiny;
    const double delta = d * c;
    fraction *= delta;
    if (std::abs(delta - 1.0) < eps) break;
  }
  return 1.0 / (x * fraction);  // x^(a-1) e^-x / (e^-x x^a fraction)
}

}  // namespace ranvier
