// The jump of a beta-shaped conductance's derivative per unit of weight that makes the
// conductance peak at the weight (Rotter & Diesmann 1999), with NEST's fallback to the alpha
// function's factor where the peak cannot be resolved (equal time constants).
#pragma once
#include <cfloat>
#include <cmath>

namespace ranvier {

inline double beta_peak_factor(double tau_rise, double tau_decay) {
  const double difference = tau_decay - tau_rise;
  double peak = 0.0;
  if (std::abs(difference) > DBL_EPSILON) {
    const double t_peak = tau_decay * tau_rise * std::log(tau_decay / tau_rise) / difference;
    peak = std::exp(-t_peak / tau_decay) - std::exp(-t_peak / tau_rise);
  }
  if (std::abs(peak) < DBL_EPSILON) return M_E / tau_decay;
  return (1.0 / tau_rise - 1.0 / tau_decay) / peak;
}

}  // namespace ranvier
