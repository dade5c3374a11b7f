// The weight updates of STDP after Guetig et al. (2003), as NEST 3.10's stdp_synapse and its
// nearest-neighbour variants have them: with w normalised by Wmax, facilitation adds
// lambda (1 - w)^mu_plus K+ (capped at 1) and depression subtracts alpha lambda w^mu_minus K-
// (floored at 0). Power is how x^mu is taken: Exponent for an exponent per connection, a
// model's PowerTable for a common one.
#pragma once
#include <string>

#include "core/errors.hpp"
#include "core/power.hpp"

namespace ranvier {

struct Exponent {
  double mu;
  double operator()(double x) const { return power(x, mu); }
};

template <class Power>
struct GuetigRule {
  double lambda, alpha, w_max;
  Power plus, minus;  // x^mu_plus, x^mu_minus
  double facilitate(double w, double kp) const {
    const double norm = w / w_max + lambda * plus(1.0 - w / w_max) * kp;
    return norm < 1.0 ? norm * w_max : w_max;
  }
  double depress(double w, double k_minus) const {
    const double norm = w / w_max - alpha * lambda * minus(w / w_max) * k_minus;
    return norm > 0.0 ? norm * w_max : 0.0;
  }
};
using Guetig = GuetigRule<Exponent>;

// From a record that starts with stdp_synapse's parameters: tau_plus, lambda, alpha, mu_plus,
// mu_minus, Wmax.
inline Guetig guetig_of(const double* r) { return {r[1], r[2], r[5], {r[3]}, {r[4]}}; }

// NEST: "Weight and Wmax must have same sign" (zero counts as positive).
inline void check_sign(double w, double w_max) {
  if ((w >= 0.0) != (w_max >= 0.0)) throw bad_value("weight", w, "of the sign of Wmax = " + std::to_string(w_max));
}

}  // namespace ranvier
