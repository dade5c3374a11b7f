// Embedded Runge-Kutta-Fehlberg 4(5) integration with adaptive step size control, for the
// neuron models with nonlinear dynamics.
//
// The step control follows the rule NEST gets from GSL (gsl_odeiv_evolve_apply with the
// rkf45 stepper and the standard control), so that a model integrated here takes the same
// steps as in NEST and traces agree to rounding:
//   - the fifth-order solution is propagated, the difference to the fourth-order one is the
//     error estimate of each component;
//   - a component may err by D = eps_abs + eps_rel (a_y |y| + a_dydt h |y'|);
//   - with r = max |error| / D: r > 1.1 rejects the step and retries it with
//     h max(0.2, 0.9 r^(-1/5)); r < 0.5 accepts it and proposes h min(5, max(1, 0.9 r^(-1/6)))
//     for the next one; otherwise the step is accepted and kept;
//   - a step never passes the end of the interval (it is shortened to end there), and the
//     step size proposed after the last step of an interval is where the next interval starts.
// The system is a template argument, so its right-hand side is inlined into the stages: no
// call through a pointer per evaluation, and the state of one neuron lives in registers.
#pragma once
#include <algorithm>
#include <cfloat>
#include <cmath>

namespace ranvier::ode {

// Error target of a component: eps_abs + eps_rel (a_y |y| + a_dydt h |dy/dt|).
struct Tolerance {
  double eps_abs, eps_rel, a_y, a_dydt;
};
// On the values (GSL's control_y_new), and on the derivatives (control_yp_new).
constexpr Tolerance on_values(double eps_abs, double eps_rel) { return {eps_abs, eps_rel, 1.0, 0.0}; }
constexpr Tolerance on_derivatives(double eps_abs, double eps_rel) { return {eps_abs, eps_rel, 0.0, 1.0}; }

// Fehlberg's coefficients: stage nodes, stage weights, fifth-order weights and the
// differences fifth minus fourth order that estimate the error.
namespace fehlberg {
constexpr double a2 = 1.0 / 4.0;
constexpr double b31 = 3.0 / 32.0, b32 = 9.0 / 32.0;
constexpr double b41 = 1932.0 / 2197.0, b42 = -7200.0 / 2197.0, b43 = 7296.0 / 2197.0;
constexpr double b51 = 439.0 / 216.0, b52 = -8.0, b53 = 3680.0 / 513.0, b54 = -845.0 / 4104.0;
constexpr double b61 = -8.0 / 27.0, b62 = 2.0, b63 = -3544.0 / 2565.0, b64 = 1859.0 / 4104.0,
                 b65 = -11.0 / 40.0;
constexpr double c1 = 16.0 / 135.0, c3 = 6656.0 / 12825.0, c4 = 28561.0 / 56430.0, c5 = -9.0 / 50.0,
                 c6 = 2.0 / 55.0;
constexpr double e1 = 1.0 / 360.0, e3 = -128.0 / 4275.0, e4 = -2197.0 / 75240.0, e5 = 1.0 / 50.0,
                 e6 = 2.0 / 55.0;
constexpr int order = 5;
}  // namespace fehlberg

// One step of size h from y (derivative k1 there) into out, with the error estimate in err.
// System: `static constexpr int n` and `void derivatives(const double* y, double* dydt) const`
// (autonomous: the models' right-hand sides do not depend on time within a step).
template <class System>
inline void rkf45_step(const System& sys, const double* y, const double* k1, double h, double* out, double* err) {
  using namespace fehlberg;
  constexpr int n = System::n;
  double k2[n], k3[n], k4[n], k5[n], k6[n], tmp[n];
  for (int i = 0; i < n; ++i) tmp[i] = y[i] + h * a2 * k1[i];
  sys.derivatives(tmp, k2);
  for (int i = 0; i < n; ++i) tmp[i] = y[i] + h * (b31 * k1[i] + b32 * k2[i]);
  sys.derivatives(tmp, k3);
  for (int i = 0; i < n; ++i) tmp[i] = y[i] + h * (b41 * k1[i] + b42 * k2[i] + b43 * k3[i]);
  sys.derivatives(tmp, k4);
  for (int i = 0; i < n; ++i) tmp[i] = y[i] + h * (b51 * k1[i] + b52 * k2[i] + b53 * k3[i] + b54 * k4[i]);
  sys.derivatives(tmp, k5);
  for (int i = 0; i < n; ++i)
    tmp[i] = y[i] + h * (b61 * k1[i] + b62 * k2[i] + b63 * k3[i] + b64 * k4[i] + b65 * k5[i]);
  sys.derivatives(tmp, k6);
  for (int i = 0; i < n; ++i) {
    out[i] = y[i] + h * (c1 * k1[i] + c3 * k3[i] + c4 * k4[i] + c5 * k5[i] + c6 * k6[i]);
    err[i] = h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i]);
  }
}

// Largest ratio of a component's error to its target. With eps_rel = 0 every component has
// the same target, and one division of the largest error gives the same number.
template <int n>
inline double error_ratio(const double* y, const double* err, const double* dydt, double h, const Tolerance& tol) {
  double worst = DBL_MIN;
  if (tol.eps_rel == 0.0) {
    double largest = 0.0;
    for (int i = 0; i < n; ++i) largest = std::max(largest, std::fabs(err[i]));
    return std::max(worst, largest / std::fabs(tol.eps_abs));
  }
  for (int i = 0; i < n; ++i) {
    const double target = tol.eps_rel * (tol.a_y * std::fabs(y[i]) + tol.a_dydt * std::fabs(h * dydt[i])) + tol.eps_abs;
    worst = std::max(worst, std::fabs(err[i]) / std::fabs(target));
  }
  return worst;
}

// Factor for the next step after an accepted one with error ratio r < 0.5: 0.9 r^(-1/6),
// within [1, 5]. Below 0.18^6 the factor is 5 whatever r, which saves the power.
inline double growth(double r) {
  constexpr double capped = 0.18 * 0.18 * 0.18 * 0.18 * 0.18 * 0.18;
  if (r < capped) return 5.0;
  return std::min(5.0, std::max(1.0, 0.9 / std::pow(r, 1.0 / (fehlberg::order + 1.0))));
}

// Advances y over an interval of length T. `step` is the step size to try first; it returns
// the one proposed for what follows (kept per neuron from one interval to the next).
// `after_step(y)` sees the state after every accepted step and may change it (the aeif
// models reset within the interval).
template <class System, class AfterStep>
inline void integrate(const System& sys, double* y, double T, double& step, const Tolerance& tol,
                      AfterStep&& after_step) {
  using namespace fehlberg;
  constexpr int n = System::n;
  double k1[n], next[n], err[n], dydt[n];
  const bool needs_end_derivative = tol.a_dydt != 0.0;
  double t = 0.0;
  while (t < T) {
    sys.derivatives(y, k1);
    double h = step;
    for (;;) {
      const bool last = h > T - t;
      if (last) h = T - t;
      rkf45_step(sys, y, k1, h, next, err);
      const double t_next = last ? T : t + h;
      if (needs_end_derivative) sys.derivatives(next, dydt);
      const double r = error_ratio<n>(next, err, dydt, h, tol);
      if (r > 1.1) {
        const double smaller = h * std::max(0.2, 0.9 / std::pow(r, 1.0 / order));
        if (smaller < h && t_next + smaller != t_next) {  // retry from t with the smaller step
          h = smaller;
          continue;
        }
      } else if (r < 0.5) {
        h *= growth(r);
      }
      for (int i = 0; i < n; ++i) y[i] = next[i];
      t = t_next;
      step = h;
      break;
    }
    after_step(y);
  }
}

template <class System>
inline void integrate(const System& sys, double* y, double T, double& step, const Tolerance& tol) {
  integrate(sys, y, T, step, tol, [](double*) {});
}

}  // namespace ranvier::ode
