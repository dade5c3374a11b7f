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

// The same two propagators as NEST evaluates them (its IAFPropagator, libnestutil/iaf_propagator):
// equal to the above up to rounding, used by the models whose NEST counterparts use them
// (iaf_psc_alpha, iaf_psc_exp and their multisynapse models), so that their V_m equals NEST's to
// the bit. {P31 (alpha current), P32 (exponential current)}.
struct NestIafPropagators {
  double P31, P32;
};
inline NestIafPropagators nest_iaf_propagators(double tau_syn, double tau_m, double c_m, double h) {
  const double beta = tau_syn * tau_m / (tau_m - tau_syn), gamma = beta / c_m;
  const double inv_beta = (tau_m - tau_syn) / (tau_syn * tau_m);
  const double exp_h_tau_syn = std::exp(-h * (1 / tau_syn)), expm1_h_tau = std::expm1(h * inv_beta);
  const double exp_h_tau = std::exp(-h * (1 / tau_m));
  double P32 = gamma * exp_h_tau_syn * expm1_h_tau;
  if (!(std::isnormal(P32) && P32 > 0)) P32 = h * (1 / c_m) * exp_h_tau;  // tau_syn near tau_m
  const bool regular = h > 1e-7 * tau_m * tau_m / std::abs(tau_m - tau_syn);
  const double P31 = regular ? gamma * exp_h_tau_syn * (beta * expm1_h_tau - h) : 0.5 * h * h * (1 / c_m) * exp_h_tau;
  return {P31, P32};
}

}  // namespace ranvier
