// The gamma renewal hazard against its closed forms for whole shapes (Gamma(1, x) = e^-x;
// Gamma(2, x) = (x + 1) e^-x; Gamma(3, x) = (x^2 + 2x + 2) e^-x) on both sides of the
// series / continued-fraction switch, and against a numerical integral for a shape between.
#include <gtest/gtest.h>

#include <cmath>

#include "core/gamma_hazard.hpp"

namespace ranvier {
namespace {

TEST(GammaHazard, WholeShapesMatchClosedForms) {
  for (double x : {0.0, 1e-6, 0.3, 1.9, 2.0, 2.1, 3.9, 4.1, 10.0, 50.0, 700.0, 5000.0}) {
    EXPECT_NEAR(gamma_hazard(1.0, x), 1.0, 1e-14) << x;
    EXPECT_NEAR(gamma_hazard(2.0, x), x / (x + 1.0), 1e-14 * (1.0 + x)) << x;
    EXPECT_NEAR(gamma_hazard(3.0, x), x * x / (x * x + 2.0 * x + 2.0), 1e-14) << x;
  }
}

TEST(GammaHazard, FractionalShapeMatchesIntegral) {
  // Gamma(a, x) by Simpson's rule on [x, x + 60] (the rest is below 1e-20 of it here)
  const double a = 2.5;
  for (double x : {0.5, 3.4, 3.6, 8.0}) {
    const int n = 200000;
    const double h = 60.0 / n;
    double integral = 0.0;
    for (int k = 0; k <= n; ++k) {
      const double t = x + k * h, f = std::pow(t, a - 1.0) * std::exp(-t);
      integral += f * (k == 0 || k == n ? 1.0 : (k % 2 ? 4.0 : 2.0));
    }
    integral *= h / 3.0;
    const double expected = std::pow(x, a - 1.0) * std::exp(-x) / integral;
    EXPECT_NEAR(gamma_hazard(a, x), expected, 1e-10 * expected) << x;
  }
}

}  // namespace
}  // namespace ranvier
