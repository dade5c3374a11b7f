// Definite integrals of smooth functions by adaptive Gauss-Kronrod quadrature: the 15-point
// Kronrod rule with its embedded 7-point Gauss rule on each interval, whose difference
// estimates the error; intervals are halved until each meets its share of the tolerance.
#pragma once
#include <cmath>

namespace ranvier::quadrature {

namespace detail {

// Kronrod nodes on [-1, 1] (the positive half; the Gauss nodes are the odd ones) and weights.
constexpr double node[8] = {0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
                            0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
                            0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
                            0.207784955007898467600689403773245, 0.0};
constexpr double kronrod[8] = {0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
                               0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
                               0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
                               0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
constexpr double gauss[4] = {0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
                             0.381830050505118944950369775488975, 0.417959183673469387755102040816327};

template <class F>
double adapt(F& f, double a, double b, double tol, int depth) {
  const double mid = 0.5 * (a + b), half = 0.5 * (b - a);
  double k = kronrod[7] * f(mid), g = gauss[3] * f(mid);
  for (int j = 0; j < 7; ++j) {
    const double sum = f(mid - half * node[j]) + f(mid + half * node[j]);
    k += kronrod[j] * sum;
    if (j % 2 == 1) g += gauss[j / 2] * sum;
  }
  k *= half, g *= half;
  if (std::fabs(k - g) <= tol || depth == 0) return k;
  return adapt(f, a, mid, 0.5 * tol, depth - 1) + adapt(f, mid, b, 0.5 * tol, depth - 1);
}

}  // namespace detail

// The integral of f over [a, b] to within about rel_tol of it (an estimate from a first pass
// sets the absolute target); at most 2^40 intervals deep.
template <class F>
double integrate(F f, double a, double b, double rel_tol) {
  if (a == b) return 0.0;
  const double estimate = detail::adapt(f, a, b, INFINITY, 0);
  return detail::adapt(f, a, b, std::fabs(estimate) * rel_tol, 40);
}

}  // namespace ranvier::quadrature
