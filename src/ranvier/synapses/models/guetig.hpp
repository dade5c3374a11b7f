// The weight updates of STDP after Guetig et al. (2003), as NEST 3.10's stdp_synapse and its
// nearest-neighbour variants have them: with w normalised by Wmax, facilitation adds
// lambda (1 - w)^mu_plus K+ (capped at 1) and depression subtracts alpha lambda w^mu_minus K-
// (floored at 0).
#pragma once
#include <cmath>
#include <string>

#include "core/errors.hpp"

namespace ranvier {

struct Guetig {
  double tau_plus, lambda, alpha, mu_plus, mu_minus, w_max;
  // From a record that starts with these six parameters (stdp_synapse's order).
  static Guetig of(const double* r) { return {r[0], r[1], r[2], r[3], r[4], r[5]}; }
  double facilitate(double w, double kp) const {
    const double norm = w / w_max + lambda * std::pow(1.0 - w / w_max, mu_plus) * kp;
    return norm < 1.0 ? norm * w_max : w_max;
  }
  double depress(double w, double k_minus) const {
    const double norm = w / w_max - alpha * lambda * std::pow(w / w_max, mu_minus) * k_minus;
    return norm > 0.0 ? norm * w_max : 0.0;
  }
};

// NEST: "Weight and Wmax must have same sign" (zero counts as positive).
inline void check_sign(double w, double w_max) {
  if ((w >= 0.0) != (w_max >= 0.0)) throw bad_value("weight", w, "of the sign of Wmax = " + std::to_string(w_max));
}

}  // namespace ranvier
