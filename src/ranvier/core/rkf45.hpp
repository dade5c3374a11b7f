// Embedded Runge-Kutta-Fehlberg 4(5) integration with adaptive step size control, for the
// neuron models with nonlinear dynamics.
//
// The step control follows the rule NEST gets from GSL (gsl_odeiv_evolve_apply with the
// rkf45 stepper and the standard control), so that a model integrated here takes the same
// steps as in NEST:
//   - the fifth-order solution is propagated, the difference to the fourth-order one is the
//     error estimate of each component;
//   - a component may err by D = eps_abs + eps_rel (a_y |y| + a_dydt h |y'|);
//   - with r = max |error| / D: r > 1.1 rejects the step and retries it with
//     h max(0.2, 0.9 r^(-1/5)); r < 0.5 accepts it and proposes h min(5, max(1, 0.9 r^(-1/6)))
//     for the next one; otherwise the step is accepted and kept;
//   - a step never passes the end of the interval (it is shortened to end there), and the
//     step size proposed after the last step of an interval is where the next interval starts.
//
// Lanes: W neurons are integrated side by side, each with its own step size and time, so that
// the stages and the right-hand side run as vector instructions across neurons (NEST calls
// GSL once per neuron). A lane that has reached the end of the interval, or that carries no
// neuron, idles with a step of zero until every lane is done. Each lane's arithmetic is the
// same whatever the other lanes hold (no fused multiply-add, no cross-lane operation), so a
// neuron's trajectory does not depend on which lane or batch it falls in: spikes stay
// identical for any number of threads.
#pragma once
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace ranvier::ode {

constexpr int lanes = 4;

// Error target of a component: eps_abs + eps_rel (a_y |y| + a_dydt h |dy/dt|); eps per lane.
struct Tolerance {
  double a_y, a_dydt;
  double eps_abs[lanes], eps_rel[lanes];
};
// On the values (GSL's control_y_new), and on the derivatives (control_yp_new).
inline Tolerance on_values(double eps_abs, double eps_rel) {
  Tolerance t{1.0, 0.0, {}, {}};
  std::fill_n(t.eps_abs, lanes, eps_abs);
  std::fill_n(t.eps_rel, lanes, eps_rel);
  return t;
}
inline Tolerance on_derivatives() { return Tolerance{0.0, 1.0, {}, {}}; }

// e^x of the C library, x clamped to [-708, 709]. Its scalar call costs less than a vectorised
// series without FMA (core/exp_series.hpp): hh_psc_alpha, six exponentials per right-hand side,
// ran 1.8x faster (stop 48), as NEST's models compute them.
[[gnu::always_inline]] inline double exp(double x) { return std::exp(std::min(std::max(x, -708.0), 709.0)); }

// Fehlberg's coefficients: stage weights, fifth-order weights and the differences fifth minus
// fourth order that estimate the error.
namespace fehlberg {
constexpr double a2 = 1.0 / 4.0;
constexpr double b31 = 3.0 / 32.0, b32 = 9.0 / 32.0;
constexpr double b41 = 1932.0 / 2197.0, b42 = -7200.0 / 2197.0, b43 = 7296.0 / 2197.0;
constexpr double b51 = 439.0 / 216.0, b52 = -8.0, b53 = 3680.0 / 513.0, b54 = -845.0 / 4104.0;
constexpr double b61 = -8.0 / 27.0, b62 = 2.0, b63 = -3544.0 / 2565.0, b64 = 1859.0 / 4104.0, b65 = -11.0 / 40.0;
constexpr double c1 = 16.0 / 135.0, c3 = 6656.0 / 12825.0, c4 = 28561.0 / 56430.0, c5 = -9.0 / 50.0, c6 = 2.0 / 55.0;
constexpr double e1 = 1.0 / 360.0, e3 = -128.0 / 4275.0, e4 = -2197.0 / 75240.0, e5 = 1.0 / 50.0, e6 = 2.0 / 55.0;
constexpr int order = 5;
}  // namespace fehlberg

// State of W lanes: component k of lane l at [k * W + l] (room for `lanes`).
template <int n>
using Block = double[n * lanes];

// The lanes a System integrates side by side: its `width` where it declares one (a system of
// one neuron at a time: 1), else `lanes`.
template <class System>
constexpr int width_of() {
  if constexpr (requires { System::width; }) {
    static_assert(System::width >= 1 && System::width <= lanes);
    return System::width;
  } else {
    return lanes;
  }
}

// The right-hand side of every lane at the lanes' times t (within the step): a System's
// `derivatives_at(t, y, dydt)` where its right-hand side depends on time (a gap junction's
// interpolated partner potential), else its `derivatives(y, dydt)`.
template <class System>
[[gnu::always_inline]] inline void derivatives(const System& sys, const double* t, const double* y, double* dydt) {
  if constexpr (requires { sys.derivatives_at(t, y, dydt); })
    sys.derivatives_at(t, y, dydt);
  else
    sys.derivatives(y, dydt);
}

// One step of size h[l] in every lane from y at times t (derivative k1 there) into out, with
// the error estimate in err. System: `static constexpr int n` and the right-hand side
// (derivatives above) over the W = width_of<System>() lanes of a block; the stages' times are
// GSL's, t + c h with c = 1/4, 3/8, 12/13, 1, 1/2.
template <class System>
inline void rkf45_step(const System& sys, const double* t, const double* y, const double* k1, const double* h,
                       double* out, double* err) {
  using namespace fehlberg;
  constexpr int n = System::n, W = width_of<System>();
  alignas(64) Block<n> k2, k3, k4, k5, k6, tmp;
  double at[W];
  auto stage = [&](double c, auto&& combine) {
    for (int k = 0; k < n; ++k) {
#pragma omp simd
      for (int l = 0; l < W; ++l) tmp[k * W + l] = y[k * W + l] + h[l] * combine(k * W + l);
    }
    for (int l = 0; l < W; ++l) at[l] = t[l] + c * h[l];
  };
  stage(1.0 / 4.0, [&](int j) { return a2 * k1[j]; });
  derivatives(sys, at, tmp, k2);
  stage(3.0 / 8.0, [&](int j) { return b31 * k1[j] + b32 * k2[j]; });
  derivatives(sys, at, tmp, k3);
  stage(12.0 / 13.0, [&](int j) { return b41 * k1[j] + b42 * k2[j] + b43 * k3[j]; });
  derivatives(sys, at, tmp, k4);
  stage(1.0, [&](int j) { return b51 * k1[j] + b52 * k2[j] + b53 * k3[j] + b54 * k4[j]; });
  derivatives(sys, at, tmp, k5);
  stage(1.0 / 2.0, [&](int j) { return b61 * k1[j] + b62 * k2[j] + b63 * k3[j] + b64 * k4[j] + b65 * k5[j]; });
  derivatives(sys, at, tmp, k6);
  for (int k = 0; k < n; ++k) {
#pragma omp simd
    for (int l = 0; l < W; ++l) {
      const int j = k * W + l;
      out[j] = y[j] + h[l] * (c1 * k1[j] + c3 * k3[j] + c4 * k4[j] + c5 * k5[j] + c6 * k6[j]);
      err[j] = h[l] * (e1 * k1[j] + e3 * k3[j] + e4 * k4[j] + e5 * k5[j] + e6 * k6[j]);
    }
  }
}

// Factor for the next step after an accepted one with error ratio r < 0.5: 0.9 r^(-1/6),
// within [1, 5]. Below 0.18^6 the factor is 5 whatever r, which saves the power.
inline double growth(double r) {
  constexpr double capped = 0.18 * 0.18 * 0.18 * 0.18 * 0.18 * 0.18;
  if (r < capped) return 5.0;
  return std::min(5.0, std::max(1.0, 0.9 / std::pow(r, 1.0 / (fehlberg::order + 1.0))));
}

// An item that needs more than `max_attempts` solver steps (accepted or not) for one interval:
// its values have run off to where no step size satisfies the tolerance (a current of -1e50 pA),
// and the step would shrink towards zero for ever.
// The caller names the item in the NumericalInstabilityError it raises.
constexpr long max_attempts = 100000;
struct Stalled : std::runtime_error {
  size_t item;
  Stalled(size_t which, double t, double h)
      : std::runtime_error("the adaptive solver stalled: more than " + std::to_string(max_attempts) +
                           " steps within one step of the network, " + std::to_string(t) +
                           " ms into it, with a step size of " + std::to_string(h) + " ms"),
        item(which) {}
};

// Advances `count` items (neurons) over an interval of length T each, W lanes at a time.
// load(l, k) puts item k into lane l: its parameters into sys, its state into y, the step
// size it tries first into step[l] (and its tolerance into tol); finish(l, k) takes it out,
// with step[l] the size proposed for what follows (kept per neuron from one interval to the
// next). A lane whose item has reached T takes the next item at once, so lanes do not wait
// for a neighbour that needs many small steps (a neuron in its action potential).
// after_step(l, k) sees a lane after each of its accepted steps and may change its state
// (the aeif models reset within the interval).
template <class System, class Load, class Finish, class AfterStep>
inline void integrate(System& sys, double* y, double T, double* step, const Tolerance& tol, size_t count, Load&& load,
                      Finish&& finish, AfterStep&& after_step) {
  constexpr int n = System::n, W = width_of<System>();
  if (count == 0) return;  // idle lanes copy item 0, which an empty group lacks
  alignas(64) Block<n> k1, next, err, dydt;
  double t[W], h[W], ratio[W];
  size_t item[W];
  long attempts[W] = {};
  constexpr size_t none = ~size_t(0);
  size_t queued = 0;
  for (int l = 0; l < W; ++l) {
    // An idle lane holds a copy of item 0, so that its (discarded) arithmetic stays finite.
    const bool used = queued < count;
    load(l, used ? queued : 0);
    item[l] = used ? queued++ : none;
    t[l] = used ? 0.0 : T;
    h[l] = step[l];
  }
  const bool needs_end_derivative = tol.a_dydt != 0.0;
  if (!needs_end_derivative) std::fill_n(dydt, n * W, 0.0);
  derivatives(sys, t, y, k1);
  for (;;) {
    bool last[W], running = false;
    for (int l = 0; l < W; ++l) {
      const bool active = item[l] != none;
      running = running || active;
      last[l] = active && h[l] > T - t[l];
      if (last[l]) h[l] = T - t[l];
      if (!active) h[l] = 0.0;
      if (active && ++attempts[l] > max_attempts) throw Stalled(item[l], t[l], h[l]);
    }
    if (!running) break;
    rkf45_step(sys, t, y, k1, h, next, err);
    if (needs_end_derivative) {
      double t_end[W];
      for (int l = 0; l < W; ++l) t_end[l] = t[l] + h[l];
      derivatives(sys, t_end, next, dydt);
    }
    for (int l = 0; l < W; ++l) ratio[l] = DBL_MIN;
    for (int k = 0; k < n; ++k) {
#pragma omp simd
      for (int l = 0; l < W; ++l) {
        const int j = k * W + l;
        const double target =
            tol.eps_rel[l] * (tol.a_y * std::fabs(next[j]) + tol.a_dydt * std::fabs(h[l] * dydt[j])) + tol.eps_abs[l];
        ratio[l] = std::max(ratio[l], std::fabs(err[j]) / std::fabs(target));
      }
    }
    bool changed = false;
    for (int l = 0; l < W; ++l) {
      if (item[l] == none) continue;
      const double r = ratio[l];
      const double t_next = last[l] ? T : t[l] + h[l];
      if (r > 1.1) {
        const double smaller = h[l] * std::max(0.2, 0.9 / std::pow(r, 1.0 / fehlberg::order));
        if (smaller < h[l] && t_next + smaller != t_next) {  // retry from t with the smaller step
          h[l] = smaller;
          continue;
        }
      } else if (r < 0.5) {
        h[l] *= growth(r);
      }
      for (int k = 0; k < n; ++k) y[k * W + l] = next[k * W + l];
      t[l] = t_next;
      step[l] = h[l];
      after_step(l, item[l]);
      changed = true;
      if (t[l] < T) continue;
      finish(l, item[l]);
      item[l] = none;
      if (queued < count) {
        load(l, queued);
        item[l] = queued++;
        t[l] = 0.0;
        h[l] = step[l];
        attempts[l] = 0;
      }
    }
    if (changed) derivatives(sys, t, y, k1);  // a rejected lane's y, hence its k1, is unchanged
  }
}

}  // namespace ranvier::ode
