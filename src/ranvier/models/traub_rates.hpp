// The gating rates of Traub and Miles (1991) as NEST's hh_cond_exp_traub and
// hh_cond_beta_gap_traub have them, at u (mV): V_m - V_T in the dynamics (NEST's initial
// states take V_m itself). `exp` is the exponential to use: the solver's vectorisable one in
// a right-hand side.
#pragma once

namespace ranvier {

struct TraubRates {
  double alpha_m, beta_m, alpha_h, beta_h, alpha_n, beta_n;
  template <class Exp>
  [[gnu::always_inline]] TraubRates(double u, Exp exp)
      : alpha_m(0.32 * (13.0 - u) / (exp((13.0 - u) / 4.0) - 1.0)),
        beta_m(0.28 * (u - 40.0) / (exp((u - 40.0) / 5.0) - 1.0)),
        alpha_h(0.128 * exp((17.0 - u) / 18.0)),
        beta_h(4.0 / (1.0 + exp((40.0 - u) / 5.0))),
        alpha_n(0.032 * (15.0 - u) / (exp((15.0 - u) / 5.0) - 1.0)),
        beta_n(0.5 * exp((10.0 - u) / 40.0)) {}
};

}  // namespace ranvier
