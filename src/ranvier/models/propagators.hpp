// Exact-integration propagators (Rotter & Diesmann 1999) for a leaky membrane driven by
// exponential or alpha-shaped currents over one step h.
#pragma once
#include <cmath>

namespace ranvier {

// Voltage response at h to a current I(s) = exp(-s/tau_syn) starting at 0 (membrane tau_m, C_m).
inline double propagator_exp_current(double tau_syn, double tau_m, double c_m, double h) {
  const double a = 1.0 / tau_m - 1.0 / tau_syn;
  if (std::fabs(a * h) < 1e-8) return h * std::exp(-h / tau_m) / c_m;  // tau_syn == tau_m
  // (exp(-h/tau_syn) - exp(-h/tau_m)) / a, written with expm1 against cancellation.
  return std::exp(-h / tau_m) * std::expm1(a * h) / a / c_m;
}

// Voltage response at h to a current I(s) = s exp(-s/tau_syn) starting at 0.
inline double propagator_alpha_current(double tau_syn, double tau_m, double c_m, double h) {
  const double a = 1.0 / tau_m - 1.0 / tau_syn;
  if (std::fabs(a * h) < 1e-6) return 0.5 * h * h * std::exp(-h / tau_m) / c_m;
  // exp(-h/tau_m) * (exp(a h) (a h - 1) + 1) / a^2
  const double ah = a * h;
  return std::exp(-h / tau_m) * (std::expm1(ah) * (ah - 1.0) + ah) / (a * a) / c_m;
}

}  // namespace ranvier
